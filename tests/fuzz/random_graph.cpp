#include "random_graph.h"

#include <algorithm>
#include <array>

namespace nbrcomb::fuzz {

namespace {

// Every out-list of 0..2 size entries drawn from the ranks that receive at all: repeats and
// self-loops come by themselves. About a quarter of the ranks send nothing, a quarter receive
// nothing.
void draw_random_edges(Graph& graph, Random& random) {
    std::vector<int> receivers;
    for (int v = 0; v < graph.size; ++v)
        if (!random.chance(1, 4)) receivers.push_back(v);
    for (int u = 0; u < graph.size; ++u) {
        if (receivers.empty() || random.chance(1, 4)) continue;
        const int degree = random.between(0, 2 * graph.size);
        for (int i = 0; i < degree; ++i) graph.out[u].push_back(random.pick(receivers));
    }
    graph.kind = "random";
}

// Every rank to every rank, listed from itself upward or in an order of its own.
void draw_complete(Graph& graph, Random& random) {
    const bool with_self = random.chance(1, 2);
    const bool shuffled = random.chance(1, 2);
    for (int u = 0; u < graph.size; ++u) {
        for (int i = 0; i < graph.size; ++i) {
            const int v = (u + i) % graph.size;
            if (v != u || with_self) graph.out[u].push_back(v);
        }
        if (shuffled) random.shuffle(graph.out[u]);
    }
    graph.kind = with_self ? "complete with self" : "complete";
}

// A Moore or von Neumann neighborhood of radius 1 on a px x py grid, each dimension bounded or
// periodic; on a periodic side of 1 or 2 the neighbors repeat and include the process itself.
void draw_stencil(Graph& graph, Random& random) {
    std::vector<int> divisors;
    for (int d = 1; d <= graph.size; ++d)
        if (graph.size % d == 0) divisors.push_back(d);
    const int px = random.pick(divisors), py = graph.size / px;
    const std::array<bool, 2> periodic{random.chance(1, 2), random.chance(1, 2)};
    const bool moore = random.chance(1, 2);
    std::vector<std::array<int, 2>> offsets;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            if ((dx != 0 || dy != 0) && (moore || dx == 0 || dy == 0)) offsets.push_back({dx, dy});
    if (random.chance(1, 2)) random.shuffle(offsets);
    const std::array<int, 2> extent{px, py};
    for (int u = 0; u < graph.size; ++u) {
        for (const auto& offset : offsets) {
            std::array<int, 2> at{u % px + offset[0], u / px + offset[1]};
            bool inside = true;
            for (int d = 0; d < 2; ++d) {
                if (periodic[d])
                    at[d] = (at[d] + extent[d]) % extent[d];
                else
                    inside = inside && at[d] >= 0 && at[d] < extent[d];
            }
            if (inside) graph.out[u].push_back(at[1] * px + at[0]);
        }
    }
    graph.kind = std::string(moore ? "moore " : "von neumann ") + std::to_string(px) + "x" + std::to_string(py) +
                 " periodic " + (periodic[0] ? "1," : "0,") + (periodic[1] ? "1" : "0");
}

}  // namespace

Graph random_graph(int size, int complete_percent, int stencil_percent, Random& random) {
    Graph graph;
    graph.size = size;
    graph.out.resize(static_cast<std::size_t>(size));
    graph.in.resize(static_cast<std::size_t>(size));
    const int draw = random.below(100);
    if (draw < complete_percent)
        draw_complete(graph, random);
    else if (draw < complete_percent + stencil_percent)
        draw_stencil(graph, random);
    else if (random.chance(1, 50))
        graph.kind = "edgeless";
    else
        draw_random_edges(graph, random);
    // The k-th u in in[v] is the k-th v in out[u] whatever the order, since all u are alike.
    for (int u = 0; u < size; ++u)
        for (const int v : graph.out[u]) graph.in[v].push_back(u);
    for (auto& sources : graph.in) random.shuffle(sources);
    return graph;
}

void remove_repeated_edges(Graph& graph) {
    for (auto* lists : {&graph.out, &graph.in}) {
        for (auto& peers : *lists) {
            std::vector<int> once;
            for (const int peer : peers)
                if (std::ranges::find(once, peer) == once.end()) once.push_back(peer);
            peers = std::move(once);
        }
    }
}

int edge_weight(int from, int to, std::uint64_t salt) {
    return 1 + static_cast<int>(mix({salt, static_cast<std::uint64_t>(from), static_cast<std::uint64_t>(to)}) % 100);
}

const char* name_of(Constructor constructor) { return constructor == Constructor::adjacent ? "adjacent" : "general"; }

Construction random_construction(const Graph& graph, Random& random) {
    Construction construction;
    construction.constructor = random.chance(1, 2) ? Constructor::adjacent : Constructor::general;
    construction.weighted = random.chance(1, 2);
    construction.weight_salt = random.bits();
    for (const auto& destinations : graph.out)
        for (std::size_t i = 0; i < destinations.size(); ++i) construction.giver.push_back(random.below(graph.size));
    return construction;
}

namespace {

// Per-edge arrays keep one spare entry so that they are never NULL at degree 0 (Open MPI 4.1
// rejects NULL there).
const int* weights_or_unweighted(const Construction& construction, const std::vector<int>& weights) {
    return construction.weighted ? weights.data() : MPI_UNWEIGHTED;
}

}  // namespace

int create_graph_comm(const Graph& graph, const Construction& construction, MPI_Info info, MPI_Comm* comm) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (construction.constructor == Constructor::adjacent) {
        std::vector<int> sources = graph.in[rank], destinations = graph.out[rank];
        std::vector<int> source_weights, destination_weights;
        for (const int u : sources) source_weights.push_back(edge_weight(u, rank, construction.weight_salt));
        for (const int v : destinations) destination_weights.push_back(edge_weight(rank, v, construction.weight_salt));
        const int in_degree = static_cast<int>(sources.size()), out_degree = static_cast<int>(destinations.size());
        for (auto* list : {&sources, &destinations, &source_weights, &destination_weights}) list->push_back(0);
        return MPI_Dist_graph_create_adjacent(
            MPI_COMM_WORLD, in_degree, sources.data(), weights_or_unweighted(construction, source_weights), out_degree,
            destinations.data(), weights_or_unweighted(construction, destination_weights), info, 0, comm);
    }
    // The edges this rank gives, grouped by their source.
    std::vector<int> sources, degrees, destinations, weights;
    std::size_t edge = 0;
    for (int u = 0; u < graph.size; ++u) {
        int degree = 0;
        for (const int v : graph.out[u]) {
            if (construction.giver[edge++] != rank) continue;
            destinations.push_back(v);
            weights.push_back(edge_weight(u, v, construction.weight_salt));
            ++degree;
        }
        if (degree == 0) continue;
        sources.push_back(u);
        degrees.push_back(degree);
    }
    const int count = static_cast<int>(sources.size());
    for (auto* list : {&sources, &degrees, &destinations, &weights}) list->push_back(0);
    return MPI_Dist_graph_create(MPI_COMM_WORLD, count, sources.data(), degrees.data(), destinations.data(),
                                 weights_or_unweighted(construction, weights), info, 0, comm);
}

