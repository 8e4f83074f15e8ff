#include "schedule/aggregated_schedule.h"

#include "schedule/shared_steps.h"

#include <algorithm>
#include <map>

namespace nbrcomb::detail {

namespace {

// s: our packets to agents, and the agents' packets to us in slots 0 .. handoffs_in - 1.
void add_handoffs(const AggregationPattern& pattern, const CallBlocks& call, Schedule& schedule, Round& round) {
    for (const Handoff& handoff : pattern.handoffs) {
        RelayOp packet{{}, handoff.agent, MessageKind::friend_exchange, true};
        if (call.same_send_block)
            packet.pieces.push_back(block_at(call.send, handoff.out_edges.front()));
        else
            for (const int edge : handoff.out_edges) packet.pieces.push_back(block_at(call.send, edge));
        round.ops.emplace_back(std::move(packet));
    }
    for (const HandoffIn& handoff : pattern.handoffs_in)
        round.ops.emplace_back(ProbeRecvOp{handoff.source, schedule.slots++});
}

// How many pieces a message between nodes holds: one per edge, or for allgather one per source
// (the edges come sorted by source).
int pieces_of(const std::vector<InboundEdge>& edges, bool same_send_block) {
    if (!same_send_block) return static_cast<int>(edges.size());
    int pieces = 0;
    for (std::size_t k = 0; k < edges.size(); ++k) pieces += k == 0 || edges[k].source != edges[k - 1].source ? 1 : 0;
    return pieces;
}

// g: our messages to the agents of remote nodes, and theirs to us into slots after the packets'.
void add_internode(const AggregationPattern& pattern, const CallBlocks& call, Schedule& schedule, Round& round) {
    for (const Outbound& outbound : pattern.outbound) {
        RelayOp message{{}, outbound.peer, MessageKind::friend_exchange, true};
        for (std::size_t k = 0; k < outbound.edges.size(); ++k) {
            const OutboundEdge& edge = outbound.edges[k];
            if (call.same_send_block && k > 0 && outbound.edges[k - 1].source == edge.source) continue;
            if (edge.slot < 0) {
                message.pieces.push_back(block_at(call.send, edge.index));
                continue;
            }
            const HandoffIn& packet = pattern.handoffs_in[static_cast<std::size_t>(edge.slot)];
            message.pieces.push_back(call.same_send_block ? SlotPart{edge.slot, 0, 1}
                                                          : SlotPart{edge.slot, edge.index, packet.edges});
        }
        round.ops.emplace_back(std::move(message));
    }
    for (const Inbound& inbound : pattern.inbound) round.ops.emplace_back(ProbeRecvOp{inbound.peer, schedule.slots++});
}

// r at the agent: the blocks of the messages between nodes to their processes, in message
// order; ours copied into place.
void add_deliveries(const LocalGraph& graph, const AggregationPattern& pattern, const CallBlocks& call, Round& round) {
    std::map<int, RelayOp> deliveries;  // by destination
    int slot = static_cast<int>(pattern.handoffs_in.size());
    for (const Inbound& inbound : pattern.inbound) {
        const int parts = pieces_of(inbound.edges, call.same_send_block);
        int piece = -1;
        for (std::size_t k = 0; k < inbound.edges.size(); ++k) {
            const InboundEdge& edge = inbound.edges[k];
            if (!call.same_send_block || k == 0 || inbound.edges[k - 1].source != edge.source) ++piece;
            const SlotPart part{slot, piece, parts};
            if (edge.destination != graph.rank) {
                deliveries.try_emplace(edge.destination, RelayOp{{}, edge.destination, MessageKind::combined, false})
                    .first->second.pieces.push_back(part);
                continue;
            }
            const Block target = block_at(call.recv, edge.in_edge);
            if (target.bytes > 0) round.ops.emplace_back(SlotCopyOp{part, target});
        }
        ++slot;
    }
    for (auto& [destination, delivery] : deliveries) round.ops.emplace_back(std::move(delivery));
}

// The edges of a list between nodes, which agents relay: those to other processes not in local.
std::vector<int> between_nodes(const std::vector<int>& peers, int rank, const std::vector<int>& local) {
    std::vector<int> edges = edges_to_others(peers, rank);
    std::erase_if(edges, [&local](int edge) { return std::ranges::find(local, edge) != local.end(); });
    return edges;
}

}  // namespace

Schedule build_aggregated_schedule(const LocalGraph& graph, const AggregationPattern& pattern,
                                   const CallBlocks& given) {
    Schedule schedule;
    Round local, internode, deliver, unpack;
    const RelayedBlocks relayed(graph, given, between_nodes(graph.destinations, graph.rank, pattern.local_out),
                                between_nodes(graph.sources, graph.rank, pattern.local_in), local);
    const CallBlocks call = relayed.call();
    add_direct_edges(graph, pattern.local_out, pattern.local_in, call, local);
    add_handoffs(pattern, call, schedule, local);
    add_internode(pattern, call, schedule, internode);
    add_deliveries(graph, pattern, call, deliver);
    for (const IncomingMessage& message : pattern.delivered)
        add_assembled_receive(graph, message, call, schedule, deliver, deliver, unpack);
    for (Round* round : {&local, &internode, &deliver, &unpack})
        if (!round->ops.empty()) schedule.rounds.push_back(std::move(*round));
    return schedule;
}

}  // namespace nbrcomb::detail
