#include "pattern/message_cost.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace nbrcomb::detail {

namespace {

// Adds one process's messages round by round, each by its peer's node.
class Tally {
public:
    Tally(const LocalGraph& graph, const std::vector<int>& node_of)
        : node_of_(node_of), node_(node_of[static_cast<std::size_t>(graph.rank)]) {}

    // A message of blocks blocks.
    void send(int round, int peer, std::size_t blocks = 1) {
        if (add(round, peer, blocks, overheads_.send_local, overheads_.send_remote))
            costs_.node_blocks[static_cast<std::size_t>(round)] += static_cast<double>(blocks);
    }
    void receive(int round, int peer, std::size_t blocks = 1) {
        add(round, peer, blocks, overheads_.receive_local, overheads_.receive_remote);
    }
    void receive_probed(int round, int peer, std::size_t blocks) {
        receive(round, peer, blocks);
        costs_.overhead[static_cast<std::size_t>(round)] += overheads_.probe;
    }
    const RoundCosts& costs() const { return costs_; }

private:
    // Whether the message crosses nodes.
    bool add(int round, int peer, std::size_t blocks, double local, double remote) {
        const auto r = static_cast<std::size_t>(round);
        const bool crosses = node_of_[static_cast<std::size_t>(peer)] != node_;
        costs_.overhead[r] += crosses ? remote : local;
        (crosses ? costs_.remote_blocks : costs_.local_blocks)[r] += static_cast<double>(blocks);
        if (crosses) costs_.remote[r] = 1;
        return crosses;
    }

    const std::vector<int>& node_of_;
    int node_;
    MessageOverheads overheads_;
    RoundCosts costs_;
};

// The distinct sources of edges sorted by source: the blocks an allgather message holds.
template <class Edge>
std::size_t sources(const std::vector<Edge>& edges) {
    std::size_t count = 0;
    for (std::size_t k = 0; k < edges.size(); ++k) count += k == 0 || edges[k].source != edges[k - 1].source ? 1 : 0;
    return count;
}

}  // namespace

RoundCosts round_costs(const LocalGraph& graph, const Pattern& pattern, const std::vector<int>& node_of,
                       bool same_send_block) {
    Tally tally(graph, node_of);
    for (const int edge : pattern.direct)
        if (const int peer = graph.destinations[static_cast<std::size_t>(edge)]; peer != graph.rank) tally.send(0, peer);
    for (const IncomingMessage& message : pattern.incoming)
        tally.receive(message.in_edges.size() == 1 ? 0 : 1, message.from, message.in_edges.size());
    for (const GroupStep& step : pattern.steps) {
        for (std::size_t i = 0; i < step.members.size(); ++i) {
            if (step.sends_packet(i))
                tally.send(0, step.members[i], same_send_block ? 1 : step.parts[i].size() + (step.to_member[i] >= 0));
            if (step.receives_packet(i))
                tally.receive_probed(0, step.members[i], step.onloaded().size() + (step.from_member[i] >= 0));
        }
        for (const int edge : step.onloaded())
            tally.send(1, graph.destinations[static_cast<std::size_t>(edge)], step.members.size());
    }
    return tally.costs();
}

RoundCosts round_costs(const LocalGraph& graph, const AggregationPattern& pattern, const std::vector<int>& node_of,
                       bool same_send_block) {
    Tally tally(graph, node_of);
    for (const int edge : pattern.local_out)
        if (const int peer = graph.destinations[static_cast<std::size_t>(edge)]; peer != graph.rank) tally.send(0, peer);
    for (const int edge : pattern.local_in) tally.receive(0, graph.sources[static_cast<std::size_t>(edge)]);
    for (const Handoff& handoff : pattern.handoffs)
        tally.send(0, handoff.agent, same_send_block ? 1 : handoff.out_edges.size());
    for (const HandoffIn& handoff : pattern.handoffs_in)
        tally.receive_probed(0, handoff.source, static_cast<std::size_t>(handoff.edges));
    for (const Outbound& outbound : pattern.outbound)
        tally.send(1, outbound.peer, same_send_block ? sources(outbound.edges) : outbound.edges.size());
    std::map<int, std::size_t> delivered_to;  // blocks by destination
    for (const Inbound& inbound : pattern.inbound) {
        tally.receive_probed(1, inbound.peer, same_send_block ? sources(inbound.edges) : inbound.edges.size());
        for (const InboundEdge& edge : inbound.edges)
            if (edge.destination != graph.rank) ++delivered_to[edge.destination];
    }
    for (const auto& [destination, blocks] : delivered_to) tally.send(2, destination, blocks);
    for (const IncomingMessage& message : pattern.delivered) tally.receive(2, message.from, message.in_edges.size());
    return tally.costs();
}

