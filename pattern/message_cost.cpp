#include "pattern/message_cost.h"

#include <set>

namespace nbrcomb::detail {

namespace {

// Adds one process's messages round by round, each by its peer's node.
class Tally {
public:
    Tally(const LocalGraph& graph, const std::vector<int>& node_of)
        : node_of_(node_of), node_(node_of[static_cast<std::size_t>(graph.rank)]) {}

    void send(int round, int peer) { add(round, peer, overheads_.send_local, overheads_.send_remote); }
    void receive(int round, int peer) { add(round, peer, overheads_.receive_local, overheads_.receive_remote); }
    void receive_probed(int round, int peer) {
        receive(round, peer);
        costs_.overhead[static_cast<std::size_t>(round)] += overheads_.probe;
    }
    const RoundCosts& costs() const { return costs_; }

private:
    void add(int round, int peer, double local, double remote) {
        const auto r = static_cast<std::size_t>(round);
        const bool crosses = node_of_[static_cast<std::size_t>(peer)] != node_;
        costs_.overhead[r] += crosses ? remote : local;
        if (crosses) costs_.remote[r] = 1;
    }

    const std::vector<int>& node_of_;
    int node_;
    MessageOverheads overheads_;
    RoundCosts costs_;
};

}  // namespace

RoundCosts round_costs(const LocalGraph& graph, const Pattern& pattern, const std::vector<int>& node_of) {
    Tally tally(graph, node_of);
    for (const int edge : pattern.direct)
        if (const int peer = graph.destinations[static_cast<std::size_t>(edge)]; peer != graph.rank) tally.send(0, peer);
    for (const IncomingMessage& message : pattern.incoming) tally.receive(message.in_edges.size() == 1 ? 0 : 1, message.from);
    for (const GroupStep& step : pattern.steps) {
        for (std::size_t i = 0; i < step.members.size(); ++i) {
            if (step.sends_packet(i)) tally.send(0, step.members[i]);
            if (step.receives_packet(i)) tally.receive_probed(0, step.members[i]);
        }
        for (const int edge : step.onloaded()) tally.send(1, graph.destinations[static_cast<std::size_t>(edge)]);
    }
    return tally.costs();
}

RoundCosts round_costs(const LocalGraph& graph, const AggregationPattern& pattern, const std::vector<int>& node_of) {
    Tally tally(graph, node_of);
    for (const int edge : pattern.local_out)
        if (const int peer = graph.destinations[static_cast<std::size_t>(edge)]; peer != graph.rank) tally.send(0, peer);
    for (const int edge : pattern.local_in) tally.receive(0, graph.sources[static_cast<std::size_t>(edge)]);
    for (const Handoff& handoff : pattern.handoffs) tally.send(0, handoff.agent);
    for (const HandoffIn& handoff : pattern.handoffs_in) tally.receive_probed(0, handoff.source);
    for (const Outbound& outbound : pattern.outbound) tally.send(1, outbound.peer);
    std::set<int> delivered_to;
    for (const Inbound& inbound : pattern.inbound) {
        tally.receive_probed(1, inbound.peer);
        for (const InboundEdge& edge : inbound.edges)
            if (edge.destination != graph.rank) delivered_to.insert(edge.destination);
    }
    for (const int destination : delivered_to) tally.send(2, destination);
    for (const IncomingMessage& message : pattern.delivered) tally.receive(2, message.from);
    return tally.costs();
}

RoundCosts round_costs(const LocalGraph& graph, const GridPattern& pattern, const std::vector<int>& node_of) {
    Tally tally(graph, node_of);
    for (std::size_t r = 0; r < pattern.rounds.size(); ++r) {
        const int round = static_cast<int>(r);
        for (const GridSend& send : pattern.rounds[r].sends) tally.send(round, send.peer);
        for (const GridReceive& receive : pattern.rounds[r].receives) {
            if (receive.slot < 0)
                tally.receive(round, receive.peer);
            else
                tally.receive_probed(round, receive.peer);
        }
    }
    return tally.costs();
}

double estimated_time(const RoundCosts& busiest, const MessageOverheads& overheads) {
    double time = 0;
    for (std::size_t r = 0; r < RoundCosts::rounds; ++r)
        if (busiest.overhead[r] > 0)
            time += busiest.overhead[r] + (busiest.remote[r] > 0 ? overheads.wire_remote : overheads.wire_local);
    return time;
}

}  // namespace nbrcomb::detail
