#include "stats/run_statistics.h"

#include <gtest/gtest.h>

#include <vector>

using nbrcomb::bench::compare_runs;
using nbrcomb::bench::drop_outliers;
using nbrcomb::bench::median;
using nbrcomb::bench::quantile;
using nbrcomb::bench::rank_sum_p_greater;

TEST(RunStatistics, median_of_odd_and_even_counts) {
    EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
}

TEST(RunStatistics, quantiles_interpolate_like_r_type_7) {
    const std::vector<double> sorted{1.0, 2.0, 3.0, 4.0, 100.0};
    EXPECT_DOUBLE_EQ(quantile(sorted, 0.25), 2.0);
    EXPECT_DOUBLE_EQ(quantile(sorted, 0.75), 4.0);
    // quantile(c(1, 2, 3, 4), 0.25) in R: 1.75.
    EXPECT_DOUBLE_EQ(quantile({1.0, 2.0, 3.0, 4.0}, 0.25), 1.75);
}

TEST(RunStatistics, tukey_fences_drop_far_values_only) {
    // q1 = 2, q3 = 4: the fences are -1 and 7.
    EXPECT_EQ(drop_outliers({4.0, 100.0, 1.0, 3.0, 2.0}), (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
    EXPECT_EQ(drop_outliers({-5.0, 1.0, 2.0, 3.0, 4.0}), (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
    EXPECT_EQ(drop_outliers({2.0, 2.0, 2.0}), (std::vector<double>{2.0, 2.0, 2.0}));
    EXPECT_TRUE(drop_outliers({}).empty());
}

TEST(RunStatistics, rank_sum_of_separated_samples) {
    // U = 9 of 9, mean 4.5, variance 5.25: z = (9 - 4.5 - 0.5) / sqrt(5.25) = 1.7457.
    EXPECT_NEAR(rank_sum_p_greater({4.0, 5.0, 6.0}, {1.0, 2.0, 3.0}), 0.0404278, 1e-6);
    // The other direction is no evidence at all.
    EXPECT_GT(rank_sum_p_greater({1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}), 0.95);
}

TEST(RunStatistics, rank_sum_uses_mid_ranks_and_the_tie_correction) {
    // Pooled 1, 2, 2, 2, 2, 3: ranks 1, 3.5 (four times), 6; the sample's sum is 13, U = 7;
    // one group of four ties takes 60 / 30 off the variance's 7: 3.75, z = 1.0328.
    EXPECT_NEAR(rank_sum_p_greater({2.0, 2.0, 3.0}, {1.0, 2.0, 2.0}), 0.1508498, 1e-6);
    EXPECT_DOUBLE_EQ(rank_sum_p_greater({1.0, 1.0}, {1.0, 1.0}), 1.0);
    EXPECT_DOUBLE_EQ(rank_sum_p_greater({}, {1.0}), 1.0);
}

TEST(RunStatistics, slower_needs_significance_and_three_percent) {
    const std::vector<double> baseline{10.00, 10.01, 10.02, 10.03, 10.04, 10.05, 10.06, 10.07};
    std::vector<double> much_slower;
    std::vector<double> barely_slower;
    for (const double value : baseline) {
        much_slower.push_back(value * 1.5);
        barely_slower.push_back(value + 0.1);  // all above the baseline, but 1% slower
    }
    const auto slow = compare_runs(much_slower, baseline);
    EXPECT_NEAR(slow.ratio, 1.5, 1e-12);
    EXPECT_NEAR(slow.p_slower, 0.00046955, 1e-7);  // U = 64 of 64 with 8 runs each
    EXPECT_TRUE(slow.slower);
    const auto barely = compare_runs(barely_slower, baseline);
    EXPECT_LE(barely.p_slower, 0.001);
    EXPECT_FALSE(barely.slower);
    EXPECT_FALSE(compare_runs(baseline, much_slower).slower);
    // Five runs cannot reach p <= 0.001 whatever they measure.
    EXPECT_FALSE(compare_runs({20.0, 21.0, 22.0, 23.0, 24.0}, {1.0, 2.0, 3.0, 4.0, 5.0}).slower);
}
