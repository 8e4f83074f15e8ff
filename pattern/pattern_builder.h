// Distributed extraction of the message-combining pattern (paper 000, Alg. 1).
#pragma once

#include "pattern/pattern.h"
#include "pattern/task.h"
#include "pattern/transport.h"

namespace nbrcomb::detail {

// Run by every process of the topology at once, each with its own edges. Two processes are
// friends when they share at least theta active out-neighbors; friends pair up (Alg. 2) and
// split their common out-neighbors by rank order, and the pairs repeat until no process has a
// friend left. Only simple edges (not self-loops, not repeated) are combined; the others stay
// direct. No process learns more than its out-neighbors' in-neighbor lists (O(degree^2)).
Task<Pattern> build_pair_pattern(Transport& transport, LocalGraph graph, int theta);

// The pattern of the direct schedule: every edge its own message.
Pattern direct_pattern(const LocalGraph& graph);

}  // namespace nbrcomb::detail
