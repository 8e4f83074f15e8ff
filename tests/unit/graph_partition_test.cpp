#include "mapping/graph_partition.h"
#include "topology/generators.h"

#include <gtest/gtest.h>

#include <vector>

using namespace nbrcomb::detail;

namespace {

ProcessGraph process_graph(const nbrcomb::topology::Graphs& graphs) {
    std::vector<int> offsets{0}, destinations;
    for (const LocalGraph& local : graphs) {
        destinations.insert(destinations.end(), local.destinations.begin(), local.destinations.end());
        offsets.push_back(static_cast<int>(destinations.size()));
    }
    return undirected_graph(static_cast<int>(graphs.size()), offsets, destinations, {});
}

std::vector<int> part_sizes(const std::vector<int>& part, std::size_t parts) {
    std::vector<int> sizes(parts);
    for (const int p : part) ++sizes[p];
    return sizes;
}

}  // namespace

TEST(GraphPartition, parts_have_exactly_their_sizes) {
    const ProcessGraph graph = process_graph(nbrcomb::topology::erdos_renyi(60, 0.1, 3));
    for (const std::vector<int>& sizes :
         {std::vector<int>{7, 23, 30}, std::vector<int>{30, 30}, std::vector<int>(12, 5), std::vector<int>{1, 59}}) {
        const std::vector<int> part = partition_exact(graph, sizes);
        ASSERT_EQ(part.size(), 60u);
        EXPECT_EQ(part_sizes(part, sizes.size()), sizes);
    }
}

TEST(GraphPartition, two_cliques_joined_by_one_edge_are_cut_at_that_edge) {
    // Even and odd vertices form the cliques, so that the vertex order gives no hint.
    std::vector<int> offsets{0}, destinations;
    for (int u = 0; u < 16; ++u) {
        for (int v = u % 2; v < 16; v += 2)
            if (v != u) destinations.push_back(v);
        if (u == 0) destinations.push_back(1);
        offsets.push_back(static_cast<int>(destinations.size()));
    }
    const ProcessGraph graph = undirected_graph(16, offsets, destinations, {});
    const std::vector<int> part = partition_exact(graph, std::vector<int>{8, 8});
    EXPECT_EQ(cut_weight(graph, part), 1);
    for (int v = 2; v < 16; ++v) EXPECT_EQ(part[v], part[v % 2]) << v;
}

TEST(GraphPartition, a_grid_is_cut_into_compact_parts) {
    // The 2-D Moore neighborhood on a periodic 8 x 8 grid has 256 edges, each used both ways
    // (weight 2): four strips of 2 x 8 cut 96 of them, weight 192; a split at random about
    // three quarters, weight 384.
    const ProcessGraph graph = process_graph(nbrcomb::topology::moore(64, 2, 1));
    const std::vector<int> part = partition_exact(graph, std::vector<int>(4, 16));
    EXPECT_EQ(part_sizes(part, 4), std::vector<int>(4, 16));
    EXPECT_LE(cut_weight(graph, part), 192);
}

TEST(GraphPartition, without_edges_or_with_one_vertex_per_part_vertices_fill_parts_in_order) {
    const std::vector<int> offsets(6, 0);
    const ProcessGraph edgeless = undirected_graph(5, offsets, {}, {});
    EXPECT_EQ(partition_exact(edgeless, std::vector<int>{2, 3}), (std::vector<int>{0, 0, 1, 1, 1}));
    const ProcessGraph ring = process_graph(nbrcomb::topology::moore(4, 1, 1));
    EXPECT_EQ(partition_exact(ring, std::vector<int>{1, 1, 1, 1}), (std::vector<int>{0, 1, 2, 3}));
}
