#include "schedule/global_plan.h"

#include "pattern/message_cost.h"
#include "schedule/combining_plan.h"
#include "schedule/datatype_facts.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <stdexcept>

namespace nbrcomb::detail {

namespace {

// The edge of every rank in peers, which names each rank at most once; -1 for a rank it does not name.
std::vector<int> edge_of_rank(const std::vector<int>& peers, int size) {
    std::vector<int> edges(static_cast<std::size_t>(size), -1);
    for (std::size_t i = 0; i < peers.size(); ++i) edges[static_cast<std::size_t>(peers[i])] = static_cast<int>(i);
    return edges;
}

int as_int(std::size_t bytes) {
    if (bytes > INT_MAX) throw std::length_error("a global collective's side would exceed INT_MAX bytes");
    return static_cast<int>(bytes);
}

// Where the MPI finds one side's bytes, rank r's counts[r] bytes at displs[r] from base.
struct Side {
    BufferRef base;
    std::vector<int> counts;
    std::vector<int> displs;
};

// One side of the collective: blocks[r] goes to or comes from rank r; an empty one is the place of
// a rank without an edge (the process itself, where it has no self-loop), of missing bytes.
class SidePlacer {
public:
    SidePlacer(std::vector<std::optional<Block>> blocks, std::size_t missing) : blocks_(std::move(blocks)), missing_(missing) {}

    // The side as the user's buffers hold it, if they can: every block plain bytes in one buffer,
    // the places of missing blocks empty, and with one count (strided) rank r's at r * count.
    std::optional<Side> in_place(bool strided) const {
        std::optional<Space> space;
        std::vector<std::optional<std::ptrdiff_t>> starts;
        for (const std::optional<Block>& block : blocks_) {
            const std::size_t bytes = block ? block->bytes : missing_;
            if (bytes == 0) {
                starts.emplace_back();
                continue;
            }
            if (!block) return std::nullopt;
            const std::optional<MPI_Aint> start = contiguous_start(block->count, block->type);
            if (!start || (space && *space != block->at.space)) return std::nullopt;
            space = block->at.space;
            starts.emplace_back(block->at.offset + *start);
        }
        if (!space) return Side{{Space::temp, 0}, counts(), std::vector<int>(blocks_.size(), 0)};
        std::ptrdiff_t base = PTRDIFF_MAX;
        for (const auto& start : starts)
            if (start) base = std::min(base, *start);
        Side side{{*space, base}, counts(), {}};
        for (std::size_t r = 0; r < starts.size(); ++r) {
            const std::ptrdiff_t displ = starts[r] ? *starts[r] - base : 0;
            if (displ > INT_MAX) return std::nullopt;
            if (strided && (!starts[r] || displ != static_cast<std::ptrdiff_t>(r * bytes_of(r)))) return std::nullopt;
            side.displs.push_back(static_cast<int>(displ));
        }
        return side;
    }

    // The side in temporary space, in rank order; the copies from (to_temp) or to the blocks.
    Side in_temp(Schedule& schedule, bool to_temp, std::vector<CopyOp>& copies) const {
        Side side{{Space::temp, static_cast<std::ptrdiff_t>(schedule.temp_bytes)}, counts(), {}};
        std::size_t offset = 0;
        for (std::size_t r = 0; r < blocks_.size(); ++r) {
            const std::size_t bytes = bytes_of(r);
            side.displs.push_back(as_int(offset));
            const Block packed{{Space::temp, side.base.offset + static_cast<std::ptrdiff_t>(offset)}, as_int(bytes),
                               MPI_BYTE, bytes};
            if (blocks_[r] && bytes > 0)
                copies.push_back(to_temp ? CopyOp{*blocks_[r], packed} : CopyOp{packed, *blocks_[r]});
            offset += bytes;
        }
        as_int(offset);
        schedule.temp_bytes += offset;
        return side;
    }

private:
    std::size_t bytes_of(std::size_t r) const { return blocks_[r] ? blocks_[r]->bytes : missing_; }
    std::vector<int> counts() const {
        std::vector<int> counts;
        for (std::size_t r = 0; r < blocks_.size(); ++r) counts.push_back(as_int(bytes_of(r)));
        return counts;
    }

    std::vector<std::optional<Block>> blocks_;
    std::size_t missing_;
};

class GlobalPlan final : public Plan {
public:
    GlobalPlan(const LocalGraph& graph, int size)
        : size_(size), out_of_rank_(edge_of_rank(graph.destinations, size)),
          in_of_rank_(edge_of_rank(graph.sources, size)) {}

