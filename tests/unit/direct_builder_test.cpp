#include "schedule/direct_builder.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace nbrcomb::detail;

namespace {

// Blocks of bytes each at offset 100 * edge; the datatype handle is never dereferenced.
std::vector<Block> blocks(Space space, std::vector<std::size_t> bytes) {
    std::vector<Block> result;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        result.push_back({{space, static_cast<std::ptrdiff_t>(100 * i)}, static_cast<int>(bytes[i]), MPI_BYTE, bytes[i]});
    return result;
}

template <class T>
std::vector<T> ops_of(const Schedule& schedule) {
    std::vector<T> found;
    for (const Round& round : schedule.rounds)
        for (const Op& op : round.ops)
            if (const auto* typed = std::get_if<T>(&op)) found.push_back(*typed);
    return found;
}

}  // namespace

TEST(DirectBuilder, one_message_per_edge_in_list_order) {
    const std::vector<int> sources{3, 1, 3}, destinations{2, 2, 5};
    const Schedule schedule =
        build_direct_schedule(0, sources, destinations, blocks(Space::send, {4, 8, 16}), blocks(Space::recv, {1, 2, 3}));
    ASSERT_EQ(schedule.rounds.size(), 1u);
    EXPECT_EQ(schedule.messages, 3u);
    EXPECT_EQ(schedule.bytes_sent, 28u);
    const auto sends = ops_of<SendOp>(schedule);
    ASSERT_EQ(sends.size(), 3u);
    EXPECT_EQ(sends[0].peer, 2);
    EXPECT_EQ(sends[0].data.at.offset, 0);
    EXPECT_EQ(sends[1].peer, 2);  // the second edge to 2 is posted after the first
    EXPECT_EQ(sends[1].data.at.offset, 100);
    const auto recvs = ops_of<RecvOp>(schedule);
    ASSERT_EQ(recvs.size(), 3u);
    EXPECT_EQ(recvs[0].peer, 3);
    EXPECT_EQ(recvs[2].peer, 3);
    EXPECT_EQ(recvs[2].data.at.offset, 200);
}

TEST(DirectBuilder, self_loops_are_copies_paired_kth_to_kth) {
    const std::vector<int> sources{7, 1, 7}, destinations{7, 1, 7};
    const Schedule schedule =
        build_direct_schedule(7, sources, destinations, blocks(Space::send, {4, 4, 4}), blocks(Space::recv, {4, 4, 4}));
    const auto copies = ops_of<CopyOp>(schedule);
    ASSERT_EQ(copies.size(), 2u);
    EXPECT_EQ(copies[0].from.at.offset, 0);
    EXPECT_EQ(copies[0].to.at.offset, 0);
    EXPECT_EQ(copies[1].from.at.offset, 200);
    EXPECT_EQ(copies[1].to.at.offset, 200);
    EXPECT_EQ(schedule.messages, 1u);  // only the edge to 1 leaves the process
}

TEST(DirectBuilder, zero_byte_edges_send_nothing) {
    const std::vector<int> sources{1, 2}, destinations{1, 2};
    const Schedule schedule =
        build_direct_schedule(0, sources, destinations, blocks(Space::send, {0, 4}), blocks(Space::recv, {0, 4}));
    EXPECT_EQ(schedule.messages, 1u);
    EXPECT_EQ(ops_of<RecvOp>(schedule).size(), 1u);
}

TEST(DirectBuilder, empty_neighborhood_has_no_rounds) {
    const Schedule schedule = build_direct_schedule(0, {}, {}, {}, {});
    EXPECT_TRUE(schedule.rounds.empty());
    EXPECT_EQ(schedule.messages, 0u);
}

TEST(DirectBuilder, prints_every_operation) {
    const std::vector<int> sources{1, 0}, destinations{0, 2};
    const Schedule schedule =
        build_direct_schedule(0, sources, destinations, blocks(Space::send, {4, 4}), blocks(Space::recv, {4, 4}));
    std::ostringstream listing;
    print(listing, schedule);
    const std::string text = listing.str();
    EXPECT_NE(text.find("recv recv+0 (4 elements, 4 B) from 1"), std::string::npos) << text;
    EXPECT_NE(text.find("copy send+0 (4 elements, 4 B) to recv+100"), std::string::npos) << text;
    EXPECT_NE(text.find("send send+100 (4 elements, 4 B) to 2"), std::string::npos) << text;
}
