#include "pattern/pattern_builder.h"
#include "pattern/pattern_check.h"
#include "pattern/simulated_phase1.h"

#include <gtest/gtest.h>

#include <random>

using namespace nbrcomb::detail;

namespace {

// Erdős–Rényi digraph: each ordered pair (u, v), u != v, is an edge with probability density.
std::vector<LocalGraph> erdos_renyi(int processes, double density, unsigned seed) {
    std::vector<LocalGraph> graphs(static_cast<std::size_t>(processes));
    std::mt19937 random(seed);
    std::bernoulli_distribution edge(density);
    for (int u = 0; u < processes; ++u) {
        graphs[static_cast<std::size_t>(u)].rank = u;
        for (int v = 0; v < processes; ++v)
            if (u != v && edge(random)) {
                graphs[static_cast<std::size_t>(u)].destinations.push_back(v);
                graphs[static_cast<std::size_t>(v)].sources.push_back(u);
            }
    }
    return graphs;
}

// The 2-D Moore neighborhood of radius 1 on a periodic side x side grid; small grids repeat
// neighbors and make self-loops.
std::vector<LocalGraph> moore_2d(int side) {
    std::vector<LocalGraph> graphs(static_cast<std::size_t>(side * side));
    for (int r = 0; r < side * side; ++r) {
        graphs[static_cast<std::size_t>(r)].rank = r;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0) continue;
                const int x = (r % side + dx + side) % side, y = (r / side + dy + side) % side;
                const int v = y * side + x;
                graphs[static_cast<std::size_t>(r)].destinations.push_back(v);
                graphs[static_cast<std::size_t>(v)].sources.push_back(r);
            }
    }
    return graphs;
}

double message_ratio(const std::vector<LocalGraph>& graphs, const std::vector<Pattern>& patterns) {
    double combined = 0, native = 0;
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        combined += static_cast<double>(messages_per_call(graphs[r], patterns[r]));
        native += static_cast<double>(messages_per_call(graphs[r], direct_pattern(graphs[r])));
    }
    return combined / native;
}

}  // namespace

TEST(PairPattern, random_graphs_deliver_every_edge_once) {
    for (const double density : {0.05, 0.2, 0.5})
        for (const int theta : {1, 2, 4}) {
            const auto graphs = erdos_renyi(64, density, 7);
            const auto patterns = simulate_pair_patterns(graphs, theta);
            EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{}) << density << " " << theta;
            EXPECT_LE(message_ratio(graphs, patterns), 1.0);
        }
}

TEST(PairPattern, dense_graph_combines) {
    const auto graphs = erdos_renyi(64, 0.5, 3);
    const auto patterns = simulate_pair_patterns(graphs, 4);
    EXPECT_LT(message_ratio(graphs, patterns), 0.8);
    EXPECT_FALSE(patterns[0].steps.empty());
}

TEST(PairPattern, stencils_with_repeated_edges_and_self_loops) {
    for (const int side : {1, 2, 3, 8}) {
        const auto graphs = moore_2d(side);
        const auto patterns = simulate_pair_patterns(graphs, 2);
        EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{}) << side;
    }
}

TEST(PairPattern, same_topology_same_pattern) {
    const auto graphs = erdos_renyi(48, 0.3, 11);
    const auto first = simulate_pair_patterns(graphs, 2), second = simulate_pair_patterns(graphs, 2);
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        ASSERT_EQ(first[r].steps.size(), second[r].steps.size());
        for (std::size_t s = 0; s < first[r].steps.size(); ++s) {
            EXPECT_EQ(first[r].steps[s].friend_rank, second[r].steps[s].friend_rank);
            EXPECT_EQ(first[r].steps[s].onloaded, second[r].steps[s].onloaded);
        }
    }
}

TEST(PairPattern, checker_finds_a_lost_edge) {
    const auto graphs = erdos_renyi(16, 0.4, 5);
    auto patterns = simulate_pair_patterns(graphs, 1);
    ASSERT_FALSE(patterns[3].direct.empty() && patterns[3].steps.empty());
    if (!patterns[3].direct.empty())
        patterns[3].direct.pop_back();
    else
        patterns[3].steps.back().onloaded.clear();
    EXPECT_FALSE(simulate_pattern_check(graphs, patterns).empty());
}
