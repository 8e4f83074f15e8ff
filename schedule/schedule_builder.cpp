#include "schedule/schedule_builder.h"

#include <climits>
#include <stdexcept>

namespace nbrcomb::detail {

namespace {

// In-edge index of every self-loop, in order: the k-th self out-edge meets the k-th.
std::vector<int> self_in_edges(const LocalGraph& graph) {
    std::vector<int> edges;
    for (std::size_t j = 0; j < graph.sources.size(); ++j)
        if (graph.sources[j] == graph.rank) edges.push_back(static_cast<int>(j));
    return edges;
}

Block at(std::span<const Block> blocks, int index) { return blocks[static_cast<std::size_t>(index)]; }

// Alg. 3 lines 3-4: swap with each friend what the other forwards.
void add_friend_exchanges(const Pattern& pattern, const CallBlocks& call, Round& round, int& slots,
                          std::vector<int>& slot_of_step) {
    for (const PairStep& step : pattern.steps) {
        if (!step.offloaded.empty()) {
            PackedSendOp packed{{}, step.friend_rank};
            if (call.same_send_block)
                packed.blocks.push_back(at(call.send, step.offloaded.front()));
            else
                for (const int edge : step.offloaded) packed.blocks.push_back(at(call.send, edge));
            round.ops.emplace_back(std::move(packed));
        }
        slot_of_step.push_back(step.onloaded.empty() ? -1 : slots);
        if (!step.onloaded.empty()) round.ops.emplace_back(ProbeRecvOp{step.friend_rank, slots++});
    }
}

// Alg. 3 lines 22-25: what no friend carries goes as native MPI sends it.
void add_direct_edges(const LocalGraph& graph, const Pattern& pattern, const CallBlocks& call, Round& round) {
    for (const IncomingMessage& message : pattern.incoming) {
        if (message.in_edges.size() != 1) continue;
        const Block block = at(call.recv, message.in_edges.front());
        if (block.bytes > 0) round.ops.emplace_back(RecvOp{block, message.from, MessageKind::direct});
    }
    const std::vector<int> self_receives = self_in_edges(graph);
    std::size_t self_sends = 0;
    for (const int edge : pattern.direct) {
        const Block block = at(call.send, edge);
        const int peer = graph.destinations[static_cast<std::size_t>(edge)];
        if (peer != graph.rank) {
            if (block.bytes > 0) round.ops.emplace_back(SendOp{block, peer, MessageKind::direct});
        } else if (self_sends < self_receives.size()) {
            // A self-loop's partner is in the in-list; if the caller's lists disagree the extra
            // ones have nothing to meet, as natively.
            if (block.bytes > 0) round.ops.emplace_back(CopyOp{block, at(call.recv, self_receives[self_sends])});
            ++self_sends;
        }
    }
}

}  // namespace

Schedule build_schedule(const LocalGraph& graph, const Pattern& pattern, const CallBlocks& call) {
    Schedule schedule;
    Round exchange, combine, unpack;
    std::vector<int> slot_of_step;
    add_friend_exchanges(pattern, call, exchange, schedule.slots, slot_of_step);
    add_direct_edges(graph, pattern, call, exchange);

    // Alg. 3 lines 6-9: one combined message per onloaded neighbor, our block first.
    for (std::size_t s = 0; s < pattern.steps.size(); ++s) {
        const PairStep& step = pattern.steps[s];
        for (std::size_t k = 0; k < step.onloaded.size(); ++k) {
            const int edge = step.onloaded[k];
            const int parts = call.same_send_block ? 1 : static_cast<int>(step.onloaded.size());
            const int part = call.same_send_block ? 0 : static_cast<int>(k);
            combine.ops.emplace_back(ForwardOp{at(call.send, edge), slot_of_step[s], part, parts,
                                               graph.destinations[static_cast<std::size_t>(edge)]});
        }
    }
    // Alg. 3 lines 11-19: combined messages land in temp space, then move to their places.
    for (const IncomingMessage& message : pattern.incoming) {
        if (message.in_edges.size() == 1) continue;
        std::size_t bytes = 0;
        for (const int edge : message.in_edges) bytes += at(call.recv, edge).bytes;
        if (bytes == 0) continue;
        if (bytes > INT_MAX) throw std::length_error("a combined message would exceed INT_MAX bytes");
        const auto start = static_cast<std::ptrdiff_t>(schedule.temp_bytes);
        combine.ops.emplace_back(
            RecvOp{{{Space::temp, start}, static_cast<int>(bytes), MPI_BYTE, bytes}, message.from, MessageKind::combined});
        std::ptrdiff_t offset = start;
        for (const int edge : message.in_edges) {
            const Block target = at(call.recv, edge);
            if (target.bytes > 0)
                unpack.ops.emplace_back(
                    CopyOp{{{Space::temp, offset}, static_cast<int>(target.bytes), MPI_BYTE, target.bytes}, target});
            offset += static_cast<std::ptrdiff_t>(target.bytes);
        }
        schedule.temp_bytes += bytes;
    }
    for (Round* round : {&exchange, &combine, &unpack})
        if (!round->ops.empty()) schedule.rounds.push_back(std::move(*round));
    return schedule;
}

}  // namespace nbrcomb::detail
