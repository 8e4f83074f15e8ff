#include "schedule/combining_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// One block of bytes per edge at offset 100 * edge; the datatype handle is never dereferenced.
std::vector<Block> blocks(Space space, const std::vector<std::size_t>& bytes) {
    std::vector<Block> result;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        result.push_back({{space, static_cast<std::ptrdiff_t>(100 * i)}, static_cast<int>(bytes[i]), MPI_BYTE, bytes[i]});
    return result;
}

// The round's operations as posted: "r5" a receive from 5, "s4:8" a send of 8 bytes to 4, "c" a copy.
std::vector<std::string> posted(const Schedule& schedule) {
    std::vector<std::string> ops;
    for (const Op& op : schedule.rounds.at(0).ops) {
        if (const auto* recv = std::get_if<RecvOp>(&op))
            ops.push_back("r" + std::to_string(recv->peer));
        else if (const auto* send = std::get_if<SendOp>(&op))
            ops.push_back("s" + std::to_string(send->peer) + ":" + std::to_string(send->data.bytes));
        else
            ops.push_back("c");
    }
    return ops;
}

Schedule direct_schedule(const LocalGraph& graph, const std::vector<std::size_t>& send_bytes,
                         const std::vector<std::size_t>& recv_bytes) {
    const std::vector<Block> send = blocks(Space::send, send_bytes), recv = blocks(Space::recv, recv_bytes);
    return direct_plan(graph)->schedule(graph, {send, recv, false});
}

}  // namespace

// Rank 3: receives from 2, 1, 0, then 7, 6, 5, 4 (cyclically downward); sends to 4, 5, 6, 7, then
// 0, 1, 2 (cyclically upward); the self-loop's copy last.
TEST(CanonicalOrder, receives_then_sends_cyclically_then_copies) {
    const LocalGraph graph{3, {5, 3, 0, 2, 6}, {1, 3, 7, 4, 0}};
    EXPECT_EQ(posted(direct_schedule(graph, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1})),
              (std::vector<std::string>{"r2", "r0", "r6", "r5", "s4:1", "s7:1", "s0:1", "s1:1", "c"}));
}

TEST(CanonicalOrder, the_order_of_the_neighbor_lists_does_not_show) {
    const LocalGraph given{3, {5, 0, 2, 6}, {1, 7, 4, 0}};
    const LocalGraph reversed{3, {6, 2, 0, 5}, {0, 4, 7, 1}};
    EXPECT_EQ(posted(direct_schedule(given, {8, 8, 8, 8}, {8, 8, 8, 8})),
              posted(direct_schedule(reversed, {8, 8, 8, 8}, {8, 8, 8, 8})));
}

// The k-th edge to a peer meets the k-th edge from it: repeated edges keep their order.
TEST(CanonicalOrder, repeated_edges_keep_their_order) {
    const LocalGraph graph{0, {2, 1, 2}, {1, 2, 1}};
    EXPECT_EQ(posted(direct_schedule(graph, {4, 8, 16}, {1, 2, 3})),
              (std::vector<std::string>{"r2", "r2", "r1", "s1:4", "s1:16", "s2:8"}));
}
