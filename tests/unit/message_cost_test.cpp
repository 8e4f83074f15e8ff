#include "pattern/message_cost.h"
#include "pattern/simulated_phase1.h"
#include "topology/generators.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <string>

using namespace nbrcomb::detail;

namespace {

// The estimate of a whole topology on nodes of 16 processes: direct, pairs, aggregation.
struct Estimates {
    double direct, pairs, aggregation;
};

Estimates estimate(const std::string& topology, int processes, std::size_t block_bytes = 0) {
    const auto graphs = nbrcomb::topology::generate(nbrcomb::topology::parse_topology(topology), processes);
    std::vector<int> nodes;
    for (int r = 0; r < processes; ++r) nodes.push_back(r / 16);
    const auto pairs = simulate_patterns(graphs, {});
    const auto aggregation = simulate_aggregation(graphs, nodes);
    RoundCosts busiest[3];
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        add_process(busiest[0], round_costs(graphs[r], direct_pattern(graphs[r]), nodes, true));
        add_process(busiest[1], round_costs(graphs[r], pairs[r], nodes, true));
        add_process(busiest[2], round_costs(graphs[r], aggregation[r], nodes, true));
    }
    for (RoundCosts& costs : busiest) per_node(costs, node_count(nodes));
    return {estimated_time(busiest[0], block_bytes), estimated_time(busiest[1], block_bytes),
            estimated_time(busiest[2], block_bytes)};
}

}  // namespace

// The two ends of the simulated cluster's results at 256 processes (bench/results/RESULTS.md): on
// Moore (2,1) a node exchanges with two others only, so two agents relay all of its blocks and
// aggregation takes twice direct's time while pairs save some; on a random graph of density 0.2
// every node exchanges with all others and aggregation takes a third of direct's time.
TEST(MessageCost, picks_the_candidate_the_simulated_cluster_found_faster) {
    const Estimates moore = estimate("moore:2:1", 256);
    EXPECT_LT(moore.pairs, moore.direct);
    EXPECT_GT(moore.aggregation, moore.direct);
    const Estimates random = estimate("er:0.2", 256);
    EXPECT_LT(random.aggregation, random.pairs);
    EXPECT_LT(random.pairs, random.direct);
}

// With 1 KiB blocks on Moore (2,2) at 256 processes the simulated cluster measures aggregation at
// 0.37 of direct: its agents carry many processes' blocks, but the node's one network link carries
// no more of them than with one message per edge. Charged per process, as if each agent had a
// sixteenth of the link, it came out at 1.60.
TEST(MessageCost, a_nodes_blocks_share_its_network_link) {
    const Estimates moore = estimate("moore:2:2", 256, 1024);
    EXPECT_LT(moore.aggregation, 0.7 * moore.direct);
}

// A process without edges is off every node (-1): it adds no node to share the blocks among.
TEST(MessageCost, processes_off_every_node_are_no_node) {
    EXPECT_EQ(node_count({0, 0, 1, 1, -1}), 2);
    RoundCosts costs;
    costs.node_blocks[0] = 8;
    per_node(costs, node_count({0, 0, 1, 1, -1}));
    EXPECT_EQ(costs.node_blocks[0], 4);
}

// One process alone: nothing crosses nodes and nothing is sent.
TEST(MessageCost, no_messages_cost_nothing) {
    const LocalGraph alone{0, {0}, {0}};
    EXPECT_EQ(estimated_time(round_costs(alone, direct_pattern(alone), {0}, true)), 0.0);
}

// A reduction carries a plan's first rounds (pack_rounds): they come back whole, the rest empty.
TEST(MessageCost, packed_rounds_come_back_as_they_were) {
    RoundCosts costs;
    for (std::size_t r = 0; r < 3; ++r) {
        costs.overhead[r] = 1.5 + static_cast<double>(r);
        costs.remote[r] = 1;
        costs.local_blocks[r] = 2.0 * static_cast<double>(r);
        costs.remote_blocks[r] = 7;
        costs.node_blocks[r] = 11.0 + static_cast<double>(r);
    }
    std::vector<double> packed(packed_fields * 3);
    pack_rounds(costs, 3, packed.data());
    const RoundCosts back = unpack_rounds(packed.data(), 3);
    EXPECT_EQ(back.overhead, costs.overhead);
    EXPECT_EQ(back.remote, costs.remote);
    EXPECT_EQ(back.local_blocks, costs.local_blocks);
    EXPECT_EQ(back.remote_blocks, costs.remote_blocks);
    EXPECT_EQ(back.node_blocks, costs.node_blocks);
    EXPECT_EQ(estimated_time(back, 1024), estimated_time(costs, 1024));
}
