#include "mapping/rank_mapping.h"
#include "topology/generators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// A graph given as out-edges per vertex, weight 1 each (repeats add up).
ProcessGraph graph_of(const std::vector<std::vector<int>>& out) {
    std::vector<int> offsets{0}, destinations;
    for (const std::vector<int>& list : out) {
        destinations.insert(destinations.end(), list.begin(), list.end());
        offsets.push_back(static_cast<int>(destinations.size()));
    }
    return undirected_graph(static_cast<int>(out.size()), offsets, destinations, {});
}

// Clusters of the given sizes whose members exchange ten times as much as neighboring clusters
// (one edge from each cluster to the next), their vertices shuffled over the ranks.
std::vector<std::vector<int>> scrambled_clusters(const std::vector<int>& sizes, unsigned seed) {
    const int n = std::accumulate(sizes.begin(), sizes.end(), 0);
    std::vector<int> vertex(n);
    std::iota(vertex.begin(), vertex.end(), 0);
    std::shuffle(vertex.begin(), vertex.end(), std::mt19937(seed));
    std::vector<std::vector<int>> out(n);
    int first = 0;
    for (std::size_t c = 0; c < sizes.size(); ++c) {
        for (int i = first; i < first + sizes[c]; ++i)
            for (int j = first; j < first + sizes[c]; ++j)
                if (i != j) out[vertex[i]].insert(out[vertex[i]].end(), 10, vertex[j]);
        const int next = (first + sizes[c]) % n;
        out[vertex[first]].push_back(vertex[next]);
        first += sizes[c];
    }
    return out;
}

// Processes on nodes of the given sizes, in rank order; package and NUMA domain unknown.
std::vector<ProcessPlace> nodes_of(const std::vector<int>& sizes) {
    std::vector<ProcessPlace> places;
    for (std::size_t node = 0; node < sizes.size(); ++node)
        places.insert(places.end(), sizes[node], ProcessPlace{.node = static_cast<int>(node)});
    return places;
}

// Where each vertex runs under mapping, at the given level of its place.
template <class Level>
std::vector<int> vertex_places(const RankMapping& mapping, const std::vector<ProcessPlace>& places, Level level) {
    std::vector<int> result(places.size());
    for (std::size_t p = 0; p < places.size(); ++p) result[mapping.new_rank[p]] = level(places[p]);
    return result;
}

std::vector<int> node_of_vertex(const RankMapping& mapping, const std::vector<ProcessPlace>& places) {
    return vertex_places(mapping, places, [](const ProcessPlace& place) { return place.node; });
}

bool is_permutation(const std::vector<int>& ranks) {
    std::vector<int> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int>(i)) return false;
    return true;
}

std::vector<int> identity(int n) {
    std::vector<int> ranks(n);
    std::iota(ranks.begin(), ranks.end(), 0);
    return ranks;
}

}  // namespace

TEST(RankMapping, scrambled_clusters_come_together_on_nodes) {
    // 16 nodes of 4: more than 8 parts, so METIS's k-way partitioning runs.
    const std::vector<int> sizes(16, 4);
    const ProcessGraph graph = graph_of(scrambled_clusters(sizes, 1));
    const std::vector<ProcessPlace> places = nodes_of(sizes);
    const RankMapping mapping = map_ranks(graph, places);
    ASSERT_TRUE(is_permutation(mapping.new_rank));
    EXPECT_EQ(mapping.cut_before, cut_weight(graph, node_of_vertex({identity(64)}, places)));
    EXPECT_EQ(mapping.cut_after, cut_weight(graph, node_of_vertex(mapping, places)));
    // Only the 16 edges between clusters stay between nodes.
    EXPECT_EQ(mapping.cut_after, 16);
    EXPECT_GT(mapping.cut_before, 10 * mapping.cut_after);
}

TEST(RankMapping, nodes_of_different_sizes_take_clusters_of_their_size) {
    const std::vector<int> sizes{3, 5, 4, 4};
    const ProcessGraph graph = graph_of(scrambled_clusters(sizes, 2));
    const std::vector<ProcessPlace> places = nodes_of(sizes);
    const RankMapping mapping = map_ranks(graph, places);
    ASSERT_TRUE(is_permutation(mapping.new_rank));
    EXPECT_EQ(mapping.cut_after, 4);
    EXPECT_EQ(mapping.cut_after, cut_weight(graph, node_of_vertex(mapping, places)));
}

TEST(RankMapping, ranks_stay_when_they_are_as_good_as_any) {
    // A ring on nodes of consecutive ranks cuts one edge per node, the least any mapping can.
    std::vector<std::vector<int>> ring(16);
    for (int v = 0; v < 16; ++v) ring[v] = {(v + 1) % 16};
    const RankMapping mapping = map_ranks(graph_of(ring), nodes_of({4, 4, 4, 4}));
    EXPECT_EQ(mapping.new_rank, identity(16));
    EXPECT_EQ(mapping.cut_before, 4);
    EXPECT_EQ(mapping.cut_after, 4);
}

TEST(RankMapping, one_node_without_known_packages_keeps_the_ranks) {
    const ProcessGraph graph = graph_of(scrambled_clusters({2, 2, 2, 2}, 3));
    const RankMapping mapping = map_ranks(graph, nodes_of({8}));
    EXPECT_EQ(mapping.new_rank, identity(8));
    EXPECT_EQ(mapping.cut_before, 0);
}

TEST(RankMapping, inside_a_node_heavy_neighbors_share_a_package) {
    // One node, packages 0 and 1 of four processes each; vertices 0..3 pair up with 4..7.
    std::vector<ProcessPlace> places;
    for (int p = 0; p < 8; ++p) places.push_back({.node = 0, .package = p / 4});
    std::vector<std::vector<int>> out(8);
    for (int v = 0; v < 4; ++v) out[v].insert(out[v].end(), 10, v + 4);
    for (int v = 0; v < 8; ++v) out[v].push_back((v + 1) % 8);
    const RankMapping mapping = map_ranks(graph_of(out), places);
    ASSERT_TRUE(is_permutation(mapping.new_rank));
    const std::vector<int> package =
        vertex_places(mapping, places, [](const ProcessPlace& place) { return place.package; });
    for (int v = 0; v < 4; ++v) EXPECT_EQ(package[v], package[v + 4]) << v;
    EXPECT_EQ(mapping.cut_before, 0);
    EXPECT_EQ(mapping.cut_after, 0);
}

TEST(RankMapping, a_process_without_a_known_package_keeps_its_node_in_rank_order) {
    std::vector<ProcessPlace> places;
    for (int p = 0; p < 8; ++p) places.push_back({.node = 0, .package = p / 4});
    places[5].package = -1;
    std::vector<std::vector<int>> out(8);
    for (int v = 0; v < 4; ++v) out[v].insert(out[v].end(), 10, v + 4);
    EXPECT_EQ(map_ranks(graph_of(out), places).new_rank, identity(8));
}

TEST(RankMapping, a_large_stencil_maps_and_never_cuts_more) {
    // 4096 processes of a 3-D Moore stencil (106496 edges) on nodes of 32, given in row-major order.
    const auto stencil = nbrcomb::topology::moore(4096, 3, 1);
    std::vector<std::vector<int>> out;
    for (const LocalGraph& local : stencil) out.push_back(local.destinations);
    const std::vector<int> sizes(128, 32);
    const RankMapping mapping = map_ranks(graph_of(out), nodes_of(sizes));
    ASSERT_TRUE(is_permutation(mapping.new_rank));
    EXPECT_LE(mapping.cut_after, mapping.cut_before);
}
