#include "schedule/grid_schedule.h"

#include "schedule/shared_steps.h"

namespace nbrcomb::detail {

namespace {

// Whether a message leaves out its index-th edge's block: in a sized allgather message every
// source's block goes once (the edges come sorted by source).
bool repeats_source(const std::vector<RoutedEdge>& edges, std::size_t index, bool sized, bool same_send_block) {
    return sized && same_send_block && index > 0 && edges[index - 1].source == edges[index].source;
}

// The parts of a sized message as the sender assembles them: per edge the part holding its
// block, and how many parts there are.
struct Parts {
    std::vector<int> of_edge;
    int count = 0;
};

Parts parts_of(const std::vector<RoutedEdge>& edges, bool same_send_block) {
    Parts parts;
    for (std::size_t k = 0; k < edges.size(); ++k) {
        if (!repeats_source(edges, k, true, same_send_block)) ++parts.count;
        parts.of_edge.push_back(parts.count - 1);
    }
    return parts;
}

}  // namespace

Schedule build_grid_schedule(const LocalGraph& graph, const GridPattern& pattern, const CallBlocks& given) {
    Schedule schedule;
    schedule.slots = pattern.slots;
    std::vector<Round> rounds(pattern.rounds.size() + 1);
    const RelayedBlocks relayed(graph, given, edges_to_others(graph.destinations, graph.rank),
                                edges_to_others(graph.sources, graph.rank), rounds.front());
    const CallBlocks call = relayed.call();
    add_direct_edges(graph, pattern.self_loops, {}, call, rounds.front());
    std::vector<Parts> slots(static_cast<std::size_t>(pattern.slots));
    for (std::size_t r = 0; r < pattern.rounds.size(); ++r) {
        Round& round = rounds[r];
        for (const GridSend& send : pattern.rounds[r].sends) {
            RelayOp message{{}, send.peer, send.sized ? MessageKind::friend_exchange : MessageKind::combined, send.sized};
            for (std::size_t k = 0; k < send.edges.size(); ++k) {
                if (repeats_source(send.edges, k, send.sized, call.same_send_block)) continue;
                const BlockOrigin& origin = send.origins[k];
                if (origin.slot < 0) {
                    message.pieces.push_back(block_at(call.send, origin.index));
                    continue;
                }
                const Parts& parts = slots[static_cast<std::size_t>(origin.slot)];
                message.pieces.push_back(
                    SlotPart{origin.slot, parts.of_edge[static_cast<std::size_t>(origin.index)], parts.count});
            }
            round.ops.emplace_back(std::move(message));
        }
        for (const GridReceive& receive : pattern.rounds[r].receives) {
            if (receive.slot < 0) {
                add_assembled_receive(graph, {receive.peer, receive.in_edges}, call, schedule, round, round,
                                      rounds[r + 1]);
                continue;
            }
            round.ops.emplace_back(ProbeRecvOp{receive.peer, receive.slot});
            const Parts& parts = slots[static_cast<std::size_t>(receive.slot)] =
                parts_of(receive.edges, call.same_send_block);
            for (std::size_t k = 0; k < receive.edges.size(); ++k) {
                if (receive.in_edges[k] < 0) continue;
                const Block target = block_at(call.recv, receive.in_edges[k]);
                if (target.bytes > 0)
                    rounds[r + 1].ops.emplace_back(SlotCopyOp{{receive.slot, parts.of_edge[k], parts.count}, target});
            }
        }
    }
    for (Round& round : rounds)
        if (!round.ops.empty()) schedule.rounds.push_back(std::move(round));
    return schedule;
}

}  // namespace nbrcomb::detail