int query_neighbors(MPI_Comm comm, Neighbors& neighbors) {
    int in_degree = 0, out_degree = 0, weighted = 0;
    if (const int code = MPI_Dist_graph_neighbors_count(comm, &in_degree, &out_degree, &weighted); code != MPI_SUCCESS)
        return code;
    std::vector<int> sources(in_degree + 1), source_weights(in_degree + 1);
    std::vector<int> destinations(out_degree + 1), destination_weights(out_degree + 1);
    const int code = MPI_Dist_graph_neighbors(comm, in_degree, sources.data(), source_weights.data(), out_degree,
                                              destinations.data(), destination_weights.data());
    sources.resize(in_degree);
    destinations.resize(out_degree);
    neighbors = {std::move(sources), std::move(destinations)};
    return code;
}

std::string neighbors_problem(const Graph& graph, const Construction& construction, int rank,
                              const Neighbors& neighbors) {
    auto sources = neighbors.sources, destinations = neighbors.destinations;
    auto expected_sources = graph.in[rank], expected_destinations = graph.out[rank];
    if (construction.constructor == Constructor::general) {
        for (auto* list : {&sources, &destinations, &expected_sources, &expected_destinations})
            std::ranges::sort(*list);
    }
    if (sources != expected_sources) return "MPI_Dist_graph_neighbors reports other sources than the graph's";
    if (destinations != expected_destinations)
        return "MPI_Dist_graph_neighbors reports other destinations than the graph's";
    return {};
}

}  // namespace nbrcomb::fuzz
