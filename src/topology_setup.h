// Takes a new distributed-graph communicator under the library's management.
#pragma once

#include <mpi.h>

namespace nbrcomb::detail {

// Called on every process right after the native constructor created topo_comm, with the
// constructor's info and reorder arguments. Collective over topo_comm. The communicator stays
// native when the library is off for it or its processes disagree on the settings.
int adopt_topology(MPI_Comm topo_comm, MPI_Info info, int reorder);

}  // namespace nbrcomb::detail
