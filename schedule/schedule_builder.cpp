#include "schedule/schedule_builder.h"

#include "schedule/shared_steps.h"


namespace nbrcomb::detail {

namespace {

// Blocks above the call's cutoff travel as direct messages; a packet or combined message keeps
// an empty place for them, so that both ends, each knowing the block's size, agree.
bool travels_direct(const Block& block, const CallBlocks& call) { return block.bytes > call.cutoff; }
Block emptied(const Block& block) { return {block.at, 0, block.type, 0}; }

// Our block for out-edge edge as a packet or combined message holds it; a direct message to its
// destination instead if it is above the cutoff.
Block carried(int edge, const LocalGraph& graph, const CallBlocks& call, Round& round) {
    const Block block = block_at(call.send, edge);
    if (!travels_direct(block, call)) return block;
    round.ops.emplace_back(SendOp{block, graph.destinations[static_cast<std::size_t>(edge)], MessageKind::direct});
    return emptied(block);
}

// The packet this process hands members[i]: the blocks it forwards for us, then our block for
// it if our edge to it rides along. allgather sends one block on every edge, so the packet
// holds it once.
RelayOp packet_to(const GroupStep& step, std::size_t i, const LocalGraph& graph, const CallBlocks& call,
                  Round& round) {
    RelayOp packet{{}, step.members[i], MessageKind::friend_exchange, true};
    const std::vector<int>& theirs = step.parts[i];
    if (call.same_send_block) {
        const int first = theirs.empty() ? step.to_member[i] : theirs.front();
        const Block block = block_at(call.send, first);
        packet.pieces.push_back(travels_direct(block, call) ? emptied(block) : block);
        if (travels_direct(block, call)) {
            for (const int edge : theirs) carried(edge, graph, call, round);
            if (step.to_member[i] >= 0) carried(step.to_member[i], graph, call, round);
        }
        return packet;
    }
    for (const int edge : theirs) packet.pieces.push_back(carried(edge, graph, call, round));
    if (step.to_member[i] >= 0) packet.pieces.push_back(carried(step.to_member[i], graph, call, round));
    return packet;
}

// How many blocks the packet from members[i] holds (packet_to on its side).
int packet_parts(const GroupStep& step, std::size_t i, const CallBlocks& call) {
    if (call.same_send_block) return 1;
    return static_cast<int>(step.onloaded().size()) + (step.from_member[i] >= 0 ? 1 : 0);
}

// Alg. 4 lines 4-7: hand each member of a group the blocks it forwards for us, and take from
// each its blocks for the neighbors we carry. slot_of[s][i]: the slot of members[i] in step s.
void add_group_exchanges(const LocalGraph& graph, const Pattern& pattern, const CallBlocks& call, Round& round,
                         int& slots, std::vector<std::vector<int>>& slot_of) {
    for (const GroupStep& step : pattern.steps) {
        std::vector<int>& slot_of_member = slot_of.emplace_back(step.members.size(), -1);
        for (std::size_t i = 0; i < step.members.size(); ++i) {
            if (step.sends_packet(i)) round.ops.emplace_back(packet_to(step, i, graph, call, round));
            if (step.receives_packet(i)) {
                slot_of_member[i] = slots;
                round.ops.emplace_back(ProbeRecvOp{step.members[i], slots++});
            }
        }
    }
}

// The blocks of members' edges to us that rode in their packets go into place once the packets
// are in (into round): the last block of each such packet (the only one for allgather). One
// above the cutoff comes as a direct message instead (into direct).
void add_riding_blocks(const Pattern& pattern, const CallBlocks& call, const std::vector<std::vector<int>>& slot_of,
                       Round& direct, Round& round) {
    for (std::size_t s = 0; s < pattern.steps.size(); ++s) {
        const GroupStep& step = pattern.steps[s];
        for (std::size_t i = 0; i < step.members.size(); ++i) {
            if (step.from_member[i] < 0) continue;
            const Block target = block_at(call.recv, step.from_member[i]);
            if (travels_direct(target, call)) {
                direct.ops.emplace_back(RecvOp{target, step.members[i], MessageKind::direct});
                continue;
            }
            if (target.bytes == 0) continue;
            const int parts = packet_parts(step, i, call);
            round.ops.emplace_back(SlotCopyOp{{slot_of[s][i], call.same_send_block ? 0 : parts - 1, parts}, target});
        }
    }
}

}  // namespace

Schedule build_schedule(const LocalGraph& graph, const Pattern& pattern, const CallBlocks& call) {
    Schedule schedule;
    Round exchange, combine, unpack;
    std::vector<std::vector<int>> slot_of;
    add_group_exchanges(graph, pattern, call, exchange, schedule.slots, slot_of);
    // Alg. 4 lines 25-31: what no group carries goes as native MPI sends it.
    std::vector<int> direct_in;
    for (const IncomingMessage& message : pattern.incoming)
        if (message.in_edges.size() == 1) direct_in.push_back(message.in_edges.front());
    add_direct_edges(graph, pattern.direct, direct_in, call, exchange);

    // Alg. 4 lines 9-14: one combined message per neighbor we carry, our block first.
    for (std::size_t s = 0; s < pattern.steps.size(); ++s) {
        const GroupStep& step = pattern.steps[s];
        const std::vector<int>& onloaded = step.onloaded();
        for (std::size_t k = 0; k < onloaded.size(); ++k) {
            RelayOp forward{{carried(onloaded[k], graph, call, exchange)},
                            graph.destinations[static_cast<std::size_t>(onloaded[k])],
                            MessageKind::combined,
                            false};
            for (std::size_t i = 0; i < step.members.size(); ++i)
                if (i != step.self)
                    forward.pieces.push_back(SlotPart{slot_of[s][i], call.same_send_block ? 0 : static_cast<int>(k),
                                                      packet_parts(step, i, call)});
            combine.ops.emplace_back(std::move(forward));
        }
    }
    add_riding_blocks(pattern, call, slot_of, exchange, combine);
    // Alg. 4 lines 16-22: combined messages land in temp space, then move to their places.
    for (const IncomingMessage& message : pattern.incoming)
        if (message.in_edges.size() > 1) add_assembled_receive(graph, message, call, schedule, exchange, combine, unpack);
    for (Round* round : {&exchange, &combine, &unpack})
        if (!round->ops.empty()) schedule.rounds.push_back(std::move(*round));
    return schedule;
}

}  // namespace nbrcomb::detail
