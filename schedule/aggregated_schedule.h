// Phase 2 of node-aware aggregation: the schedule of one collective call from the process's
// aggregation pattern (paper 003, Algs. 5 and 6, for all five collectives).
#pragma once

#include "pattern/node_aggregation.h"
#include "schedule/call_blocks.h"
#include "schedule/schedule.h"

namespace nbrcomb::detail {

// Round 0 (ℓ and s): edges within the node go as native MPI sends them; each process hands each
// local agent a sized packet of its blocks for that agent's remote nodes, and agents take theirs.
// Round 1 (g): each agent sends one sized message per remote node it serves, its own blocks and
// the handed ones in (s, d, o) order, and takes one from each remote agent serving this node.
// Round 2 (r): each agent copies the blocks meant for itself and sends every other process of
// the node one bare message of the blocks for it; each process takes those. Round 3: the
// bare messages unpacked into place. An allgather block goes once into each packet and each
// message between nodes, however many processes there it is for. Blocks between nodes above the
// call's cutoff go as direct messages in round 0 instead, keeping an empty place in the
// aggregated ones (RelayedBlocks, shared_steps.h).
Schedule build_aggregated_schedule(const LocalGraph& graph, const AggregationPattern& pattern, const CallBlocks& call);

}  // namespace nbrcomb::detail
