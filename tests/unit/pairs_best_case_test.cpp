#include "pattern/pairs_best_case.h"
#include "pattern/simulated_phase1.h"
#include "topology/generators.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <string>

using namespace nbrcomb::detail;

namespace {

// Pairs' estimate and its best case over a whole topology on nodes of node_size processes,
// folded as Phase 1 folds them: allgather's blocks ([0]) and alltoall's ([1]).
struct Folded {
    RoundCosts pairs[2], best_case[2];
};

Folded fold(const std::vector<LocalGraph>& graphs, int node_size, int theta) {
    std::vector<int> nodes;
    for (std::size_t r = 0; r < graphs.size(); ++r) nodes.push_back(static_cast<int>(r) / node_size);
    const auto patterns = simulate_patterns(graphs, {.theta = theta});
    Folded folded;
    for (std::size_t r = 0; r < graphs.size(); ++r)
        for (const int kind : {0, 1}) {
            add_process(folded.pairs[kind], round_costs(graphs[r], patterns[r], nodes, kind == 0));
            add_process(folded.best_case[kind], pairs_best_case(graphs[r], nodes, theta, kind == 0));
        }
    for (const int kind : {0, 1}) {
        per_node(folded.pairs[kind], node_count(nodes));
        per_node(folded.best_case[kind], node_count(nodes));
    }
    return folded;
}

void expect_below_pairs(const std::string& topology, int processes, int node_size, int theta) {
    const auto graphs = nbrcomb::topology::generate(nbrcomb::topology::parse_topology(topology), processes);
    const Folded folded = fold(graphs, node_size, theta);
    for (const int kind : {0, 1})
        for (const std::size_t bytes : {0, 4, 1024, 65536}) {
            const double pairs = estimated_time(folded.pairs[kind], bytes);
            const double best = estimated_time(folded.best_case[kind], bytes);
            EXPECT_LE(best, pairs) << topology << " on " << processes << " processes, nodes of " << node_size
                                   << ", theta " << theta << (kind == 0 ? ", allgather" : ", alltoall") << ", "
                                   << bytes << " B";
            EXPECT_GT(best, 0.0);
        }
}

}  // namespace

// Whatever the matching finds, pairs' estimate is never below its best case: on stencils, random
// graphs of every density, dense and sparse nodes, and thetas that make friends of nearly anyone.
TEST(PairsBestCase, never_above_the_pattern_the_matching_finds) {
    for (const char* topology : {"moore:2:1", "moore:2:2", "moore:3:1", "er:0.05", "er:0.3", "er:0.8"})
        for (const int node_size : {1, 4, 16})
            for (const int theta : {1, 2, 4}) expect_below_pairs(topology, 128, node_size, theta);
}

// Repeated edges and self-loops (a radius-2 stencil on grids of side 3 and 4) stay direct
// messages, or cost none.
TEST(PairsBestCase, repeated_edges_and_self_loops) {
    for (const int processes : {9, 16})
        for (const int theta : {1, 4}) expect_below_pairs("moore:2:2", processes, 4, theta);
}

// A process with fewer out-neighbors than theta pairs with nobody: its sends are direct's, and only
// its in-neighbors may combine what they send it.
TEST(PairsBestCase, too_few_out_neighbors_to_pair) {
    const LocalGraph graph{0, {1, 2, 3}, {1, 2, 3}};
    const std::vector<int> nodes{0, 1, 1, 1};
    const MessageOverheads overheads;
    const RoundCosts costs = pairs_best_case(graph, nodes, 4, false);
    EXPECT_DOUBLE_EQ(costs.overhead[0], 3 * overheads.send_remote + 2 * overheads.receive_remote);
    EXPECT_EQ(costs.node_blocks[0], 3);
    EXPECT_EQ(pairs_best_case(graph, nodes, 4, true).node_blocks[0], 1) << "allgather's block reaches node 1 once";
}
