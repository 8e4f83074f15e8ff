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

// Phase 1 is deterministic: the same topology gives the same pattern.
void expect_same_patterns(const std::vector<LocalGraph>& graphs, const PatternSettings& settings) {
    const auto first = simulate_patterns(graphs, settings), second = simulate_patterns(graphs, settings);
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        ASSERT_EQ(first[r].steps.size(), second[r].steps.size());
        for (std::size_t s = 0; s < first[r].steps.size(); ++s) {
            EXPECT_EQ(first[r].steps[s].members, second[r].steps[s].members);
            EXPECT_EQ(first[r].steps[s].parts, second[r].steps[s].parts);
        }
    }
}

}  // namespace

TEST(PairPattern, random_graphs_deliver_every_edge_once) {
    for (const double density : {0.05, 0.2, 0.5})
        for (const int theta : {1, 2, 4}) {
            const auto graphs = erdos_renyi(64, density, 7);
            const auto patterns = simulate_patterns(graphs, {.theta = theta});
            EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{}) << density << " " << theta;
            EXPECT_LE(message_ratio(graphs, patterns), 1.0);
        }
}

TEST(PairPattern, dense_graph_combines) {
    const auto graphs = erdos_renyi(64, 0.5, 3);
    const auto patterns = simulate_patterns(graphs, {.theta = 4});
    EXPECT_LT(message_ratio(graphs, patterns), 0.8);
    EXPECT_FALSE(patterns[0].steps.empty());
}

TEST(PairPattern, stencils_with_repeated_edges_and_self_loops) {
    for (const int side : {1, 2, 3, 8}) {
        const auto graphs = moore_2d(side);
        const auto patterns = simulate_patterns(graphs, {.theta = 2});
        EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{}) << side;
    }
}

TEST(PairPattern, same_topology_same_pattern) { expect_same_patterns(erdos_renyi(48, 0.3, 11), {.theta = 2}); }

TEST(PairPattern, checker_finds_a_lost_edge) {
    const auto graphs = erdos_renyi(16, 0.4, 5);
    auto patterns = simulate_patterns(graphs, {.theta = 1});
    ASSERT_FALSE(patterns[3].direct.empty() && patterns[3].steps.empty());
    if (!patterns[3].direct.empty())
        patterns[3].direct.pop_back();
    else
        patterns[3].steps.back().parts[patterns[3].steps.back().self].clear();
    EXPECT_FALSE(simulate_pattern_check(graphs, patterns).empty());
}

namespace {

PatternSettings groups_of(int k, int theta = 4) { return {.theta = theta, .grouping = Grouping::hypergraph, .k = k}; }

std::shared_ptr<const std::vector<int>> nodes_of(int processes, int node_size) {
    auto nodes = std::make_shared<std::vector<int>>(static_cast<std::size_t>(processes));
    for (int r = 0; r < processes; ++r) (*nodes)[static_cast<std::size_t>(r)] = r / node_size;
    return nodes;
}

std::size_t largest_group(const std::vector<Pattern>& patterns) {
    std::size_t largest = 0;
    for (const Pattern& pattern : patterns)
        for (const GroupStep& step : pattern.steps) largest = std::max(largest, step.members.size());
    return largest;
}

}  // namespace

TEST(GroupPattern, random_graphs_deliver_every_edge_once) {
    for (const double density : {0.1, 0.4, 0.8})
        for (const int k : {2, 3, 4, 5, 6})
            for (const int theta : {1, 4}) {
                const auto graphs = erdos_renyi(48, density, 13);
                const auto patterns = simulate_patterns(graphs, groups_of(k, theta));
                EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{})
                    << density << " k=" << k << " theta=" << theta;
                EXPECT_LE(message_ratio(graphs, patterns), 1.0);
                EXPECT_LE(largest_group(patterns), static_cast<std::size_t>(k));
            }
}

TEST(GroupPattern, groups_of_k_form_on_dense_graphs) {
    const auto graphs = erdos_renyi(64, 0.9, 3);
    for (const int k : {3, 4, 6}) {
        const auto patterns = simulate_patterns(graphs, groups_of(k));
        EXPECT_EQ(largest_group(patterns), static_cast<std::size_t>(k));
        EXPECT_LT(message_ratio(graphs, patterns), 0.8) << "k=" << k;
    }
}

