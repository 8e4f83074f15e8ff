// Cartesian (MPI_Cart_create, MPI_Cart_sub) and graph (MPI_Graph_create) communicators as the
// library's distributed-graph vertex (adjacency.h), in the neighbor order of the neighborhood
// collectives (MPI-4.1 §8.6): per dimension the -1, then the +1 neighbor; or the list
// MPI_Graph_neighbors returns. Either list serves as sources and as destinations.
#pragma once

#include "src/communicator/adjacency.h"

#include <mpi.h>

namespace nbrcomb::detail {

// The calling process's vertex of cart. The MPI_PROC_NULL neighbors of non-periodic dimensions
// get no edge: nothing goes to them or comes from them, their send blocks are not read and
// their receive blocks stay untouched. What a process sends to its -1 neighbor arrives in that
// neighbor's +1 block and vice versa (send block s meets receive block s^1), also where both
// neighbors are one process (a periodic dimension of 2) or the process itself (of 1): the
// in-edges are listed in the order of the send blocks they meet, so that the library's rule,
// the k-th edge to a peer meets the k-th from it (schedule_builder.h), pairs them that way.
Adjacency cartesian_adjacency(MPI_Comm cart);

// The calling process's vertex of graph; the k-th edge to a peer meets the k-th from it, as on
// a distributed graph.
Adjacency graph_adjacency(MPI_Comm graph);

// Whether cart has a periodic dimension of 1 or 2 processes, where a process is its neighbor's
// -1 and +1 neighbor at once.
bool has_neighbors_twice(MPI_Comm cart);

// Whether the graph of MPI_Graph_create's (valid) arguments has as many edges i→j as j→i for
// all i and j: the neighborhood collectives are defined only on such graphs (MPI-4.1 §8.6), and
// on any other the library's Phase 1 would wait for messages that never come.
bool symmetric_graph(int nnodes, const int index[], const int edges[]);

}  // namespace nbrcomb::detail
