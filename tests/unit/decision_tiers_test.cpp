#include "src/decision_tiers.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nbrcomb::detail;

// A candidate is raced when the estimate puts it below native and near the best; the library's
// own one message per edge (NaN), which native MPI's is, never is.
TEST(DecisionTiers, the_estimate_races_what_might_win) {
    EXPECT_EQ(estimated_contenders({NAN, 6.0, 12.0, 8.0}, 10.0), (std::vector<int>{1, 3})) << "12 is above native's 10";
    EXPECT_TRUE(estimated_contenders({NAN, 10.0}, 10.0).empty()) << "no better than native";
    EXPECT_EQ(estimated_contenders({NAN, 4.0, 7.0}, 10.0), (std::vector<int>{1})) << "7 is beyond 1.5 times 4";
}

// Bandwidth-bound: every candidate forwards each byte again, so none can beat native, and the shape
// runs no trial.
TEST(DecisionTiers, nothing_is_raced_where_no_candidate_can_beat_native) {
    EXPECT_TRUE(estimated_contenders({NAN, 20.0, 25.0}, 10.0).empty());
    EXPECT_TRUE(estimated_contenders({NAN, 10.5}, 10.0).empty());
    EXPECT_TRUE(estimated_contenders({NAN}, 10.0).empty());
}

TEST(DecisionTiers, at_most_three_are_raced_fastest_first) {
    EXPECT_EQ(estimated_contenders({5.0, 4.0, 4.5, 3.9, NAN}, 10.0), (std::vector<int>{3, 1, 2}));
}

namespace {

// Estimates that take at_zero microseconds at 0 B and per_byte more per block byte (one round
// within a node), for both kinds of blocks.
KindCosts line(double at_zero, double per_byte) {
    const MessageOverheads overheads;
    RoundCosts costs;
    costs.overhead[0] = at_zero - overheads.wire_local;
    costs.local_blocks[0] = per_byte / overheads.byte_local;
    return {costs, costs};
}

constexpr std::array<double, 2> both_kinds{INFINITY, INFINITY};

}  // namespace

// A costly candidate is planned only where its best case beats every planned estimate, native's
// included, by the trial's 5 % somewhere.
TEST(DecisionTiers, plans_what_can_still_win) {
    const KindCosts native = line(20, 0.05), grid = line(7, 0.02);
    EXPECT_FALSE(can_still_win(line(7, 0.02), {native, grid}, both_kinds)) << "equal to the grid's: no gain";
    EXPECT_FALSE(can_still_win(line(6.8, 0.02), {native, grid}, both_kinds)) << "3 % better: within the noise";
    EXPECT_TRUE(can_still_win(line(6, 0.02), {native, grid}, both_kinds));
    EXPECT_TRUE(can_still_win(line(30, 0), {native, grid}, both_kinds)) << "the best at large blocks";
    EXPECT_TRUE(can_still_win(line(1, 1), {}, both_kinds)) << "nothing else planned";
}

// Where the lowest of the others changes between the small blocks' and the large blocks' winners,
// the best case must beat the lower of the two at their crossing.
TEST(DecisionTiers, judged_where_the_others_cross) {
    const KindCosts small_blocks = line(5, 0.02), large_blocks = line(15, 0.01);  // cross at 1000 B
    EXPECT_FALSE(can_still_win(line(10, 0.015), {small_blocks, large_blocks}, both_kinds)) << "25 us at 1000 B: equal";
    EXPECT_TRUE(can_still_win(line(8, 0.015), {small_blocks, large_blocks}, both_kinds)) << "23 us at 1000 B";
}

// Only the kinds of blocks the communicator's calls have had count, up to their largest.
TEST(DecisionTiers, judged_on_the_blocks_called) {
    KindCosts best_case = line(6, 0.02);
    best_case[1] = line(30, 0.05)[1];
    const KindCosts grid = line(7, 0.02);
    EXPECT_TRUE(can_still_win(best_case, {grid}, {16, -1}));
    EXPECT_FALSE(can_still_win(best_case, {grid}, {-1, 16}));
    const KindCosts small_blocks = line(5, 0.02);
    const KindCosts flatter = line(30, 0.001);  // below 0.95 times small_blocks' from about 1400 B
    EXPECT_FALSE(can_still_win(flatter, {small_blocks}, {1024, -1}));
    EXPECT_TRUE(can_still_win(flatter, {small_blocks}, {4096, -1}));
    EXPECT_TRUE(can_still_win(flatter, {small_blocks}, both_kinds));
}
