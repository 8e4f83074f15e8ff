// The blocks of one collective call on one process, as the schedule builders take them.
#pragma once

#include "schedule/schedule.h"

#include <cstdint>
#include <span>

namespace nbrcomb::detail {

// The call's side of one process: send_blocks[i] goes to destinations[i], recv_blocks[j]
// comes from sources[j]. same_send_block says every out-edge sends the same block (allgather
// and allgatherv), so a process relaying it for another needs it once rather than once per edge.
struct CallBlocks {
    std::span<const Block> send;
    std::span<const Block> recv;
    bool same_send_block;
    // Blocks larger than this travel as direct messages even on edges the pattern combines:
    // both ends of an edge know its block's size, so they agree without asking.
    std::size_t cutoff = SIZE_MAX;
    // Every block of the call has one size on every process (allgather and alltoall, unlike their
    // v and w forms), which the MPI's global collectives of one count need.
    bool uniform = false;
};

}  // namespace nbrcomb::detail
