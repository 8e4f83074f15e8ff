// Phase 2: the schedule of one collective call from the pattern and the call's blocks
// (paper 000 Alg. 3 and paper 002 Alg. 4, generalized to all five collectives).
#pragma once

#include "pattern/pattern.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <span>

namespace nbrcomb::detail {

// The call's side of one process: send_blocks[i] goes to destinations[i], recv_blocks[j]
// comes from sources[j]. same_send_block says every out-edge sends the same block (allgather
// and allgatherv), so a group member needs it once rather than once per neighbor it carries.
struct CallBlocks {
    std::span<const Block> send;
    std::span<const Block> recv;
    bool same_send_block;
    // Blocks larger than this travel as direct messages even on edges the pattern combines:
    // both ends of an edge know its block's size, so they agree without asking.
    std::size_t cutoff = SIZE_MAX;
};

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
