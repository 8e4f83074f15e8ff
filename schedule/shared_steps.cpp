#include "schedule/shared_steps.h"

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

}  // namespace

void add_direct_edges(const LocalGraph& graph, std::span<const int> out_edges, std::span<const int> in_edges,
                      const CallBlocks& call, Round& round) {
    for (const int edge : in_edges) {
        const Block block = block_at(call.recv, edge);
        if (block.bytes > 0)
            round.ops.emplace_back(RecvOp{block, graph.sources[static_cast<std::size_t>(edge)], MessageKind::direct});
    }
    const std::vector<int> self_receives = self_in_edges(graph);
    std::size_t self_sends = 0;
    for (const int edge : out_edges) {
        const Block block = block_at(call.send, edge);
        const int peer = graph.destinations[static_cast<std::size_t>(edge)];
        if (peer != graph.rank) {
            if (block.bytes > 0) round.ops.emplace_back(SendOp{block, peer, MessageKind::direct});
        } else if (self_sends < self_receives.size()) {
            // A self-loop's partner is in the in-list; if the caller's lists disagree the extra
            // ones have nothing to meet, as natively.
            if (block.bytes > 0) round.ops.emplace_back(CopyOp{block, block_at(call.recv, self_receives[self_sends])});
            ++self_sends;
        }
    }
}

void add_assembled_receive(const LocalGraph& graph, const IncomingMessage& message, const CallBlocks& call,
                           Schedule& schedule, Round& direct, Round& receive, Round& unpack) {
    std::size_t bytes = 0;
    for (const int edge : message.in_edges) {
        const Block block = block_at(call.recv, edge);
        if (block.bytes <= call.cutoff)
            bytes += block.bytes;
        else
            direct.ops.emplace_back(RecvOp{block, graph.sources[static_cast<std::size_t>(edge)], MessageKind::direct});
    }
    if (bytes == 0) return;
    if (bytes > INT_MAX) throw std::length_error("an assembled message would exceed INT_MAX bytes");
    const auto start = static_cast<std::ptrdiff_t>(schedule.temp_bytes);
    receive.ops.emplace_back(
        RecvOp{{{Space::temp, start}, static_cast<int>(bytes), MPI_BYTE, bytes}, message.from, MessageKind::combined});
    std::ptrdiff_t offset = start;
    for (const int edge : message.in_edges) {
        const Block target = block_at(call.recv, edge);
        if (target.bytes > call.cutoff) continue;
        if (target.bytes > 0)
            unpack.ops.emplace_back(
                CopyOp{{{Space::temp, offset}, static_cast<int>(target.bytes), MPI_BYTE, target.bytes}, target});
        offset += static_cast<std::ptrdiff_t>(target.bytes);
    }
    schedule.temp_bytes += bytes;
}

RelayedBlocks::RelayedBlocks(const LocalGraph& graph, const CallBlocks& call, std::span<const int> out_edges,
                             std::span<const int> in_edges, Round& direct)
    : send_(call.send.begin(), call.send.end()), recv_(call.recv.begin(), call.recv.end()),
      same_send_block_(call.same_send_block) {
    const auto above = [&call](std::vector<Block>& blocks, std::span<const int> edges) {
        std::vector<int> direct_edges;
        for (const int edge : edges) {
            Block& block = blocks[static_cast<std::size_t>(edge)];
            if (block.bytes <= call.cutoff) continue;
            direct_edges.push_back(edge);
            block = {block.at, 0, block.type, 0};
        }
        return direct_edges;
    };
    const std::vector<int> direct_out = above(send_, out_edges);
    const std::vector<int> direct_in = above(recv_, in_edges);
    add_direct_edges(graph, direct_out, direct_in, call, direct);
}

std::vector<int> edges_to_others(const std::vector<int>& peers, int rank) {
    std::vector<int> edges;
    for (std::size_t i = 0; i < peers.size(); ++i)
        if (peers[i] != rank) edges.push_back(static_cast<int>(i));
    return edges;
}

}  // namespace nbrcomb::detail
