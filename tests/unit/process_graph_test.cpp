#include "mapping/process_graph.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace nbrcomb::detail;

namespace {

using Edges = std::vector<std::pair<int, long long>>;

// The neighbors and weights of v, in stored order.
Edges edges_of(const ProcessGraph& graph, int v) {
    Edges edges;
    for (int e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
        edges.emplace_back(graph.neighbors[e], graph.weights[e]);
    return edges;
}

}  // namespace

TEST(ProcessGraph, both_directions_and_repeats_add_up_self_loops_and_zero_weights_drop) {
    // 0->1 (2), 0->1 (1), 0->0 (5); 1->0 (3); 2->0 (0).
    const std::vector<int> offsets{0, 3, 4, 5};
    const std::vector<int> destinations{1, 1, 0, 0, 0};
    const std::vector<int> weights{2, 1, 5, 3, 0};
    const ProcessGraph graph = undirected_graph(3, offsets, destinations, weights);
    EXPECT_EQ(graph.vertices(), 3);
    EXPECT_EQ(edges_of(graph, 0), (Edges{{1, 6}}));
    EXPECT_EQ(edges_of(graph, 1), (Edges{{0, 6}}));
    EXPECT_EQ(edges_of(graph, 2), Edges{});
}

TEST(ProcessGraph, unweighted_edges_weigh_one_each) {
    const std::vector<int> offsets{0, 2, 3, 3};
    const std::vector<int> destinations{1, 2, 2};
    const ProcessGraph graph = undirected_graph(3, offsets, destinations, {});
    EXPECT_EQ(edges_of(graph, 2), (Edges{{0, 1}, {1, 1}}));
    EXPECT_EQ(cut_weight(graph, std::vector<int>{0, 0, 1}), 2);
    EXPECT_EQ(cut_weight(graph, std::vector<int>{0, 0, 0}), 0);
}

TEST(ProcessGraph, a_subgraph_keeps_the_edges_among_its_vertices_in_their_order) {
    // The path 0 - 1 - 2 - 3 with weights 1, 2, 3.
    const std::vector<int> offsets{0, 1, 2, 3, 3};
    const std::vector<int> destinations{1, 2, 3};
    const std::vector<int> weights{1, 2, 3};
    const ProcessGraph path = undirected_graph(4, offsets, destinations, weights);
    const ProcessGraph sub = induced_subgraph(path, std::vector<int>{2, 1});
    EXPECT_EQ(sub.vertices(), 2);
    EXPECT_EQ(edges_of(sub, 0), (Edges{{1, 2}}));
    EXPECT_EQ(edges_of(sub, 1), (Edges{{0, 2}}));
}
