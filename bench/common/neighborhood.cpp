#include "common/neighborhood.h"

#include <map>

namespace nbrcomb::common {

Neighborhood neighborhood_of(MPI_Comm comm) {
    int kind = MPI_UNDEFINED;
    MPI_Topo_test(comm, &kind);
    Neighborhood n;
    if (kind == MPI_CART) {
        int dims = 0;
        MPI_Cartdim_get(comm, &dims);
        // Per dimension the neighbor in negative direction comes first, in both lists.
        for (int d = 0; d < dims; ++d) {
            int below = MPI_PROC_NULL, above = MPI_PROC_NULL;
            MPI_Cart_shift(comm, d, 1, &below, &above);
            n.sources.insert(n.sources.end(), {below, above});
        }
        n.destinations = n.sources;
        for (int s = 0; s < 2 * dims; ++s) {
            n.destination_edges.push_back(s);
            n.source_edges.push_back(s ^ 1);
        }
        return n;
    }
    if (kind == MPI_DIST_GRAPH) {
        int indegree = 0, outdegree = 0, weighted = 0;
        MPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
        n.sources.resize(static_cast<std::size_t>(indegree));
        n.destinations.resize(static_cast<std::size_t>(outdegree));
        // Weights are not needed, but a weighted graph must get arrays to write them to.
        std::vector<int> source_weights(n.sources.size() + 1), destination_weights(n.destinations.size() + 1);
        MPI_Dist_graph_neighbors(comm, indegree, n.sources.data(), weighted ? source_weights.data() : MPI_UNWEIGHTED,
                                 outdegree, n.destinations.data(),
                                 weighted ? destination_weights.data() : MPI_UNWEIGHTED);
    } else if (kind == MPI_GRAPH) {
        int rank = 0, degree = 0;
        MPI_Comm_rank(comm, &rank);
        MPI_Graph_neighbors_count(comm, rank, &degree);
        n.sources.resize(static_cast<std::size_t>(degree));
        MPI_Graph_neighbors(comm, rank, degree, n.sources.data());
        n.destinations = n.sources;
    }
    n.source_edges = occurrence_indices(n.sources);
    n.destination_edges = occurrence_indices(n.destinations);
    return n;
}

std::vector<int> occurrence_indices(const std::vector<int>& peers) {
    std::map<int, int> seen;
    std::vector<int> result;
    result.reserve(peers.size());
    for (const int peer : peers) result.push_back(seen[peer]++);
    return result;
}

}  // namespace nbrcomb::common
