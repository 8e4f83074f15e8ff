// The direct schedule: one message per edge, as native MPI sends them.
#pragma once

#include "schedule/schedule.h"

#include <span>

namespace nbrcomb::detail {

// send_blocks[i] goes to destinations[i]; recv_blocks[j] comes from sources[j]. The k-th edge
// to a peer meets the k-th edge from it (MPI-4.0 erratum): posting sends and receives in list
// order gives exactly that, since MPI does not overtake on one (source, tag, communicator).
// Self-loops become local copies, paired k-th to k-th the same way, and zero-byte blocks are
// skipped on both ends (matching signatures make both ends zero).
Schedule build_direct_schedule(int self, std::span<const int> sources, std::span<const int> destinations,
                               std::span<const Block> send_blocks, std::span<const Block> recv_blocks);

}  // namespace nbrcomb::detail
