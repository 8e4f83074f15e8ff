// The simulator on its own: how it matches messages with the exchanges that wait for them.
#include "pattern/simulator.h"

#include "pattern/pattern_builder.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace nbrcomb::detail;

namespace {

Payload value(int v) { return make_payload({v}); }

std::vector<int> values(const std::vector<Payload>& payloads) {
    std::vector<int> result;
    for (const Payload& payload : payloads) result.push_back(payload ? payload->at(0) : -1);  // -1: never sent
    return result;
}

// The lists are built outside co_await expressions: GCC rejects braced lists inside them.
Exchange send(Transport& transport, int to, Channel channel, int v) {
    return transport.exchange({{to, channel, value(v)}}, {});
}

// Rank 0 sends 1, 2, 3 on one channel and 4 on another before rank 1 starts; rank 1 asks for
// both channels in the other order, then for the rest one at a time.
Task<std::vector<int>> send_ahead(Transport& transport) {
    std::vector<int> got;
    if (transport.rank() == 0) {
        for (int v = 1; v <= 3; ++v) co_await send(transport, 1, MatchingChannel::choices, v);
        co_await send(transport, 1, MatchingChannel::states, 4);
        co_return got;
    }
    const std::vector<Expected> both{{0, MatchingChannel::states}, {0, MatchingChannel::choices}}, one{{0, MatchingChannel::choices}};
    got = values(co_await transport.exchange({}, both));
    for (int i = 0; i < 2; ++i) got.push_back(values(co_await transport.exchange({}, one)).at(0));
    co_return got;
}

// Rank 0 waits for ranks 1 and 2. Rank 1 sends it two messages at once; rank 2 sends its one
// only after a detour through ranks 3 and 1, so rank 0 must not wake up on rank 1's second.
Task<std::vector<int>> one_sender_twice(Transport& transport) {
    const int rank = transport.rank();
    if (rank == 0) {
        const std::vector<Expected> both{{1, CombiningChannel::notices}, {2, CombiningChannel::notices}}, one{{1, CombiningChannel::notices}};
        std::vector<int> got = values(co_await transport.exchange({}, both));
        got.push_back(values(co_await transport.exchange({}, one)).at(0));
        co_return got;
    }
    const std::vector<Expected> from_3{{3, CombiningChannel::checks}}, from_1{{1, CombiningChannel::checks}};
    if (rank == 1) {
        co_await send(transport, 0, CombiningChannel::notices, 10);
        co_await send(transport, 0, CombiningChannel::notices, 11);
        co_await transport.exchange({}, from_3);
        co_await send(transport, 2, CombiningChannel::checks, 0);
    } else if (rank == 2) {
        co_await transport.exchange({}, from_1);
        co_await send(transport, 0, CombiningChannel::notices, 20);
    } else {
        co_await send(transport, 1, CombiningChannel::checks, 0);
    }
    co_return std::vector<int>{};
}

// Every rank passes a value to its successor on a ring, one round after another.
Task<std::vector<int>> ring(Transport& transport) {
    const int rank = transport.rank(), size = transport.size();
    const std::vector<Expected> from{{(rank + size - 1) % size, CombiningChannel::in_lists}};
    std::vector<int> got;
    for (int round = 0; round < 3; ++round) {
        const std::vector<Outgoing> to{{(rank + 1) % size, CombiningChannel::in_lists, value(100 * rank + round)}};
        got.push_back(values(co_await transport.exchange(to, from)).at(0));
    }
    co_return got;
}

Task<int> wait_for_rank_1(Transport& transport) {
    const std::vector<Expected> from{{1, CombiningChannel::checks}};
    if (transport.rank() == 0) co_await transport.exchange({}, from);
    co_return 0;
}

Task<int> expect_twice(Transport& transport) {
    const std::vector<Expected> twice{{0, CombiningChannel::checks}, {0, CombiningChannel::checks}};
    co_await transport.exchange({}, twice);
    co_return 0;
}

Task<int> send_outside(Transport& transport) {
    co_await send(transport, transport.size(), CombiningChannel::checks, 0);
    co_return 0;
}

}  // namespace

TEST(Simulator, messages_sent_ahead_wait_oldest_first) {
    const auto got = simulate<std::vector<int>>(2, send_ahead);
    EXPECT_EQ(got[1], (std::vector<int>{4, 1, 2, 3}));
}

TEST(Simulator, a_second_message_from_one_sender_does_not_stand_for_another) {
    const auto got = simulate<std::vector<int>>(4, one_sender_twice);
    EXPECT_EQ(got[0], (std::vector<int>{10, 20, 11}));
}

TEST(Simulator, waiting_processes_resume_round_after_round) {
    const auto got = simulate<std::vector<int>>(5, ring);
    EXPECT_EQ(got[0], (std::vector<int>{400, 401, 402}));
    EXPECT_EQ(got[3], (std::vector<int>{200, 201, 202}));
}

TEST(Simulator, errors) {
    EXPECT_THROW(simulate<int>(2, wait_for_rank_1), SimulationDeadlock);
    EXPECT_THROW(simulate<int>(1, expect_twice), std::invalid_argument);
    EXPECT_THROW(simulate<int>(2, send_outside), std::out_of_range);
}
