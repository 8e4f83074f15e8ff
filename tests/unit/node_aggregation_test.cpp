#include "pattern/simulated_phase1.h"
#include "topology/generators.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

using namespace nbrcomb::detail;

namespace {

std::vector<LocalGraph> graphs_of(const std::string& topology, int processes) {
    return nbrcomb::topology::generate(nbrcomb::topology::parse_topology(topology), processes);
}

std::vector<int> nodes_of(int processes, int node_size) {
    std::vector<int> nodes;
    for (int r = 0; r < processes; ++r) nodes.push_back(r / node_size);
    return nodes;
}

// Which repeat of its peer each entry of peers is.
std::vector<int> repeats_of(const std::vector<int>& peers) {
    std::map<int, int> seen;
    std::vector<int> repeats;
    for (const int peer : peers) repeats.push_back(seen[peer]++);
    return repeats;
}

// Follows every out-edge's block through the plans, as the schedules move it, and returns
// problems: each in-edge of each process must get exactly the block of the out-edge MPI pairs
// with it (the o-th edge from s to d meets the o-th edge from s in d's sources).
std::vector<std::string> trace_blocks(const std::vector<LocalGraph>& graphs, const std::vector<int>& nodes,
                                      const std::vector<AggregationPattern>& plans) {
    std::vector<std::string> problems;
    std::map<std::pair<int, int>, int> arrivals;  // (process, in-edge) -> blocks that reached it
    const auto arrive = [&](int d, int in_edge) { ++arrivals[{d, in_edge}]; };
    // The in-edge of d that the o-th edge from s meets.
    const auto in_edge_of = [&](int s, int d, int o) {
        const LocalGraph& graph = graphs[static_cast<std::size_t>(d)];
        for (std::size_t j = 0, seen = 0; j < graph.sources.size(); ++j)
            if (graph.sources[j] == s && static_cast<int>(seen++) == o) return static_cast<int>(j);
        return -1;
    };
    for (std::size_t s = 0; s < graphs.size(); ++s) {
        const LocalGraph& graph = graphs[s];
        const AggregationPattern& plan = plans[s];
        const std::vector<int> repeats = repeats_of(graph.destinations);
        for (std::size_t e = 0; e < graph.destinations.size(); ++e) {
            const int d = graph.destinations[e];
            const int j = in_edge_of(static_cast<int>(s), d, repeats[e]);
            const std::string edge =
                std::to_string(s) + "->" + std::to_string(d) + " (out-edge " + std::to_string(e) + ")";
            if (nodes[s] == nodes[static_cast<std::size_t>(d)]) {
                const auto& local_in = plans[static_cast<std::size_t>(d)].local_in;
                const bool listed = std::ranges::count(plan.local_out, static_cast<int>(e)) == 1;
                const bool met = static_cast<int>(s) == d || std::ranges::count(local_in, j) == 1;
                if (!listed || !met) problems.push_back("local edge " + edge + " not direct on both ends");
                arrive(d, j);
                continue;
            }
            // The agent that sends it off the node, and the place of the block there.
            int agent = static_cast<int>(s), slot = -1, index = static_cast<int>(e);
            for (const Handoff& handoff : plan.handoffs) {
                const auto at = std::ranges::find(handoff.out_edges, static_cast<int>(e));
                if (at == handoff.out_edges.end()) continue;
                agent = handoff.agent;
                index = static_cast<int>(at - handoff.out_edges.begin());
                const auto& in = plans[static_cast<std::size_t>(agent)].handoffs_in;
                const auto from = std::ranges::find(in, static_cast<int>(s), &HandoffIn::source);
                if (from == in.end() || from->edges != static_cast<int>(handoff.out_edges.size()))
                    problems.push_back("packet of " + edge + " unknown to agent " + std::to_string(agent));
                else
                    slot = static_cast<int>(from - in.begin());
            }
            const AggregationPattern& sender = plans[static_cast<std::size_t>(agent)];
            int peer = -1, position = -1;
            for (const Outbound& outbound : sender.outbound)
                for (std::size_t k = 0; k < outbound.edges.size(); ++k) {
                    const OutboundEdge& entry = outbound.edges[k];
                    if (entry.source == static_cast<int>(s) && entry.slot == slot && entry.index == index) {
                        if (peer >= 0) problems.push_back(edge + " sent twice");
                        peer = outbound.peer;
                        position = static_cast<int>(k);
                    }
                }
            if (peer < 0 || nodes[static_cast<std::size_t>(peer)] != nodes[static_cast<std::size_t>(d)]) {
                problems.push_back(edge + " not sent to its node");
                continue;
            }
            const auto& inbound = plans[static_cast<std::size_t>(peer)].inbound;
            const auto message = std::ranges::find(inbound, agent, &Inbound::peer);
            if (message == inbound.end() || message->edges.size() <= static_cast<std::size_t>(position)) {
                problems.push_back(edge + " not expected by " + std::to_string(peer));
                continue;
            }
            const InboundEdge& got = message->edges[static_cast<std::size_t>(position)];
            if (got.source != static_cast<int>(s) || got.destination != d || got.in_edge != j) {
                problems.push_back(edge + " taken for another edge by " + std::to_string(peer));
                continue;
            }
            if (peer == d) {
                arrive(d, j);
                continue;
            }
            // The delivery from peer to d holds the edges for d in peer's inbound order.
            std::size_t place = 0;
            bool before = true;
            for (const Inbound& in : inbound)
                for (const InboundEdge& entry : in.edges) {
                    before = before && &entry != &got;
                    place += before && entry.destination == d ? 1 : 0;
                }
            const auto& delivered = plans[static_cast<std::size_t>(d)].delivered;
            const auto from = std::ranges::find(delivered, peer, &IncomingMessage::from);
            if (from == delivered.end() || from->in_edges.size() <= place || from->in_edges[place] != j)
                problems.push_back(edge + " delivered to the wrong in-edge");
            else
                arrive(d, j);
        }
    }
    for (std::size_t d = 0; d < graphs.size(); ++d)
        for (std::size_t j = 0; j < graphs[d].sources.size(); ++j)
            if (arrivals[{static_cast<int>(d), static_cast<int>(j)}] != 1)
                problems.push_back("in-edge " + std::to_string(j) + " of " + std::to_string(d) + " got " +
                                   std::to_string(arrivals[{static_cast<int>(d), static_cast<int>(j)}]) + " blocks");
    return problems;
}

// Messages between nodes per call in all, and the ordered node pairs with an edge.
std::pair<std::size_t, std::size_t> internode_messages(const std::vector<LocalGraph>& graphs,
                                                       const std::vector<int>& nodes,
                                                       const std::vector<AggregationPattern>& plans) {
    std::size_t messages = 0;
    std::set<std::pair<int, int>> pairs;
    for (std::size_t s = 0; s < graphs.size(); ++s) {
        messages += plans[s].outbound.size();
        for (const int d : graphs[s].destinations)
            if (nodes[s] != nodes[static_cast<std::size_t>(d)])
                pairs.emplace(nodes[s], nodes[static_cast<std::size_t>(d)]);
    }
    return {messages, pairs.size()};
}

}  // namespace

