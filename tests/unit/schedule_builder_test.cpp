#include "pattern/pattern_builder.h"
#include "schedule/schedule_builder.h"

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
std::vector<T> ops_of(const Schedule& schedule, std::size_t round) {
    std::vector<T> found;
    for (const Op& op : schedule.rounds.at(round).ops)
        if (const auto* typed = std::get_if<T>(&op)) found.push_back(*typed);
    return found;
}

// A step of the given members and parts; to_member and from_member name the riding edges by
// member index (-1: none).
GroupStep step_of(std::vector<int> members, std::vector<std::vector<int>> parts, std::size_t self,
                  std::vector<int> to_member = {}, std::vector<int> from_member = {}) {
    const std::size_t size = members.size();
    if (to_member.empty()) to_member.assign(size, -1);
    if (from_member.empty()) from_member.assign(size, -1);
    return {std::move(members), std::move(parts), self, std::move(to_member), std::move(from_member)};
}

Block block(const RelayOp& relay, std::size_t i) { return std::get<Block>(relay.pieces.at(i)); }
SlotPart part(const RelayOp& relay, std::size_t i) { return std::get<SlotPart>(relay.pieces.at(i)); }

Schedule direct_schedule(const LocalGraph& graph, const std::vector<Block>& send, const std::vector<Block>& recv) {
    return build_schedule(graph, direct_pattern(graph), {send, recv, false});
}

}  // namespace

TEST(ScheduleBuilder, direct_sends_one_message_per_edge_in_list_order) {
    const LocalGraph graph{0, {3, 1, 3}, {2, 2, 5}};
    const Schedule schedule = direct_schedule(graph, blocks(Space::send, {4, 8, 16}), blocks(Space::recv, {1, 2, 3}));
    ASSERT_EQ(schedule.rounds.size(), 1u);
    const auto sends = ops_of<SendOp>(schedule, 0);
    ASSERT_EQ(sends.size(), 3u);
    EXPECT_EQ(sends[0].peer, 2);
    EXPECT_EQ(sends[0].data.at.offset, 0);
    EXPECT_EQ(sends[1].peer, 2);  // the second edge to 2 is posted after the first
    EXPECT_EQ(sends[1].data.at.offset, 100);
    const auto recvs = ops_of<RecvOp>(schedule, 0);
    ASSERT_EQ(recvs.size(), 3u);
    EXPECT_EQ(recvs[0].peer, 3);
    EXPECT_EQ(recvs[2].peer, 3);
    EXPECT_EQ(recvs[2].data.at.offset, 200);
}

TEST(ScheduleBuilder, self_loops_are_copies_paired_kth_to_kth) {
    const LocalGraph graph{7, {7, 1, 7}, {7, 1, 7}};
    const Schedule schedule = direct_schedule(graph, blocks(Space::send, {4, 4, 4}), blocks(Space::recv, {4, 4, 4}));
    const auto copies = ops_of<CopyOp>(schedule, 0);
    ASSERT_EQ(copies.size(), 2u);
    EXPECT_EQ(copies[0].from.at.offset, 0);
    EXPECT_EQ(copies[0].to.at.offset, 0);
    EXPECT_EQ(copies[1].from.at.offset, 200);
    EXPECT_EQ(copies[1].to.at.offset, 200);
    EXPECT_EQ(ops_of<SendOp>(schedule, 0).size(), 1u);  // only the edge to 1 leaves the process
}

TEST(ScheduleBuilder, zero_byte_edges_send_nothing) {
    const LocalGraph graph{0, {1, 2}, {1, 2}};
    const Schedule schedule = direct_schedule(graph, blocks(Space::send, {0, 4}), blocks(Space::recv, {0, 4}));
    EXPECT_EQ(ops_of<SendOp>(schedule, 0).size(), 1u);
    EXPECT_EQ(ops_of<RecvOp>(schedule, 0).size(), 1u);
}

TEST(ScheduleBuilder, empty_neighborhood_has_no_rounds) {
    EXPECT_TRUE(direct_schedule(LocalGraph{}, {}, {}).rounds.empty());
}

