// Phase 1 (and its checker) for a whole topology on simulated processes, one graph per rank.
#pragma once

#include "pattern/grid_routing.h"
#include "pattern/node_aggregation.h"
#include "pattern/pattern_builder.h"
#include "pattern/process_grid.h"

#include <string>
#include <vector>

namespace nbrcomb::detail {

std::vector<Pattern> simulate_patterns(const std::vector<LocalGraph>& graphs, const PatternSettings& settings);

// Node aggregation's plans, with node_of[r] the node of rank r.
std::vector<AggregationPattern> simulate_aggregation(const std::vector<LocalGraph>& graphs,
                                                     const std::vector<int>& node_of);

// The process grids every process would choose, from the maximum of all their surveys.
GridChoices simulate_grid_choice(const std::vector<LocalGraph>& graphs, std::shared_ptr<const std::vector<int>> node_of);

// Every process's routes over grid.
std::vector<GridPattern> simulate_grid_routing(const std::vector<LocalGraph>& graphs,
                                               const std::shared_ptr<const ProcessGrid>& grid);

// Every problem check_pattern finds on any process; empty when the patterns are sound.
std::vector<std::string> simulate_pattern_check(const std::vector<LocalGraph>& graphs,
                                                const std::vector<Pattern>& patterns);

}  // namespace nbrcomb::detail
