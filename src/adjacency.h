// One vertex of a distributed graph: its neighbors as MPI_Dist_graph_create_adjacent takes them
// and MPI_Dist_graph_neighbors returns them.
#pragma once

#include <mpi.h>

#include <vector>

namespace nbrcomb::detail {

struct Adjacency {
    std::vector<int> sources;
    std::vector<int> source_weights;  // empty when unweighted
    std::vector<int> destinations;
    std::vector<int> destination_weights;
    bool weighted = false;
};

// The calling process's vertex of a distributed-graph communicator.
Adjacency read_adjacency(MPI_Comm dist_graph);

// MPI_Dist_graph_create_adjacent over comm with reorder = 0, the calling process taking vertex.
int create_adjacent(MPI_Comm comm, const Adjacency& vertex, MPI_Info info, MPI_Comm* dist_graph);

// Sends mine to rank to of comm and returns what rank from sends (to and from may be ourselves).
// Collective over comm when every process sends one and receives one.
Adjacency exchange_adjacency(MPI_Comm comm, const Adjacency& mine, int to, int from);

}  // namespace nbrcomb::detail
