#include "src/setup/adjacency_calls.h"

#include "schedule/mpi_features.h"
#include "src/communicator/classic_topologies.h"
#include "src/communicator/emulated_graph.h"

#include <algorithm>

namespace nbrcomb::detail {

namespace {

// A weights argument: MPI_UNWEIGHTED, or MPI_WEIGHTS_EMPTY for a weighted side of degree 0.
const int* weights_argument(const Adjacency& vertex, const std::vector<int>& weights) {
    if (!vertex.weighted) return MPI_UNWEIGHTED;
    return weights.empty() ? MPI_WEIGHTS_EMPTY : weights.data();
}

}  // namespace

Adjacency read_adjacency(MPI_Comm comm) {
    if constexpr (!mpi_has_topologies) return *emulated_vertex(comm);
    int kind = MPI_UNDEFINED;
    PMPI_Topo_test(comm, &kind);
    if (kind == MPI_CART) return cartesian_adjacency(comm);
    if (kind == MPI_GRAPH) return graph_adjacency(comm);
    int indegree = 0, outdegree = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
    Adjacency vertex;
    vertex.weighted = weighted != 0;
    // Arrays of at least one element: some MPIs reject NULL for a zero degree.
    vertex.sources.resize(static_cast<std::size_t>(std::max(indegree, 1)));
    vertex.source_weights.resize(vertex.sources.size());
    vertex.destinations.resize(static_cast<std::size_t>(std::max(outdegree, 1)));
    vertex.destination_weights.resize(vertex.destinations.size());
    PMPI_Dist_graph_neighbors(comm, indegree, vertex.sources.data(), vertex.source_weights.data(), outdegree,
                              vertex.destinations.data(), vertex.destination_weights.data());
    vertex.sources.resize(static_cast<std::size_t>(indegree));
    vertex.destinations.resize(static_cast<std::size_t>(outdegree));
    vertex.source_weights.resize(weighted ? vertex.sources.size() : 0);
    vertex.destination_weights.resize(weighted ? vertex.destinations.size() : 0);
    return vertex;
}

int create_adjacent(MPI_Comm comm, const Adjacency& vertex, MPI_Info info, MPI_Comm* dist_graph) {
    if constexpr (!mpi_has_topologies) return emulate_dist_graph(comm, vertex, dist_graph);
    return PMPI_Dist_graph_create_adjacent(comm, static_cast<int>(vertex.sources.size()), vertex.sources.data(),
                                           weights_argument(vertex, vertex.source_weights),
                                           static_cast<int>(vertex.destinations.size()), vertex.destinations.data(),
                                           weights_argument(vertex, vertex.destination_weights), info, 0,
                                           dist_graph);
}

Adjacency exchange_adjacency(MPI_Comm comm, const Adjacency& mine, int to, int from) {
    // The degrees and whether weights follow, then one message of all the lists.
    const int sizes_out[3] = {static_cast<int>(mine.sources.size()), static_cast<int>(mine.destinations.size()),
                              mine.weighted ? 1 : 0};
    int sizes_in[3] = {};
    PMPI_Sendrecv(sizes_out, 3, MPI_INT, to, 0, sizes_in, 3, MPI_INT, from, 0, comm, MPI_STATUS_IGNORE);
    std::vector<int> lists_out;
    for (const std::vector<int>* list : {&mine.sources, &mine.source_weights, &mine.destinations,
                                         &mine.destination_weights})
        lists_out.insert(lists_out.end(), list->begin(), list->end());

    Adjacency vertex;
    vertex.weighted = sizes_in[2] != 0;
    const int lists_per_side = vertex.weighted ? 2 : 1;  // neighbors, and weights if any
    std::vector<int> lists_in(static_cast<std::size_t>(lists_per_side * (sizes_in[0] + sizes_in[1])));
    PMPI_Sendrecv(lists_out.data(), static_cast<int>(lists_out.size()), MPI_INT, to, 1, lists_in.data(),
                  static_cast<int>(lists_in.size()), MPI_INT, from, 1, comm, MPI_STATUS_IGNORE);
    auto next = lists_in.begin();
    const auto take = [&](std::vector<int>& list, int count) {
        list.assign(next, next + count);
        next += count;
    };
    take(vertex.sources, sizes_in[0]);
    take(vertex.source_weights, vertex.weighted ? sizes_in[0] : 0);
    take(vertex.destinations, sizes_in[1]);
    take(vertex.destination_weights, vertex.weighted ? sizes_in[1] : 0);
    return vertex;
}

}  // namespace nbrcomb::detail
