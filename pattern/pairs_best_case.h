// The best case of pairs (paper 000's pattern): a lower bound of its estimate (message_cost.h)
// from the graph and the node layout alone, before its distributed matching, the costliest step
// of Phase 1, has run. Auto mode plans pairs only where this best case can still win
// (src/decision/decision_tiers.h).
#pragma once

#include "pattern/message_cost.h"

namespace nbrcomb::detail {

// This process's part, to fold like round_costs (add_process, per_node): every field is at most
// what pairs' pattern gives this process (node_blocks: summed over the processes), whatever the
// matching finds, and all of it is in round 0; the estimate adds each round's busiest process,
// which is at least the busiest process's sum over the rounds. The bytes assume the per-byte
// costs within and between nodes are equal (MessageOverheads: byte_local, byte_remote).
// theta: the common out-neighbors that make friends.
RoundCosts pairs_best_case(const LocalGraph& graph, const std::vector<int>& node_of, int theta,
                           bool same_send_block);

}  // namespace nbrcomb::detail
