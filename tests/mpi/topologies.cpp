#include "topologies.h"

#include "all_ranks.h"
#include "mix.h"
#include "topology/spec.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace nbrcomb::test {

namespace {

// In-lists listing every edge once, ordered by source and then by repeat.
void fill_in_lists(Digraph& graph) {
    for (std::size_t u = 0; u < graph.out.size(); ++u)
        for (const int v : graph.out[u]) graph.in[static_cast<std::size_t>(v)].push_back(static_cast<int>(u));
}

// Both ends compute the same weight for the k-th edge u→v.
int edge_weight(int u, int v, int k) { return 1 + static_cast<int>(mix(u, v, k) % 9); }

const int* weights_argument(bool weighted, const std::vector<int>& weights) {
    if (!weighted) return MPI_UNWEIGHTED;
    return weights.empty() ? MPI_WEIGHTS_EMPTY : weights.data();
}

// One rank's share of the edges for MPI_Dist_graph_create: every source's out-list is cut into
// runs of one to three edges, each run given by a rank picked at random, so sources repeat
// across and within ranks and some ranks give nothing.
struct EdgeShare {
    std::vector<int> sources, degrees, destinations, weights;
};

EdgeShare edge_share(const Digraph& graph, int rank) {
    const int size = static_cast<int>(graph.out.size());
    EdgeShare share;
    for (int u = 0; u < size; ++u) {
        const std::vector<int>& out = graph.out[static_cast<std::size_t>(u)];
        const std::vector<int> repeats = occurrence_indices(out);
        for (std::size_t begin = 0; begin < out.size();) {
            const std::size_t end = std::min(out.size(), begin + 1 + mix(u, begin, 1) % 3);
            if (static_cast<int>(mix(u, begin, 2) % static_cast<std::uint64_t>(size)) == rank) {
                share.sources.push_back(u);
                share.degrees.push_back(static_cast<int>(end - begin));
                for (std::size_t j = begin; j < end; ++j) {
                    share.destinations.push_back(out[j]);
                    share.weights.push_back(edge_weight(u, out[j], repeats[j]));
                }
            }
            begin = end;
        }
    }
    return share;
}

// Owner of index i of n when the indices are cut into size consecutive blocks.
}  // namespace

Digraph random_digraph(int size, std::uint64_t seed) {
    Digraph graph = edgeless(size);
    std::vector<int> receivers;
    for (int v = 0; v < size; ++v)
        if (mix(seed, v, 1) % 4 != 0) receivers.push_back(v);
    if (receivers.empty()) return graph;

    const std::uint64_t max_degree = static_cast<std::uint64_t>(std::min(2 * size + 1, 12));
    for (int u = 0; u < size; ++u) {
        if (mix(seed, u, 2) % 4 == 0) continue;
        const std::uint64_t degree = mix(seed, u, 3) % (max_degree + 1);
        for (std::uint64_t e = 0; e < degree; ++e)
            graph.out[static_cast<std::size_t>(u)].push_back(receivers[mix(seed, u, e, 4) % receivers.size()]);
    }
    fill_in_lists(graph);
    // Swapping repeats of one source changes nothing, so the k-th repeat rule still holds.
    for (std::size_t v = 0; v < graph.in.size(); ++v) {
        std::vector<int>& sources = graph.in[v];
        for (std::size_t i = sources.size(); i > 1; --i) std::swap(sources[i - 1], sources[mix(seed, v, i, 5) % i]);
    }
    return graph;
}

Digraph periodic_stencil(int size, int dims, Stencil stencil, int radius) {
    return digraph_of(stencil == Stencil::moore ? nbrcomb::topology::moore(size, dims, radius)
                                                : nbrcomb::topology::von_neumann(size, dims, radius));
}

Digraph matrix_digraph(const std::string& file, int size) {
    const std::string path = std::string(NBRCOMB_MATRIX_DIR) + "/" + file;
    if (!std::filesystem::exists(path)) throw std::runtime_error("no matrix " + path);
    return digraph_of(nbrcomb::topology::matrix_halo(path, size));
}

Digraph named_digraph(const std::string& topology, int size) {
    if (topology.starts_with("random:")) return random_digraph(size, std::stoull(topology.substr(7)));
    if (topology.starts_with("matrix:")) return matrix_digraph(topology.substr(7), size);
    return digraph_of(nbrcomb::topology::generate(nbrcomb::topology::parse_topology(topology), size));
}

