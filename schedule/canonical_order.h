// The order in which a round's operations are posted, made a function of the graph alone: the
// same whatever the order of the caller's neighbor lists or the topology's constructor, so that
// isomorphic topologies run alike (paper 004's GL9-GL11). Receives first, so that no message
// arrives unexpected, from the nearest lower rank on; then sends, to the nearest higher rank on,
// so that at each moment the processes send to different peers (a cyclic shift) rather than all
// to the first of their lists; then the local copies, which need no peer.
#pragma once

#include "schedule/schedule.h"

namespace nbrcomb::detail {

// Reorders every round of schedule, a schedule of the process rank. Stable: operations with one
// peer keep their order, which is how the k-th edge to a peer meets the k-th edge from it.
void order_canonically(Schedule& schedule, int rank);

}  // namespace nbrcomb::detail
