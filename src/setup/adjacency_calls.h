// The MPI calls on a vertex of a distributed graph (src/communicator/adjacency.h): read it from a
// communicator of any topology, make a communicator of it, exchange it between processes.
#pragma once

#include "src/communicator/adjacency.h"

#include <mpi.h>

namespace nbrcomb::detail {

// The calling process's vertex of a distributed-graph, Cartesian or graph communicator.
Adjacency read_adjacency(MPI_Comm comm);

// MPI_Dist_graph_create_adjacent over comm with reorder = 0, the calling process taking vertex.
int create_adjacent(MPI_Comm comm, const Adjacency& vertex, MPI_Info info, MPI_Comm* dist_graph);

// Sends mine to rank to of comm and returns what rank from sends (to and from may be ourselves).
// Collective over comm when every process sends one and receives one.
Adjacency exchange_adjacency(MPI_Comm comm, const Adjacency& mine, int to, int from);

}  // namespace nbrcomb::detail