Digraph digraph_of(const nbrcomb::topology::Graphs& graphs) {
    Digraph graph;
    for (const auto& local : graphs) {
        graph.out.push_back(local.destinations);
        graph.in.push_back(local.sources);
    }
    return graph;
}

Digraph edgeless(int size) {
    return {std::vector<std::vector<int>>(static_cast<std::size_t>(size)),
            std::vector<std::vector<int>>(static_cast<std::size_t>(size))};
}

Digraph scrambled_clusters(int size, int cluster_size) {
    Digraph graph = edgeless(size);
    const int clusters = std::max(1, size / cluster_size);
    for (int u = 0; u < size; ++u) {
        std::vector<int>& out = graph.out[static_cast<std::size_t>(u)];
        for (int v = u % clusters; v < size; v += clusters)
            if (v != u) out.insert(out.end(), 3, v);
        out.push_back((u + 1) % size);
    }
    fill_in_lists(graph);
    return graph;
}

Digraph complete_digraph(int size) {
    Digraph graph = edgeless(size);
    for (int u = 0; u < size; ++u)
        for (int v = 0; v < size; ++v)
            if (u != v) graph.out[static_cast<std::size_t>(u)].push_back(v);
    fill_in_lists(graph);
    return graph;
}

Digraph ring(int size) {
    Digraph graph = edgeless(size);
    for (int r = 0; r < size; ++r) graph.out[static_cast<std::size_t>(r)].push_back((r + 1) % size);
    fill_in_lists(graph);
    return graph;
}

Comm::Comm(Comm&& other) noexcept : comm_(std::exchange(other.comm_, MPI_COMM_NULL)) {}

Comm& Comm::operator=(Comm&& other) noexcept {
    if (this != &other) {
        reset();
        comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    }
    return *this;
}

Comm::~Comm() { reset(); }

void Comm::reset() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

MPI_Info make_info(const Hints& hints) {
    if (hints.empty()) return MPI_INFO_NULL;
    MPI_Info info = MPI_INFO_NULL;
    MPI_Info_create(&info);
    for (const auto& [key, value] : hints) MPI_Info_set(info, key.c_str(), value.c_str());
    return info;
}

Comm create_dist_graph(MPI_Comm base, const Digraph& graph, const TopologyOptions& options) {
    const int rank = rank_of(base);
    Hints hints = options.hints;
    const bool mode_named = std::ranges::any_of(hints, [](const auto& hint) { return hint.first == "nbrcomb_mode"; });
    if (!mode_named) hints.push_back({"nbrcomb_mode", "pairs"});
    MPI_Info info = make_info(hints);
    MPI_Comm comm = MPI_COMM_NULL;
    if (options.construction == Construction::general || options.construction == Construction::general_reorder) {
        const EdgeShare share = edge_share(graph, rank);
        MPI_Dist_graph_create(base, static_cast<int>(share.sources.size()), share.sources.data(), share.degrees.data(),
                              share.destinations.data(), weights_argument(options.weighted, share.weights), info,
                              options.construction == Construction::general_reorder ? 1 : 0, &comm);
    } else {
        const std::vector<int>& sources = graph.in[static_cast<std::size_t>(rank)];
        const std::vector<int>& destinations = graph.out[static_cast<std::size_t>(rank)];
        std::vector<int> source_weights, destination_weights;
        const std::vector<int> source_repeats = occurrence_indices(sources);
        const std::vector<int> destination_repeats = occurrence_indices(destinations);
        for (std::size_t i = 0; i < sources.size(); ++i)
            source_weights.push_back(edge_weight(sources[i], rank, source_repeats[i]));
        for (std::size_t j = 0; j < destinations.size(); ++j)
            destination_weights.push_back(edge_weight(rank, destinations[j], destination_repeats[j]));
        MPI_Dist_graph_create_adjacent(base, static_cast<int>(sources.size()), sources.data(),
                                       weights_argument(options.weighted, source_weights),
                                       static_cast<int>(destinations.size()), destinations.data(),
                                       weights_argument(options.weighted, destination_weights), info,
                                       options.construction == Construction::adjacent_reorder ? 1 : 0, &comm);
    }
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    return Comm(comm);
}

}  // namespace nbrcomb::test
