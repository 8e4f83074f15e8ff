#include "src/communicator/emulated_graph.h"

#include "src/communicator/comm_attribute.h"

#include <array>
#include <numeric>

namespace nbrcomb::detail {

namespace {

// The attribute is a box holding the vertex; a duplicate of the communicator gets a copy, as
// MPI_Comm_dup keeps a communicator's topology.
int copy_vertex(MPI_Comm, int, void*, void* in, void* out, int* flag) {
    *static_cast<Adjacency**>(out) = new Adjacency(*static_cast<const Adjacency*>(in));
    *flag = 1;
    return MPI_SUCCESS;
}

int delete_vertex(MPI_Comm, int, void* attribute, void*) {
    delete static_cast<Adjacency*>(attribute);
    return MPI_SUCCESS;
}

using VertexAttribute = CommAttribute<copy_vertex, delete_vertex>;

// One edge as it travels to its ends: from, to, weight.
using Edge = std::array<int, 3>;

}  // namespace

int emulate_dist_graph(MPI_Comm comm_old, const Adjacency& vertex, MPI_Comm* dist_graph) {
    if (const int err = PMPI_Comm_dup(comm_old, dist_graph); err != MPI_SUCCESS) return err;
    auto* box = new Adjacency(vertex);
    if (const int err = PMPI_Comm_set_attr(*dist_graph, VertexAttribute::keyval(), box); err != MPI_SUCCESS) {
        delete box;
        PMPI_Comm_free(dist_graph);
        return err;
    }
    return MPI_SUCCESS;
}

const Adjacency* emulated_vertex(MPI_Comm comm) { return static_cast<const Adjacency*>(VertexAttribute::find(comm)); }

Adjacency gather_vertex(MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                        const int weights[]) {
    int size = 0;
    PMPI_Comm_size(comm_old, &size);
    const bool weighted = weights != MPI_UNWEIGHTED;
    // Every edge to its source (as an out-edge) and to its destination (as an in-edge).
    std::vector<std::vector<int>> outgoing(static_cast<std::size_t>(size));
    for (int i = 0, e = 0; i < n; ++i)
        for (int d = 0; d < degrees[i]; ++d, ++e) {
            const Edge edge{sources[i], destinations[e], weighted ? weights[e] : 1};
            for (const int end : {edge[0], edge[1]}) {
                std::vector<int>& to_end = outgoing[static_cast<std::size_t>(end)];
                to_end.insert(to_end.end(), edge.begin(), edge.end());
                if (edge[0] == edge[1]) break;  // a self-loop: one record serves both its ends
            }
        }
    std::vector<int> send_counts(static_cast<std::size_t>(size)), receive_counts(static_cast<std::size_t>(size));
    std::vector<int> send_displs(static_cast<std::size_t>(size)), receive_displs(static_cast<std::size_t>(size));
    std::vector<int> send;
    for (int r = 0; r < size; ++r) {
        send_displs[static_cast<std::size_t>(r)] = static_cast<int>(send.size());
        send_counts[static_cast<std::size_t>(r)] = static_cast<int>(outgoing[static_cast<std::size_t>(r)].size());
        send.insert(send.end(), outgoing[static_cast<std::size_t>(r)].begin(), outgoing[static_cast<std::size_t>(r)].end());
    }
    PMPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm_old);
    std::exclusive_scan(receive_counts.begin(), receive_counts.end(), receive_displs.begin(), 0);
    std::vector<int> received(static_cast<std::size_t>(receive_displs.back() + receive_counts.back()));
    PMPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_INT, received.data(),
                   receive_counts.data(), receive_displs.data(), MPI_INT, comm_old);

    int rank = 0;
    PMPI_Comm_rank(comm_old, &rank);
    Adjacency vertex;
    vertex.weighted = weighted;
    for (std::size_t at = 0; at + 3 <= received.size(); at += 3) {
        const int from = received[at], to = received[at + 1], weight = received[at + 2];
        if (from == rank) {
            vertex.destinations.push_back(to);
            if (weighted) vertex.destination_weights.push_back(weight);
        }
        if (to == rank) {
            vertex.sources.push_back(from);
            if (weighted) vertex.source_weights.push_back(weight);
        }
    }
    return vertex;
}

}  // namespace nbrcomb::detail
