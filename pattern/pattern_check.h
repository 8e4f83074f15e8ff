// Distributed check of a pattern's invariants, run over the same Transport as the pattern.
#pragma once

#include "matching/task.h"
#include "matching/transport.h"
#include "pattern/pattern.h"

#include <string>
#include <vector>

namespace nbrcomb::detail {

// Every process runs this with its own pattern; each returns the problems it found (empty
// when all holds). Each process tells every out-neighbor how each edge to it is delivered
// (directly, in its own combined message, in a group member's, or riding in the packet to that
// neighbor when it is a member of the group), and every receiver checks that
// its expected messages are exactly those, so that every edge (every duplicate) is delivered
// exactly once and all members of a group agree on it. Locally: every out-edge has exactly one
// fate, and no process sends more messages than native MPI would.
Task<std::vector<std::string>> check_pattern(Transport& transport, LocalGraph graph, Pattern pattern);

// Messages this process sends per collective call under the pattern; native MPI sends one per
// out-edge to another process.
std::size_t messages_per_call(const LocalGraph& graph, const Pattern& pattern);

}  // namespace nbrcomb::detail