// Process 0 paired with 1: it sends its friend the blocks for 5 and 6, forwards to 3 and 4
// its own block with the friend's, and receives one combined message from 2 (carrying 2's and
// 9's blocks) besides a direct one from 8.
TEST(ScheduleBuilder, combined_rounds_follow_the_pattern) {
    const LocalGraph graph{0, {2, 8, 9}, {3, 4, 5, 6, 7}};
    Pattern pattern;
    pattern.steps.push_back(step_of({0, 1}, {{0, 1}, {2, 3}}, 0));
    pattern.direct = {4};
    pattern.incoming = {{8, {1}}, {2, {0, 2}}};
    const auto send = blocks(Space::send, {4, 4, 4, 4, 4});
    const auto recv = blocks(Space::recv, {8, 8, 8});
    const Schedule schedule = build_schedule(graph, pattern, {send, recv, false});
    ASSERT_EQ(schedule.rounds.size(), 3u);

    const auto packed = ops_of<RelayOp>(schedule, 0);
    ASSERT_EQ(packed.size(), 1u);
    EXPECT_EQ(packed[0].peer, 1);
    ASSERT_EQ(packed[0].pieces.size(), 2u);
    EXPECT_EQ(block(packed[0], 1).at.offset, 300);
    EXPECT_EQ(ops_of<ProbeRecvOp>(schedule, 0).size(), 1u);
    EXPECT_EQ(ops_of<SendOp>(schedule, 0).size(), 1u);  // the direct edge to 7

    const auto forwards = ops_of<RelayOp>(schedule, 1);
    ASSERT_EQ(forwards.size(), 2u);
    EXPECT_EQ(forwards[1].peer, 4);
    ASSERT_EQ(forwards[1].pieces.size(), 2u);
    EXPECT_EQ(part(forwards[1], 1).part, 1);
    EXPECT_EQ(part(forwards[1], 1).parts, 2);
    const auto combined = ops_of<RecvOp>(schedule, 1);
    ASSERT_EQ(combined.size(), 1u);
    EXPECT_EQ(combined[0].data.bytes, 16u);
    EXPECT_EQ(schedule.temp_bytes, 16u);

    const auto unpacks = ops_of<CopyOp>(schedule, 2);
    ASSERT_EQ(unpacks.size(), 2u);
    EXPECT_EQ(unpacks[1].from.at.offset, 8);
    EXPECT_EQ(unpacks[1].to.at.offset, 200);
}

TEST(ScheduleBuilder, allgather_hands_the_friend_one_block) {
    const LocalGraph graph{0, {}, {3, 4, 5}};
    Pattern pattern;
    pattern.steps.push_back(step_of({0, 1}, {{0}, {1, 2}}, 0));
    const auto send = std::vector<Block>(3, blocks(Space::send, {4}).front());
    const Schedule schedule = build_schedule(graph, pattern, {send, {}, true});
    const auto packed = ops_of<RelayOp>(schedule, 0);
    ASSERT_EQ(packed.size(), 1u);
    EXPECT_EQ(packed[0].pieces.size(), 1u);
    EXPECT_EQ(part(ops_of<RelayOp>(schedule, 1).front(), 1).parts, 1);
}

// Process 5 in a group with 2 and 9 over common neighbors 10..16 (out-edges 0..6): 2 carries
// 10-12, 5 carries 13-14, 9 carries 15-16. It hands 2 three blocks and 9 two, takes two from
// each, and sends two combined messages of three blocks: its own, then 2's, then 9's.
TEST(ScheduleBuilder, groups_of_three_hand_each_member_its_part) {
    const LocalGraph graph{5, {}, {10, 11, 12, 13, 14, 15, 16}};
    Pattern pattern;
    pattern.steps.push_back(step_of({2, 5, 9}, {{0, 1, 2}, {3, 4}, {5, 6}}, 1));
    const auto send = blocks(Space::send, {4, 4, 4, 4, 4, 4, 4});
    const Schedule schedule = build_schedule(graph, pattern, {send, {}, false});
    ASSERT_EQ(schedule.rounds.size(), 2u);

    const auto packed = ops_of<RelayOp>(schedule, 0);
    ASSERT_EQ(packed.size(), 2u);
    EXPECT_EQ(packed[0].peer, 2);
    EXPECT_EQ(packed[0].pieces.size(), 3u);
    EXPECT_EQ(packed[1].peer, 9);
    EXPECT_EQ(packed[1].pieces.size(), 2u);
    const auto probes = ops_of<ProbeRecvOp>(schedule, 0);
    ASSERT_EQ(probes.size(), 2u);
    EXPECT_EQ(probes[0].peer, 2);
    EXPECT_EQ(probes[1].peer, 9);
    EXPECT_EQ(schedule.slots, 2);

    const auto forwards = ops_of<RelayOp>(schedule, 1);
    ASSERT_EQ(forwards.size(), 2u);
    EXPECT_EQ(forwards[1].peer, 14);
    EXPECT_EQ(block(forwards[1], 0).at.offset, 400);
    ASSERT_EQ(forwards[1].pieces.size(), 3u);
    EXPECT_EQ(part(forwards[1], 1).slot, probes[0].slot);
    EXPECT_EQ(part(forwards[1], 2).slot, probes[1].slot);
    EXPECT_EQ(part(forwards[1], 2).part, 1);
    EXPECT_EQ(part(forwards[1], 2).parts, 2);
}

