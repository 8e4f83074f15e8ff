#include "topology/generators.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using nbrcomb::topology::Graphs;

namespace {

// Whether every in-list holds, in ascending order, the u of every u->v edge, repeats included:
// the rule MPI's distributed graphs follow for the k-th edge between two processes.
bool in_lists_match_out_lists(const Graphs& graphs) {
    std::vector<std::vector<int>> expected(graphs.size());
    for (const auto& graph : graphs)
        for (const int v : graph.destinations) expected[static_cast<std::size_t>(v)].push_back(graph.rank);
    for (std::size_t v = 0; v < graphs.size(); ++v)
        if (graphs[v].sources != expected[v]) return false;
    return true;
}

}  // namespace

TEST(TopologyGenerators, renumbering_renames_every_vertex_and_keeps_list_order) {
    // 0 -> 1, 0 -> 2 twice, 2 -> 0, 1 -> 1 (a self-loop); then renamed 0 -> 2, 1 -> 0, 2 -> 1.
    Graphs graphs(3);
    for (int r = 0; r < 3; ++r) graphs[static_cast<std::size_t>(r)].rank = r;
    graphs[0].destinations = {2, 1, 2};
    graphs[1].destinations = {1};
    graphs[2].destinations = {0};
    const Graphs renamed = nbrcomb::topology::renumber_ranks(graphs, {2, 0, 1});
    EXPECT_EQ(renamed[2].destinations, (std::vector<int>{1, 0, 1}));
    EXPECT_EQ(renamed[0].destinations, (std::vector<int>{0}));
    EXPECT_EQ(renamed[1].destinations, (std::vector<int>{2}));
    EXPECT_EQ(renamed[1].sources, (std::vector<int>{2, 2}));
    EXPECT_TRUE(in_lists_match_out_lists(renamed));
}

TEST(TopologyGenerators, shuffled_ranks_come_from_the_seed_alone) {
    const Graphs grid = nbrcomb::topology::moore(64, 2, 1);
    const Graphs shuffled = nbrcomb::topology::shuffle_ranks(grid, 1);
    EXPECT_EQ(shuffled.size(), grid.size());
    EXPECT_TRUE(in_lists_match_out_lists(shuffled));
    for (const auto& graph : shuffled) EXPECT_EQ(graph.destinations.size(), 8u);
    EXPECT_EQ(nbrcomb::topology::shuffle_ranks(grid, 1)[0].destinations, shuffled[0].destinations);
    const auto moved = std::ranges::count_if(shuffled, [&](const auto& graph) {
        return graph.destinations != grid[static_cast<std::size_t>(graph.rank)].destinations;
    });
    EXPECT_GT(moved, 48);
}

TEST(TopologyGenerators, shuffled_prefix_renumbers_any_topology) {
    const auto spec = nbrcomb::topology::parse_topology("shuffled:er:0.2:7");
    EXPECT_TRUE(spec.shuffled);
    EXPECT_EQ(spec.text, "shuffled:er:0.2:7");
    const Graphs plain = nbrcomb::topology::erdos_renyi(40, 0.2, 7);
    const Graphs shuffled = nbrcomb::topology::generate(spec, 40);
    EXPECT_EQ(shuffled[5].destinations, nbrcomb::topology::shuffle_ranks(plain, 7)[5].destinations);
    EXPECT_THROW(nbrcomb::topology::parse_topology("shuffled:shuffled:moore:2:1"), std::invalid_argument);
    EXPECT_THROW(nbrcomb::topology::parse_topology("shuffled:"), std::invalid_argument);
}

namespace {

// Every list of every process as a sorted multiset: what a graph is whatever the order of its lists.
std::vector<std::vector<int>> sorted_lists(const Graphs& graphs) {
    std::vector<std::vector<int>> lists;
    for (const auto& graph : graphs) {
        for (auto list : {graph.sources, graph.destinations}) {
            std::ranges::sort(list);
            lists.push_back(std::move(list));
        }
    }
    return lists;
}

}  // namespace

TEST(TopologyGenerators, stencil_orders_list_the_same_offsets) {
    using nbrcomb::topology::ListOrder;
    // von Neumann (2,1) on a 4x4 grid, rank 5 at (1,1): row-major (-1,0) (0,-1) (0,1) (1,0),
    // column-major (0,-1) (-1,0) (1,0) (0,1), sources the same offsets negated.
    const Graphs rows = nbrcomb::topology::von_neumann(16, 2, 1, ListOrder::row_major);
    const Graphs columns = nbrcomb::topology::von_neumann(16, 2, 1, ListOrder::column_major);
    EXPECT_EQ(rows[5].destinations, (std::vector<int>{1, 4, 6, 9}));
    EXPECT_EQ(rows[5].sources, (std::vector<int>{9, 6, 4, 1}));
    EXPECT_EQ(columns[5].destinations, (std::vector<int>{4, 1, 9, 6}));
    EXPECT_EQ(columns[5].sources, (std::vector<int>{6, 9, 1, 4}));
    const Graphs shuffled = nbrcomb::topology::moore(16, 2, 1, ListOrder::random, 3);
    const Graphs moore = nbrcomb::topology::moore(16, 2, 1);
    EXPECT_EQ(sorted_lists(shuffled), sorted_lists(moore));
    EXPECT_EQ(sorted_lists(columns), sorted_lists(rows));
    // Each process draws its own order, from the seed and its rank alone.
    EXPECT_NE(shuffled[0].destinations, shuffled[1].destinations);
    EXPECT_EQ(nbrcomb::topology::moore(16, 2, 1, ListOrder::random, 3)[7].sources, shuffled[7].sources);
    EXPECT_THROW(nbrcomb::topology::moore(16, 2, 1, ListOrder::linear), std::invalid_argument);
}

TEST(TopologyGenerators, complete_graphs_list_every_process_once) {
    using nbrcomb::topology::ListOrder;
    const Graphs linear = nbrcomb::topology::complete(5, ListOrder::linear);
    EXPECT_EQ(linear[2].sources, (std::vector<int>{2, 3, 4, 0, 1}));
    EXPECT_EQ(linear[2].destinations, (std::vector<int>{2, 1, 0, 4, 3}));
    const Graphs random = nbrcomb::topology::complete(5, ListOrder::random, 9);
    EXPECT_EQ(sorted_lists(random), sorted_lists(linear));
    EXPECT_NE(random[0].sources, random[0].destinations);
    EXPECT_THROW(nbrcomb::topology::complete(5, ListOrder::row_major), std::invalid_argument);
}
