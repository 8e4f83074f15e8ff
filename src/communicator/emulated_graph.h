// Distributed-graph topologies where the MPI has none (SMPI, schedule/mpi_features.h): a
// duplicate of the old communicator that carries the graph as an attribute, which the library's
// MPI_Dist_graph_neighbors(_count) and MPI_Topo_test answer from. Its neighborhood collectives
// are the library's; the baseline there is its one-message-per-edge schedule, which is what
// Open MPI's and MPICH's neighborhood collectives do.
#pragma once

#include "src/communicator/adjacency.h"

#include <mpi.h>

namespace nbrcomb::detail {

// A communicator of comm_old's processes on which the calling process is vertex. Collective.
int emulate_dist_graph(MPI_Comm comm_old, const Adjacency& vertex, MPI_Comm* dist_graph);

// The vertex comm carries, or nullptr for a communicator that carries none.
const Adjacency* emulated_vertex(MPI_Comm comm);

// MPI_Dist_graph_create's arguments turned into the calling process's vertex: every edge goes to
// both its ends, ordered by the rank that gave it, then as that rank gave it. Collective over
// comm_old. Arguments must be valid.
Adjacency gather_vertex(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                        const int weights[]);

}  // namespace nbrcomb::detail
