// Built only for an MPI without distributed-graph topologies (SMPI): the queries of a graph the
// library emulates (emulated_graph.h) are answered from it; any other communicator's go to the MPI.
#include "src/communicator/emulated_graph.h"
#include "src/shims/export.h"

#include <algorithm>

using namespace nbrcomb::detail;

NBRCOMB_EXPORT int MPI_Topo_test(MPI_Comm comm, int* status) {
    if (emulated_vertex(comm) == nullptr) return PMPI_Topo_test(comm, status);
    *status = MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}

NBRCOMB_EXPORT int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
    const Adjacency* vertex = emulated_vertex(comm);
    if (vertex == nullptr) return PMPI_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted);
    *indegree = static_cast<int>(vertex->sources.size());
    *outdegree = static_cast<int>(vertex->destinations.size());
    *weighted = vertex->weighted ? 1 : 0;
    return MPI_SUCCESS;
}

NBRCOMB_EXPORT int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                            int maxoutdegree, int destinations[], int destweights[]) {
    const Adjacency* vertex = emulated_vertex(comm);
    if (vertex == nullptr)
        return PMPI_Dist_graph_neighbors(comm, maxindegree, sources, sourceweights, maxoutdegree, destinations,
                                         destweights);
    // As the MPI fills them: up to the sizes given, weights where the graph has them and asked for.
    const auto fill = [&](const std::vector<int>& ranks, const std::vector<int>& weights, int room, int* out,
                          int* out_weights) {
        const auto n = static_cast<std::size_t>(std::clamp(room, 0, static_cast<int>(ranks.size())));
        std::copy_n(ranks.begin(), n, out);
        if (vertex->weighted && out_weights != MPI_UNWEIGHTED) std::copy_n(weights.begin(), n, out_weights);
    };
    fill(vertex->sources, vertex->source_weights, maxindegree, sources, sourceweights);
    fill(vertex->destinations, vertex->destination_weights, maxoutdegree, destinations, destweights);
    return MPI_SUCCESS;
}
