// Phase 2 of routing over a process grid: the schedule of one collective call from the
// process's routes (pattern/grid_routing.h), for all five collectives.
#pragma once

#include "pattern/grid_routing.h"
#include "schedule/call_blocks.h"
#include "schedule/schedule.h"

namespace nbrcomb::detail {

// Round d: one message to each peer the routes name, sized where the peer forwards some of its
// blocks, bare where every block ends there; sized messages from the peers into slots, bare ones
// into temporary space. The round after: the blocks that end here copied into place. An
// allgather block goes once in a sized message however many destinations it is on its way to.
// Blocks above the call's cutoff go as direct messages in round 0 instead, keeping an empty place
// in the routed messages (RelayedBlocks, shared_steps.h).
Schedule build_grid_schedule(const LocalGraph& graph, const GridPattern& pattern, const CallBlocks& call);

}  // namespace nbrcomb::detail