RoundCosts round_costs(const LocalGraph& graph, const GridPattern& pattern, const std::vector<int>& node_of,
                       bool same_send_block) {
    Tally tally(graph, node_of);
    for (std::size_t r = 0; r < pattern.rounds.size(); ++r) {
        const int round = static_cast<int>(r);
        for (const GridSend& send : pattern.rounds[r].sends)
            tally.send(round, send.peer, send.sized && same_send_block ? sources(send.edges) : send.edges.size());
        for (const GridReceive& receive : pattern.rounds[r].receives) {
            if (receive.slot < 0)
                tally.receive(round, receive.peer, receive.edges.size());
            else
                tally.receive_probed(round, receive.peer,
                                     same_send_block ? sources(receive.edges) : receive.edges.size());
        }
    }
    return tally.costs();
}

RoundCosts global_round_costs(int rank, int size, const std::vector<int>& node_of, bool same_send_block) {
    const LocalGraph self{rank, {}, {}};
    Tally tally(self, node_of);
    const int rounds = global_rounds(size);
    for (int round = 0, distance = 1; round < rounds; distance *= 2, ++round) {
        const auto blocks = static_cast<std::size_t>(same_send_block ? distance : (size + 1) / 2);
        tally.send(round, (rank + distance) % size, blocks);
        tally.receive(round, (rank - distance + size) % size, blocks);
    }
    return tally.costs();
}

int global_rounds(int size) {
    int rounds = 0;
    for (int distance = 1; distance < size && rounds < RoundCosts::rounds; distance *= 2) ++rounds;
    return rounds;
}

void add_process(RoundCosts& busiest, const RoundCosts& process) {
    for (std::size_t r = 0; r < RoundCosts::rounds; ++r) {
        busiest.overhead[r] = std::max(busiest.overhead[r], process.overhead[r]);
        busiest.remote[r] = std::max(busiest.remote[r], process.remote[r]);
        busiest.local_blocks[r] = std::max(busiest.local_blocks[r], process.local_blocks[r]);
        busiest.remote_blocks[r] = std::max(busiest.remote_blocks[r], process.remote_blocks[r]);
        busiest.node_blocks[r] += process.node_blocks[r];
    }
}

namespace {

// RoundCosts' fields in the order of their packing.
constexpr std::array<std::array<double, RoundCosts::rounds> RoundCosts::*, packed_fields> packed_order = {
    &RoundCosts::overhead, &RoundCosts::remote, &RoundCosts::local_blocks, &RoundCosts::remote_blocks,
    &RoundCosts::node_blocks};

}  // namespace

void pack_rounds(const RoundCosts& costs, int rounds, double* packed) {
    for (const auto field : packed_order)
        packed = std::copy_n((costs.*field).begin(), rounds, packed);
}

RoundCosts unpack_rounds(const double* packed, int rounds) {
    RoundCosts costs;
    for (const auto field : packed_order) {
        std::copy_n(packed, rounds, (costs.*field).begin());
        packed += rounds;
    }
    return costs;
}

void per_node(RoundCosts& busiest, int nodes) {
    for (double& blocks : busiest.node_blocks) blocks /= std::max(nodes, 1);
}

int node_count(const std::vector<int>& node_of) {
    std::set<int> nodes;
    for (const int node : node_of)
        if (node >= 0) nodes.insert(node);
    return static_cast<int>(nodes.size());
}

double estimated_time(const RoundCosts& busiest, std::size_t block_bytes, const MessageOverheads& overheads) {
    const auto bytes = static_cast<double>(block_bytes);
    double time = 0;
    for (std::size_t r = 0; r < RoundCosts::rounds; ++r)
        if (busiest.overhead[r] > 0)
            time += busiest.overhead[r] + (busiest.remote[r] > 0 ? overheads.wire_remote : overheads.wire_local) +
                    bytes * (busiest.local_blocks[r] * overheads.byte_local +
                             std::max(busiest.remote_blocks[r] * overheads.byte_remote,
                                      busiest.node_blocks[r] * overheads.byte_link));
    return time;
}

}  // namespace nbrcomb::detail