TEST(NodeAggregation, every_block_reaches_its_in_edge_once) {
    for (const std::string topology : {"moore:2:1", "moore:2:2", "moore:3:1", "vonneumann:2:2", "er:0.3:1", "er:1.0"})
        for (const int processes : {1, 2, 5, 16, 27, 64})
            for (const int node_size : {1, 2, 3, 4, 8, 64}) {
                const auto graphs = graphs_of(topology, processes);
                const auto nodes = nodes_of(processes, node_size);
                const auto plans = simulate_aggregation(graphs, nodes);
                EXPECT_EQ(trace_blocks(graphs, nodes, plans), std::vector<std::string>{})
                    << topology << " on " << processes << " processes, nodes of " << node_size;
                const auto [messages, pairs] = internode_messages(graphs, nodes, plans);
                EXPECT_EQ(messages, pairs) << topology << " on " << processes << ", nodes of " << node_size;
            }
}

TEST(NodeAggregation, nodes_need_not_be_contiguous) {
    const auto graphs = graphs_of("er:0.4:7", 24);
    std::vector<int> nodes;
    for (int r = 0; r < 24; ++r) nodes.push_back(r % 5 == 0 ? 9 : r % 3);  // interleaved, one node named 9
    const auto plans = simulate_aggregation(graphs, nodes);
    EXPECT_EQ(trace_blocks(graphs, nodes, plans), std::vector<std::string>{});
}

// Remote nodes by falling edge count go to the process with the fewest agencies, then the
// fewest edges carried, then the most edges of its own to the node.
TEST(NodeAggregation, agents_balance_agencies_then_edges_then_own_edges) {
    // Node 0 (5 edges) goes to process 1, whose own they are; node 2 (3) to process 0, which has
    // no agency yet; node 1 (1) to process 0 too: both have one agency, and 0 carries 3 edges
    // against 1's 5.
    const std::vector<std::vector<int>> edges{{0, 1, 3}, {5, 0, 0}};
    EXPECT_EQ(assign_agents(edges, 3), (std::vector<int>{1, 0, 0}));
    // One process: every node is its.
    EXPECT_EQ(assign_agents({{1, 2}}, 2), (std::vector<int>{0, 0}));
    // Four processes, four nodes of equal weight: one each, each to the process with own edges.
    const std::vector<std::vector<int>> own{{0, 0, 0, 2}, {0, 0, 2, 0}, {0, 2, 0, 0}, {2, 0, 0, 0}};
    EXPECT_EQ(assign_agents(own, 4), (std::vector<int>{3, 2, 1, 0}));
}
