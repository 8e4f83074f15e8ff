#include "pattern/simulated_phase1.h"

#include "pattern/pattern_check.h"
#include "pattern/simulator.h"

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
