#include "pattern/simulated_phase1.h"

#include "pattern/pattern_check.h"
#include "pattern/simulator.h"

#include <algorithm>

namespace nbrcomb::detail {

std::vector<Pattern> simulate_patterns(const std::vector<LocalGraph>& graphs, const PatternSettings& settings) {
    return simulate<Pattern>(static_cast<int>(graphs.size()), [&](Transport& transport) {
        return build_pattern(transport, graphs[static_cast<std::size_t>(transport.rank())], settings);
    });
}

std::vector<AggregationPattern> simulate_aggregation(const std::vector<LocalGraph>& graphs,
                                                     const std::vector<int>& node_of) {
    const auto nodes = std::make_shared<const std::vector<int>>(node_of);
    return simulate<AggregationPattern>(static_cast<int>(graphs.size()), [&](Transport& transport) {
        const auto rank = static_cast<std::size_t>(transport.rank());
        return build_aggregation(transport, graphs[rank], nodes);
    });
}

GridChoices simulate_grid_choice(const std::vector<LocalGraph>& graphs, std::shared_ptr<const std::vector<int>> node_of) {
    const GridSurvey survey(std::move(node_of));
    std::vector<int> maximum;
    for (const LocalGraph& graph : graphs) {
        const std::vector<int> mine = survey.of(graph);
        if (maximum.empty()) maximum = mine;
        for (std::size_t i = 0; i < mine.size(); ++i) maximum[i] = std::max(maximum[i], mine[i]);
    }
    return survey.choose(maximum);
}

std::vector<GridPattern> simulate_grid_routing(const std::vector<LocalGraph>& graphs,
                                               const std::shared_ptr<const ProcessGrid>& grid) {
    return simulate<GridPattern>(static_cast<int>(graphs.size()), [&](Transport& transport) {
        return build_grid_routing(transport, graphs[static_cast<std::size_t>(transport.rank())], grid);
    });
}

std::vector<std::string> simulate_pattern_check(const std::vector<LocalGraph>& graphs,
                                                const std::vector<Pattern>& patterns) {
    const auto per_rank = simulate<std::vector<std::string>>(static_cast<int>(graphs.size()), [&](Transport& transport) {
        const auto rank = static_cast<std::size_t>(transport.rank());
        return check_pattern(transport, graphs[rank], patterns[rank]);
    });
    std::vector<std::string> all;
    for (const auto& problems : per_rank) all.insert(all.end(), problems.begin(), problems.end());
    return all;
}

}  // namespace nbrcomb::detail
