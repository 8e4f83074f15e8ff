#include "src/communicator/classic_topologies.h"

#include <algorithm>
#include <utility>

namespace nbrcomb::detail {

namespace {

int dimensions_of(MPI_Comm cart) {
    int dimensions = 0;
    PMPI_Cartdim_get(cart, &dimensions);
    return dimensions;
}

}  // namespace

Adjacency cartesian_adjacency(MPI_Comm cart) {
    std::vector<int> neighbors;  // by block: per dimension the -1, then the +1 neighbor
    for (int d = 0; d < dimensions_of(cart); ++d) {
        int below = MPI_PROC_NULL, above = MPI_PROC_NULL;
        PMPI_Cart_shift(cart, d, 1, &below, &above);
        neighbors.insert(neighbors.end(), {below, above});
    }
    const int count = static_cast<int>(neighbors.size());
    Adjacency vertex;
    EdgeBlocks blocks{{}, {}, count, count};
    for (int s = 0; s < count; ++s) {
        if (neighbors[static_cast<std::size_t>(s)] != MPI_PROC_NULL) {
            vertex.destinations.push_back(neighbors[static_cast<std::size_t>(s)]);
            blocks.of_destination.push_back(s);
        }
        // The receive block that meets the neighbor's send block s: by the symmetry of the grid,
        // that neighbor's send block s comes here exactly when our block s^1 names it.
        const int r = s ^ 1;
        if (neighbors[static_cast<std::size_t>(r)] != MPI_PROC_NULL) {
            vertex.sources.push_back(neighbors[static_cast<std::size_t>(r)]);
            blocks.of_source.push_back(r);
        }
    }
    vertex.blocks = std::move(blocks);
    return vertex;
}

Adjacency graph_adjacency(MPI_Comm graph) {
    int rank = 0, degree = 0;
    PMPI_Comm_rank(graph, &rank);
    PMPI_Graph_neighbors_count(graph, rank, &degree);
    std::vector<int> neighbors(static_cast<std::size_t>(std::max(degree, 1)));
    PMPI_Graph_neighbors(graph, rank, degree, neighbors.data());
    neighbors.resize(static_cast<std::size_t>(degree));
    Adjacency vertex;
    vertex.sources = neighbors;
    vertex.destinations = std::move(neighbors);
    return vertex;
}

bool has_neighbors_twice(MPI_Comm cart) {
    const int dimensions = dimensions_of(cart);
    const auto room = static_cast<std::size_t>(std::max(dimensions, 1));
    std::vector<int> sizes(room), periods(room), coords(room);
    PMPI_Cart_get(cart, dimensions, sizes.data(), periods.data(), coords.data());
    for (int d = 0; d < dimensions; ++d)
        if (periods[static_cast<std::size_t>(d)] && sizes[static_cast<std::size_t>(d)] <= 2) return true;
    return false;
}

bool symmetric_graph(int nnodes, const int index[], const int edges[]) {
    std::vector<std::pair<int, int>> forward, backward;
    for (int i = 0; i < nnodes; ++i)
        for (int e = i == 0 ? 0 : index[i - 1]; e < index[i]; ++e) {
            forward.emplace_back(i, edges[e]);
            backward.emplace_back(edges[e], i);
        }
    std::ranges::sort(forward);
    std::ranges::sort(backward);
    return forward == backward;
}

}  // namespace nbrcomb::detail