    Schedule build_schedule(const LocalGraph& graph, const CallBlocks& call) const override {
        const bool gather = call.same_send_block;
        // One block size on every process: any other rank's (a complete graph has one) is ours.
        const int other = (graph.rank + 1) % size_;
        const std::size_t uniform_bytes = call.recv[static_cast<std::size_t>(in_of_rank_[other])].bytes;
        const std::size_t own_bytes = call.send[static_cast<std::size_t>(out_of_rank_[other])].bytes;
        Schedule schedule;
        GlobalOp op{};
        op.collective = gather ? (call.uniform ? GlobalCollective::allgather : GlobalCollective::allgatherv)
                               : (call.uniform ? GlobalCollective::alltoall : GlobalCollective::alltoallv);
        const SidePlacer send(gather ? std::vector<std::optional<Block>>{call.send[out_of_rank_[other]]}
                                     : by_rank(call.send, out_of_rank_),
                              call.uniform ? uniform_bytes : 0);
        // An allgather(v) puts the process's own block at its place, which a missing self-loop lacks.
        const SidePlacer recv(by_rank(call.recv, in_of_rank_), gather ? own_bytes : (call.uniform ? uniform_bytes : 0));
        std::optional<Side> sent = send.in_place(call.uniform);
        if (!sent) sent = send.in_temp(schedule, true, op.pack);
        std::vector<CopyOp> unpack;
        std::optional<Side> received = recv.in_place(call.uniform);
        if (!received) received = recv.in_temp(schedule, false, unpack);
        // Open MPI's nonblocking collectives take a send buffer equal to the receive buffer for
        // MPI_IN_PLACE and then send what the receive counts say: a side without bytes, which
        // may land on the other's address, gets one of its own.
        // Past the other side's start too: both may lie at temp+0 with no temporary bytes yet.
        if (sent->base.space == received->base.space && sent->base.offset == received->base.offset) {
            const bool send_empty = std::ranges::all_of(sent->counts, [](int count) { return count == 0; });
            Side& empty = send_empty ? *sent : *received;
            const Side& other = send_empty ? *received : *sent;
            const std::ptrdiff_t own = std::max(static_cast<std::ptrdiff_t>(schedule.temp_bytes), other.base.offset + 1);
            empty.base = {Space::temp, own};
            schedule.temp_bytes = static_cast<std::size_t>(own) + 1;
        }
        op.send_base = sent->base;
        op.send_counts = std::move(sent->counts);
        op.send_displs = std::move(sent->displs);
        op.recv_base = received->base;
        op.recv_counts = std::move(received->counts);
        op.recv_displs = std::move(received->displs);
        schedule.rounds.push_back({{std::move(op)}});
        if (!unpack.empty()) schedule.rounds.push_back({{unpack.begin(), unpack.end()}});
        return schedule;
    }
    RoundCosts round_costs(const LocalGraph& graph, const std::vector<int>& node_of,
                           bool same_send_block) const override {
        return global_round_costs(graph.rank, size_, node_of, same_send_block);
    }
    int rounds() const override { return global_rounds(size_); }
    std::size_t messages_per_call(const LocalGraph&) const override {
        std::size_t rounds = 0;
        while ((std::size_t{1} << rounds) < static_cast<std::size_t>(size_)) ++rounds;
        return rounds;
    }
    bool combines() const override { return true; }

private:
    // blocks by rank: the block of rank r's edge, none where the list has no edge to r.
    static std::vector<std::optional<Block>> by_rank(std::span<const Block> blocks, const std::vector<int>& edge_of) {
        std::vector<std::optional<Block>> ranked;
        for (const int edge : edge_of)
            ranked.push_back(edge < 0 ? std::nullopt : std::optional<Block>(blocks[static_cast<std::size_t>(edge)]));
        return ranked;
    }

    int size_;
    std::vector<int> out_of_rank_, in_of_rank_;
};

}  // namespace

bool complete_vertex(const LocalGraph& graph, int size) {
    if (size < 2) return false;
    const auto names_everyone_once = [&](const std::vector<int>& peers) {
        std::vector<int> seen(static_cast<std::size_t>(size), 0);
        for (const int peer : peers)
            if (peer < 0 || peer >= size || ++seen[static_cast<std::size_t>(peer)] > 1) return false;
        for (int r = 0; r < size; ++r)
            if (r != graph.rank && seen[static_cast<std::size_t>(r)] == 0) return false;
        return true;
    };
    return names_everyone_once(graph.sources) && names_everyone_once(graph.destinations);
}

PlanTask plan_global(Transport& transport, LocalGraph graph, PlanSettings settings) {
    if (!settings.complete_graph) co_return direct_plan(graph);
    co_return std::make_shared<const GlobalPlan>(graph, transport.size());
}

}  // namespace nbrcomb::detail
