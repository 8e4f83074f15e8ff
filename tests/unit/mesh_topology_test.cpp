#include "topology/mesh.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>

using nbrcomb::topology::WeightedGraphs;

namespace {

// Edge (u, v) -> its blocks, as u's destinations and as v's sources give them; the two must agree.
std::map<std::pair<int, int>, int> edge_blocks(const WeightedGraphs& topology, bool from_sources) {
    std::map<std::pair<int, int>, int> blocks;
    for (std::size_t r = 0; r < topology.graphs.size(); ++r) {
        const auto& graph = topology.graphs[r];
        const auto& list = from_sources ? graph.sources : graph.destinations;
        const auto& counts = from_sources ? topology.blocks[r].sources : topology.blocks[r].destinations;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto edge = from_sources ? std::pair{list[i], graph.rank} : std::pair{graph.rank, list[i]};
            EXPECT_TRUE(blocks.emplace(edge, counts[i]).second) << "a repeated edge";
        }
    }
    return blocks;
}

double average_degree(const WeightedGraphs& topology) {
    double edges = 0;
    for (const auto& graph : topology.graphs) edges += static_cast<double>(graph.destinations.size());
    return edges / static_cast<double>(topology.graphs.size());
}

}  // namespace

TEST(MeshTopology, the_mesh_is_symmetric_with_about_five_faces_per_cell) {
    const auto mesh = nbrcomb::topology::random_geometric_mesh(5000, 3);
    ASSERT_EQ(mesh.rows(), 5000);
    const double faces = static_cast<double>(mesh.neighbors.size()) / mesh.rows();
    EXPECT_GE(faces, 4.0);
    EXPECT_LE(faces, 7.0);
    for (int i = 0; i < mesh.rows(); ++i)
        for (int k = mesh.offsets[static_cast<std::size_t>(i)]; k < mesh.offsets[static_cast<std::size_t>(i) + 1];
             ++k) {
            const int j = mesh.neighbors[static_cast<std::size_t>(k)];
            ASSERT_NE(i, j);
            const auto first = mesh.neighbors.begin() + mesh.offsets[static_cast<std::size_t>(j)];
            const auto last = mesh.neighbors.begin() + mesh.offsets[static_cast<std::size_t>(j) + 1];
            ASSERT_TRUE(std::binary_search(first, last, i)) << i << " -> " << j << " only one way";
        }
}

TEST(MeshTopology, both_ends_of_an_edge_agree_on_its_ghost_cells) {
    for (const int level : {0, 1, 2}) {
        const WeightedGraphs topology = nbrcomb::topology::mesh_level_exchange(20000, level, 1, 16);
        ASSERT_EQ(topology.blocks.size(), 16u);
        const auto sent = edge_blocks(topology, false);
        EXPECT_EQ(sent, edge_blocks(topology, true)) << "level " << level;
        EXPECT_FALSE(sent.empty());
        for (const auto& [edge, blocks] : sent) EXPECT_GE(blocks, 1);
        for (const auto& graph : topology.graphs) {
            EXPECT_TRUE(std::ranges::is_sorted(graph.sources));
            EXPECT_TRUE(std::ranges::is_sorted(graph.destinations));
        }
    }
}

TEST(MeshTopology, ghost_cells_are_the_cells_next_to_another_part) {
    // Level 0 by hand: a part sends each neighbor its cells that share a face with that neighbor's.
    const auto mesh = nbrcomb::topology::random_geometric_mesh(3000, 7);
    const auto owner = nbrcomb::topology::partition_rows(mesh, 6);
    std::map<std::pair<int, int>, int> expected;
    for (int c = 0; c < mesh.rows(); ++c) {
        std::vector<int> parts;
        for (int k = mesh.offsets[static_cast<std::size_t>(c)]; k < mesh.offsets[static_cast<std::size_t>(c) + 1]; ++k)
            parts.push_back(owner[static_cast<std::size_t>(mesh.neighbors[static_cast<std::size_t>(k)])]);
        std::ranges::sort(parts);
        parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
        for (const int part : parts)
            if (part != owner[static_cast<std::size_t>(c)]) ++expected[{owner[static_cast<std::size_t>(c)], part}];
    }
    const auto topology = nbrcomb::topology::halo_exchange({mesh, owner}, 6);
    EXPECT_EQ(edge_blocks(topology, false), expected);
}

TEST(MeshTopology, coarse_levels_have_fewer_rows_and_more_neighbors) {
    nbrcomb::topology::MultigridLevel level;
    level.matrix = nbrcomb::topology::random_geometric_mesh(40000, 1);
    level.owner = nbrcomb::topology::partition_rows(level.matrix, 32);
    double previous_degree = average_degree(nbrcomb::topology::halo_exchange(level, 32));
    for (int l = 1; l <= 3; ++l) {
        const auto coarse = nbrcomb::topology::coarsen(level);
        EXPECT_LT(coarse.matrix.rows() * 3, level.matrix.rows()) << "level " << l;
        const double degree = average_degree(nbrcomb::topology::halo_exchange(coarse, 32));
        EXPECT_GE(degree, previous_degree) << "level " << l;
        // Aggregates never straddle processes.
        for (int big_i = 0; big_i < coarse.matrix.rows(); ++big_i)
            EXPECT_GE(coarse.owner[static_cast<std::size_t>(big_i)], 0);
        previous_degree = degree;
        level = coarse;
    }
}

TEST(MeshTopology, specs_name_the_mesh_and_its_levels) {
    const auto mesh = nbrcomb::topology::parse_topology("mesh:20000");
    EXPECT_EQ(mesh.kind, nbrcomb::topology::TopologySpec::Kind::mesh);
    EXPECT_EQ(mesh.cells, 20000);
    EXPECT_EQ(mesh.level, 0);
    const auto coarse = nbrcomb::topology::parse_topology("amg:20000:2:5");
    EXPECT_EQ(coarse.level, 2);
    EXPECT_EQ(coarse.seed, 5u);
    EXPECT_THROW(nbrcomb::topology::parse_topology("amg:20000"), std::invalid_argument);
    EXPECT_THROW(nbrcomb::topology::parse_topology("mesh:3"), std::invalid_argument);
    EXPECT_THROW(nbrcomb::topology::generate_weighted(nbrcomb::topology::parse_topology("shuffled:mesh:2000"), 4),
                 std::invalid_argument);
    const auto graphs = nbrcomb::topology::generate(mesh, 8);
    EXPECT_EQ(graphs.size(), 8u);
}
