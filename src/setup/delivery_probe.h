// An end-to-end check of any algorithm's plan: one call run on blocks that name their edge, so
// that a block delivered to the wrong in-edge, twice or never shows, whatever the algorithm.
#pragma once

#include "schedule/algorithm.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace nbrcomb::detail {

// Runs an alltoall whose block on each out-edge is (this rank, the edge's repeat among the
// edges to that destination) and an allgather of this rank under the plan, on comm with the
// operation tags from first_tags, and returns what arrived wrong here. Collective over the processes with edges.
std::vector<std::string> probe_deliveries(const Plan& plan, const LocalGraph& graph, MPI_Comm comm,
                                          const int (&first_tags)[2]);

}  // namespace nbrcomb::detail
