#include "pattern/message_cost.h"
#include "pattern/process_grid.h"
#include "pattern/simulated_phase1.h"
#include "topology/generators.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

using namespace nbrcomb::detail;

namespace {

int product(const std::vector<int>& dims) { return std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>()); }

TEST(ProcessGrid, every_shape_covers_the_processes) {
    for (const int count : {4, 12, 64, 96, 1024}) {
        for (const std::vector<int>& dims : stencil_shapes(count)) {
            EXPECT_EQ(product(dims), count);
            EXPECT_TRUE(dims.size() == 2 || dims.size() == 3);
            for (const int n : dims) EXPECT_GE(n, 2);
        }
        for (const int node_size : {0, 4, 16})
            for (const std::vector<int>& dims : cube_shapes(count, node_size)) {
                EXPECT_EQ(product(dims), count);
                EXPECT_GE(dims.size(), 2u);
                EXPECT_LT(dims.size(), static_cast<std::size_t>(RoundCosts::rounds));
            }
    }
    EXPECT_EQ(stencil_shapes(12).size(), 7u);  // 2x6 3x4 4x3 6x2 2x2x3 2x3x2 3x2x2
    EXPECT_TRUE(stencil_shapes(7).empty());
    // The 4-ary 4-cube of 16 nodes of 16, nodes first.
    const std::vector<std::vector<int>> cubes = cube_shapes(256, 16);
    EXPECT_NE(std::ranges::find(cubes, std::vector<int>{4, 4, 4, 4}), cubes.end());
}

struct Routed {
    GridChoices choices;
    double stencil_ratio, cube_ratio;  // messages per call over one per edge, all processes
};

// Both families' grids for a topology on nodes of 16, and the messages they send.
Routed route(const std::string& topology, int processes) {
    const auto graphs = nbrcomb::topology::generate(nbrcomb::topology::parse_topology(topology), processes);
    auto nodes = std::make_shared<std::vector<int>>();
    for (int r = 0; r < processes; ++r) nodes->push_back(r / 16);
    Routed routed{simulate_grid_choice(graphs, nodes), 0, 0};
    const auto ratio = [&](const std::shared_ptr<const ProcessGrid>& grid) {
        double messages = 0, edges = 0;
        const std::vector<GridPattern> patterns = simulate_grid_routing(graphs, grid);
        for (std::size_t r = 0; r < graphs.size(); ++r) {
            edges += static_cast<double>(graphs[r].destinations.size());
            for (const GridRound& round : patterns[r].rounds) messages += static_cast<double>(round.sends.size());
        }
        return messages / edges;
    };
    routed.stencil_ratio = ratio(routed.choices.stencil);
    routed.cube_ratio = ratio(routed.choices.cube);
    return routed;
}

// Moore (D, R) on the grid its ranks lie on: 2RD messages at most instead of (2R+1)^D - 1.
TEST(ProcessGrid, a_stencil_routes_over_its_own_grid) {
    const Routed moore31 = route("moore:3:1", 512);
    EXPECT_TRUE(moore31.choices.stencil_pays);
    EXPECT_EQ(moore31.choices.stencil->dims.size(), 3u);
    EXPECT_DOUBLE_EQ(moore31.stencil_ratio, 6.0 / 26);
    const Routed moore22 = route("moore:2:2", 1024);
    EXPECT_TRUE(moore22.choices.stencil_pays);
    EXPECT_LE(moore22.stencil_ratio, 8.0 / 24);
}

// An irregular graph has no stencil grid that pays much, but a virtual cube bounds every
// process's messages whatever its degree.
TEST(ProcessGrid, a_virtual_cube_bounds_an_irregular_graphs_messages) {
    const Routed dense = route("er:0.2", 256);
    EXPECT_TRUE(dense.choices.cube_pays);
    EXPECT_LT(dense.cube_ratio, 0.25);
    EXPECT_LT(dense.cube_ratio, dense.stencil_ratio);
}

// Processes without edges are off the grid: no route passes through them.
TEST(ProcessGrid, processes_without_edges_are_off_the_grid) {
    auto graphs = nbrcomb::topology::generate(nbrcomb::topology::parse_topology("er:0.5:3"), 12);
    for (LocalGraph& graph : graphs) {
        std::erase(graph.sources, 5);
        std::erase(graph.destinations, 5);
    }
    graphs[5].sources.clear();
    graphs[5].destinations.clear();
    auto nodes = std::make_shared<std::vector<int>>(12, 0);
    (*nodes)[5] = -1;
    const GridChoices choices = simulate_grid_choice(graphs, nodes);
    for (const auto& grid : {choices.stencil, choices.cube}) {
        EXPECT_EQ(product(grid->dims), 11);
        const std::vector<GridPattern> patterns = simulate_grid_routing(graphs, grid);
        EXPECT_TRUE(patterns[5].rounds.empty() || patterns[5].rounds.front().sends.empty());
        for (std::size_t r = 0; r < graphs.size(); ++r)
            for (const GridRound& round : patterns[r].rounds)
                for (const GridSend& send : round.sends) EXPECT_NE(send.peer, 5);
    }
}

}  // namespace