// Paper 002: k = 2 has the pairs mode's pattern quality (the two matchings break ties apart,
// so the patterns differ a little).
TEST(GroupPattern, pairs_of_the_hypergraph_match_the_pair_mode) {
    for (const double density : {0.1, 0.3, 0.6}) {
        const auto graphs = erdos_renyi(128, density, 21);
        const double pairs = message_ratio(graphs, simulate_patterns(graphs, {}));
        const double groups = message_ratio(graphs, simulate_patterns(graphs, groups_of(2)));
        EXPECT_NEAR(groups, pairs, 0.01) << density;
    }
    const auto moore = moore_2d(16);
    EXPECT_LE(message_ratio(moore, simulate_patterns(moore, groups_of(2, 2))),
              message_ratio(moore, simulate_patterns(moore, {.theta = 2})) + 0.01);
}

// A group of k saves messages only with more than k common neighbors; smaller ones never form.
TEST(GroupPattern, groups_need_more_common_neighbors_than_members) {
    const auto graphs = erdos_renyi(40, 0.5, 8);
    const auto patterns = simulate_patterns(graphs, groups_of(4, 1));
    for (const Pattern& pattern : patterns)
        for (const GroupStep& step : pattern.steps) {
            std::size_t common = 0;
            for (const auto& part : step.parts) common += part.size();
            EXPECT_GT(common, step.members.size());
        }
}

TEST(GroupPattern, topology_aware_groups_stay_on_their_node) {
    const auto graphs = erdos_renyi(64, 0.6, 17);
    for (const int node_size : {2, 4, 8})
        for (const int k : {2, 3, 4}) {
            if (k > node_size) continue;
            PatternSettings settings = groups_of(k, 1);
            settings.domains = nodes_of(64, node_size);
            const auto patterns = simulate_patterns(graphs, settings);
            EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{});
            EXPECT_LT(message_ratio(graphs, patterns), 1.0) << node_size << " k=" << k;
            for (const Pattern& pattern : patterns)
                for (const GroupStep& step : pattern.steps)
                    for (const int member : step.members)
                        EXPECT_EQ(member / node_size, step.members.front() / node_size);
        }
    PatternSettings pairs{.theta = 1};
    pairs.domains = nodes_of(64, 4);
    for (const Pattern& pattern : simulate_patterns(graphs, pairs))
        for (const GroupStep& step : pattern.steps) EXPECT_EQ(step.members[0] / 4, step.members[1] / 4);
}

// The cap keeps Phase 1 bounded on a dense graph with many candidate groups, and the pattern
// stays sound.
TEST(GroupPattern, the_cap_bounds_the_candidates) {
    const auto graphs = erdos_renyi(64, 0.9, 5);
    PatternSettings settings = groups_of(5);
    settings.max_hyperedges = 8;
    const auto patterns = simulate_patterns(graphs, settings);
    EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{});
    unsigned long long dropped = 0;
    for (const Pattern& pattern : patterns) {
        EXPECT_LE(pattern.cost.hyperedges, 8u);
        dropped += pattern.cost.hyperedges_dropped;
    }
    EXPECT_GT(dropped, 0u);
    EXPECT_LT(message_ratio(graphs, patterns), 1.0) << "groups one member found reach the others";
}

TEST(GroupPattern, same_topology_same_pattern) {
    expect_same_patterns(erdos_renyi(48, 0.7, 11), {.grouping = Grouping::hypergraph, .k = 3});
}

TEST(GroupPattern, checker_finds_a_member_that_disagrees) {
    const auto graphs = erdos_renyi(32, 0.9, 2);
    auto patterns = simulate_patterns(graphs, groups_of(3));
    auto with_group = std::find_if(patterns.begin(), patterns.end(), [](const Pattern& p) { return !p.steps.empty(); });
    ASSERT_NE(with_group, patterns.end());
    GroupStep& step = with_group->steps.front();
    const std::size_t other = step.self == 0 ? 1 : 0;
    ASSERT_FALSE(step.parts[other].empty());
    step.parts[step.self].push_back(step.parts[other].back());  // carry an edge another member carries too
    step.parts[other].pop_back();
    EXPECT_FALSE(simulate_pattern_check(graphs, patterns).empty());
}

// Sixteen members on a dense graph: C(F, 15) combinations are out of reach, the beam is not.
TEST(GroupPattern, groups_of_16_on_a_dense_graph) {
    const auto graphs = erdos_renyi(96, 0.9, 4);
    const auto patterns = simulate_patterns(graphs, groups_of(16));
    EXPECT_EQ(simulate_pattern_check(graphs, patterns), std::vector<std::string>{});
    EXPECT_EQ(largest_group(patterns), 16u);
    EXPECT_LT(message_ratio(graphs, patterns), 1.0);
}
