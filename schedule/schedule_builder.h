// Phase 2: the schedule of one collective call from the pattern and the call's blocks
// (paper 000 Alg. 3 and paper 002 Alg. 4, generalized to all five collectives).
#pragma once

#include "pattern/pattern.h"
#include "schedule/call_blocks.h"
#include "schedule/schedule.h"

namespace nbrcomb::detail {

// Round 0: each member of each of our groups gets the blocks it forwards for us (and ours for it
// where our edge to it rides along) and we get its blocks for ours (all steps at once: they
// carry disjoint edges); the direct edges go as native MPI sends them. Round 1: one combined
// message per onloaded neighbor, every combined message we expect, and the blocks that rode
// to us copied into place. Round 2: combined messages unpacked into place. The k-th edge to a peer meets the k-th edge from it (MPI-4.0 erratum) because sends
// and receives are posted in list order and MPI does not overtake; self-loops become copies
// paired the same way; zero-byte direct edges and combined messages are skipped on both ends
// (matching type signatures make both ends see zero).
Schedule build_schedule(const LocalGraph& graph, const Pattern& pattern, const CallBlocks& call);

}  // namespace nbrcomb::detail
