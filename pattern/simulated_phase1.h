// Phase 1 and its checker for a whole topology on simulated processes, one graph per rank.
#pragma once

#include "pattern/pattern_builder.h"

#include <string>
#include <vector>

namespace nbrcomb::detail {

std::vector<Pattern> simulate_patterns(const std::vector<LocalGraph>& graphs, const PatternSettings& settings);

// Every problem check_pattern finds on any process; empty when the patterns are sound.
std::vector<std::string> simulate_pattern_check(const std::vector<LocalGraph>& graphs,
                                                const std::vector<Pattern>& patterns);

}  // namespace nbrcomb::detail
