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
