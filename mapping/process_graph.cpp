#include "mapping/process_graph.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace nbrcomb::detail {

ProcessGraph undirected_graph(int vertices, std::span<const int> out_offsets, std::span<const int> destinations,
                              std::span<const int> weights) {
    // Every edge under its lower end first, so that both directions and repeats meet when sorted.
    std::vector<std::tuple<int, int, long long>> edges;
    edges.reserve(destinations.size());
    for (int u = 0; u < vertices; ++u)
        for (int e = out_offsets[u]; e < out_offsets[u + 1]; ++e) {
            const int v = destinations[e];
            const long long weight = weights.empty() ? 1 : weights[e];
            if (u != v && weight > 0) edges.emplace_back(std::min(u, v), std::max(u, v), weight);
        }
    std::sort(edges.begin(), edges.end());
    std::vector<std::tuple<int, int, long long>> merged;
    for (const auto& [u, v, weight] : edges) {
        if (!merged.empty() && std::get<0>(merged.back()) == u && std::get<1>(merged.back()) == v)
            std::get<2>(merged.back()) += weight;
        else
            merged.emplace_back(u, v, weight);
    }

    ProcessGraph graph;
    graph.offsets.assign(vertices + 1, 0);
    for (const auto& [u, v, weight] : merged) {
        ++graph.offsets[u + 1];
        ++graph.offsets[v + 1];
    }
    for (int v = 0; v < vertices; ++v) graph.offsets[v + 1] += graph.offsets[v];
    graph.neighbors.resize(2 * merged.size());
    graph.weights.resize(2 * merged.size());
    std::vector<int> next(graph.offsets.begin(), graph.offsets.end() - 1);
    const auto add = [&](int from, int to, long long weight) {
        const int slot = next[from]++;
        graph.neighbors[slot] = to;
        graph.weights[slot] = weight;
    };
    for (const auto& [u, v, weight] : merged) {
        add(u, v, weight);
        add(v, u, weight);
    }
    return graph;
}

ProcessGraph induced_subgraph(const ProcessGraph& graph, std::span<const int> vertices) {
    // A map rather than a table over all vertices: reordering takes one subgraph per node.
    std::unordered_map<int, int> local;
    for (std::size_t i = 0; i < vertices.size(); ++i) local.emplace(vertices[i], static_cast<int>(i));
    ProcessGraph sub;
    for (const int v : vertices) {
        for (int e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e) {
            const auto neighbor = local.find(graph.neighbors[e]);
            if (neighbor == local.end()) continue;
            sub.neighbors.push_back(neighbor->second);
            sub.weights.push_back(graph.weights[e]);
        }
        sub.offsets.push_back(static_cast<int>(sub.neighbors.size()));
    }
    return sub;
}

long long cut_weight(const ProcessGraph& graph, std::span<const int> part_of) {
    long long cut = 0;
    for (int v = 0; v < graph.vertices(); ++v)
        for (int e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
            if (part_of[v] != part_of[graph.neighbors[e]]) cut += graph.weights[e];
    return cut / 2;  // every edge is stored at both ends
}

}  // namespace nbrcomb::detail
