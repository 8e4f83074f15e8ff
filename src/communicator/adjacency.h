// One vertex of a distributed graph: its neighbors as MPI_Dist_graph_create_adjacent takes them
// and MPI_Dist_graph_neighbors returns them (the calls that read, make and exchange one:
// src/setup/adjacency_calls.h).
#pragma once

#include <optional>
#include <vector>

namespace nbrcomb::detail {

// Where a vertex's edges are not its call blocks one for one (Cartesian topologies,
// classic_topologies.h): the block of every edge in the buffers of a neighborhood collective,
// and how many blocks each side has, MPI_PROC_NULL neighbors' included.
struct EdgeBlocks {
    std::vector<int> of_source;       // sources[i] is the edge of receive block of_source[i]
    std::vector<int> of_destination;  // destinations[j] is the edge of send block of_destination[j]
    int receive = 0;
    int send = 0;
};

struct Adjacency {
    std::vector<int> sources;
    std::vector<int> source_weights;  // empty when unweighted
    std::vector<int> destinations;
    std::vector<int> destination_weights;
    bool weighted = false;
    std::optional<EdgeBlocks> blocks;  // none: edge i is block i
};

}  // namespace nbrcomb::detail
