#include "schedule/canonical_order.h"

#include <algorithm>
#include <tuple>

namespace nbrcomb::detail {

namespace {

// (phase, lap, distance): receives, then sends and collectives, then copies; within a phase the
// peers in cyclic order from the process outward, without knowing the communicator's size.
struct PostingKey {
    int rank;
    std::tuple<int, int, int> receive(int peer) const {
        return peer < rank ? std::tuple{0, 0, rank - peer} : std::tuple{0, 1, -peer};
    }
    std::tuple<int, int, int> send(int peer) const {
        return peer > rank ? std::tuple{1, 0, peer} : std::tuple{1, 1, peer};
    }
    std::tuple<int, int, int> operator()(const RecvOp& op) const { return receive(op.peer); }
    std::tuple<int, int, int> operator()(const ProbeRecvOp& op) const { return receive(op.peer); }
    std::tuple<int, int, int> operator()(const SendOp& op) const { return send(op.peer); }
    std::tuple<int, int, int> operator()(const RelayOp& op) const { return send(op.peer); }
    std::tuple<int, int, int> operator()(const GlobalOp&) const { return {1, 2, 0}; }
    std::tuple<int, int, int> operator()(const CopyOp&) const { return {2, 0, 0}; }
    std::tuple<int, int, int> operator()(const SlotCopyOp&) const { return {2, 0, 0}; }
};

}  // namespace

void order_canonically(Schedule& schedule, int rank) {
    const PostingKey key{rank};
    for (Round& round : schedule.rounds)
        std::ranges::stable_sort(round.ops, {}, [&key](const Op& op) { return std::visit(key, op); });
}

}  // namespace nbrcomb::detail
