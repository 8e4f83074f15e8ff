// Phase 1 (and its checker) for a whole topology on simulated processes, one graph per rank.
#pragma once

#include "pattern/node_aggregation.h"
#include "pattern/pattern_builder.h"

#include <string>
#include <vector>

namespace nbrcomb::detail {

std::vector<Pattern> simulate_patterns(const std::vector<LocalGraph>& graphs, const PatternSettings& settings);

// Node aggregation's plans, with node_of[r] the node of rank r.
std::vector<AggregationPattern> simulate_aggregation(const std::vector<LocalGraph>& graphs,
                                                     const std::vector<int>& node_of);

// Every problem check_pattern finds on any process; empty when the patterns are sound.
std::vector<std::string> simulate_pattern_check(const std::vector<LocalGraph>& graphs,
                                                const std::vector<Pattern>& patterns);

}  // namespace nbrcomb::detail
