// The process topology as rank reordering sees it: an undirected graph on the ranks whose edge
// weights say how much two ranks exchange (thesis 001, §3.2.1: the communication pattern as a
// weighted graph). Plain data, no MPI.
#pragma once

#include <span>
#include <vector>

namespace nbrcomb::detail {

// Compressed rows, as METIS takes them: the neighbors of vertex v are
// neighbors[offsets[v] .. offsets[v + 1]), each edge stored at both ends with the same weight.
struct ProcessGraph {
    std::vector<int> offsets{0};
    std::vector<int> neighbors;
    std::vector<long long> weights;

    int vertices() const { return static_cast<int>(offsets.size()) - 1; }
    bool has_edges() const { return !neighbors.empty(); }
};

// The directed multigraph whose vertex v has the out-edges destinations[out_offsets[v] ..
// out_offsets[v + 1]) with the given weights (empty: 1 each) as an undirected graph: u→v and v→u,
// repeats included, add up to one edge; self-loops and edges of total weight 0 carry nothing
// between processes and are left out. Destinations must lie in [0, vertices).
ProcessGraph undirected_graph(int vertices, std::span<const int> out_offsets, std::span<const int> destinations,
                              std::span<const int> weights);

// The subgraph on the given vertices, renumbered 0.. in the order given.
ProcessGraph induced_subgraph(const ProcessGraph& graph, std::span<const int> vertices);

// The weight of the edges whose ends lie in different parts (part_of[v] for every vertex v).
long long cut_weight(const ProcessGraph& graph, std::span<const int> part_of);

}  // namespace nbrcomb::detail
