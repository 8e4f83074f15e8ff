// Takes a new topology communicator (distributed graph, Cartesian, graph) under the library's
// management.
#pragma once

#include "mapping/renumbering.h"
#include "src/config.h"
#include "src/topo_state.h"

#include <mpi.h>

namespace nbrcomb::detail {

// Called on every process right after the constructor created topo_comm, with the settings of
// the call and what reorder=1 did (renumbering.tried is false when nothing), which took
// reorder_seconds. Collective over topo_comm, except in auto mode with NBRCOMB_LAZY above 0,
// where it only reads the neighbor lists. The communicator stays native when the library is
// off for it or its processes disagree on the settings.
int adopt_topology(MPI_Comm topo_comm, const Config& config, const Renumbering& renumbering, double reorder_seconds);

// Auto mode, in the call that reaches NBRCOMB_LAZY (or a persistent collective's init): the
// settings' agreement, Phase 1, and whether combining is a candidate. Collective over
// topo_comm; a disagreement leaves the communicator native.
void build_pattern_now(MPI_Comm topo_comm, TopoState& state);

}  // namespace nbrcomb::detail