// Process 0 paired with 1, which is its neighbor both ways: its block for 1 (out-edge 0) rides
// last in its packet to 1 behind the block 1 forwards for it (out-edge 2, to 4), and 1's block
// for it (in-edge 1) is the last of 1's packet, copied into place once that is in. No message
// goes to 1 besides the packet, and none is expected from it.
TEST(ScheduleBuilder, a_members_own_block_rides_in_its_packet) {
    const LocalGraph graph{0, {7, 1}, {1, 3, 4}};
    Pattern pattern;
    pattern.steps.push_back(step_of({0, 1}, {{1}, {2}}, 0, {-1, 0}, {-1, 1}));
    pattern.incoming = {{7, {0}}};
    const auto send = blocks(Space::send, {4, 8, 12});
    const auto recv = blocks(Space::recv, {4, 8});
    const Schedule schedule = build_schedule(graph, pattern, {send, recv, false});

    const auto packed = ops_of<RelayOp>(schedule, 0);
    ASSERT_EQ(packed.size(), 1u);
    EXPECT_EQ(packed[0].peer, 1);
    ASSERT_EQ(packed[0].pieces.size(), 2u);
    EXPECT_EQ(block(packed[0], 0).at.offset, 200);
    EXPECT_EQ(block(packed[0], 1).at.offset, 0);
    EXPECT_EQ(ops_of<SendOp>(schedule, 0).size(), 0u);
    const auto direct = ops_of<RecvOp>(schedule, 0);
    ASSERT_EQ(direct.size(), 1u);
    EXPECT_EQ(direct[0].peer, 7);

    const auto forwards = ops_of<RelayOp>(schedule, 1);
    ASSERT_EQ(forwards.size(), 1u);
    EXPECT_EQ(part(forwards[0], 1).part, 0);
    EXPECT_EQ(part(forwards[0], 1).parts, 2);
    const auto riding = ops_of<SlotCopyOp>(schedule, 1);
    ASSERT_EQ(riding.size(), 1u);
    EXPECT_EQ(riding[0].from.part, 1);
    EXPECT_EQ(riding[0].from.parts, 2);
    EXPECT_EQ(riding[0].to.at.offset, 100);
}

// allgather's packet holds the one block, which the member both forwards and keeps.
TEST(ScheduleBuilder, allgather_rides_in_the_one_block) {
    const LocalGraph graph{0, {1}, {1, 3, 4}};
    Pattern pattern;
    pattern.steps.push_back(step_of({0, 1}, {{1}, {2}}, 0, {-1, 0}, {-1, 0}));
    const auto send = std::vector<Block>(3, blocks(Space::send, {4}).front());
    const Schedule schedule = build_schedule(graph, pattern, {send, blocks(Space::recv, {4}), true});
    EXPECT_EQ(ops_of<RelayOp>(schedule, 0).front().pieces.size(), 1u);
    const auto riding = ops_of<SlotCopyOp>(schedule, 1);
    ASSERT_EQ(riding.size(), 1u);
    EXPECT_EQ(riding[0].from.part, 0);
    EXPECT_EQ(riding[0].from.parts, 1);
}

// With a cutoff of 8 bytes, the 12-byte block for 4 leaves the combined pattern: it goes to 4
// directly, its place in the combined message and the packet stays empty, and the receiver takes
// the 12-byte block of its combined in-edge (from 9) directly from 9.
TEST(ScheduleBuilder, blocks_above_the_cutoff_go_directly) {
    const LocalGraph graph{0, {2, 9}, {1, 3, 4}};
    Pattern pattern;
    pattern.steps.push_back(step_of({0, 1}, {{1}, {2}}, 0));
    pattern.direct = {0};
    pattern.incoming = {{2, {0, 1}}};
    const auto send = blocks(Space::send, {4, 8, 12});
    const auto recv = blocks(Space::recv, {4, 12});
    CallBlocks call{send, recv, false};
    call.cutoff = 8;
    const Schedule schedule = build_schedule(graph, pattern, call);

    const auto packed = ops_of<RelayOp>(schedule, 0);
    ASSERT_EQ(packed.size(), 1u);
    EXPECT_EQ(block(packed[0], 0).bytes, 0u);
    const auto sends = ops_of<SendOp>(schedule, 0);
    ASSERT_EQ(sends.size(), 2u);
    EXPECT_EQ(sends[0].peer, 4);
    EXPECT_EQ(sends[1].peer, 1);
    const auto direct = ops_of<RecvOp>(schedule, 0);
    ASSERT_EQ(direct.size(), 1u);
    EXPECT_EQ(direct[0].peer, 9);
    EXPECT_EQ(direct[0].data.at.offset, 100);
    const auto combined = ops_of<RecvOp>(schedule, 1);
    ASSERT_EQ(combined.size(), 1u);
    EXPECT_EQ(combined[0].data.bytes, 4u);
    EXPECT_EQ(block(ops_of<RelayOp>(schedule, 1).front(), 0).bytes, 8u);
}

TEST(ScheduleBuilder, prints_every_operation) {
    const LocalGraph graph{0, {1, 0}, {0, 2}};
    const Schedule schedule = direct_schedule(graph, blocks(Space::send, {4, 4}), blocks(Space::recv, {4, 4}));
    std::ostringstream listing;
    print(listing, schedule);
    const std::string text = listing.str();
    EXPECT_NE(text.find("recv direct recv+0 (4 elements, 4 B) from 1"), std::string::npos) << text;
    EXPECT_NE(text.find("copy send+0 (4 elements, 4 B) to recv+100"), std::string::npos) << text;
    EXPECT_NE(text.find("send direct send+100 (4 elements, 4 B) to 2"), std::string::npos) << text;
}
