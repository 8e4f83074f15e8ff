// The statistics of the benchmarking method of paper 004 (§3.2): outliers dropped by Tukey's
// fences, the median of each run, the median of the run medians, and a Wilcoxon rank-sum test on
// the run medians of two variants to call one slower than the other. No MPI.
#pragma once

#include <vector>

namespace nbrcomb::bench {

// The median; values must not be empty.
double median(std::vector<double> values);

// The p-quantile of sorted values (not empty) by linear interpolation between order statistics,
// R's default (type 7), which the paper's R scripts use for the quartiles.
double quantile(const std::vector<double>& sorted, double p);

// The values inside [q1 - 1.5 (q3 - q1), q3 + 1.5 (q3 - q1)], in ascending order.
std::vector<double> drop_outliers(std::vector<double> values);

// One-sided p-value of the Wilcoxon rank-sum (Mann-Whitney) test that sample tends to be larger
// than baseline: normal approximation with mid-ranks for ties, the tie correction of the variance
// and a continuity correction (R's wilcox.test with exact = FALSE). 1 when the test has no
// information (an empty sample, or all values tied).
double rank_sum_p_greater(const std::vector<double>& sample, const std::vector<double>& baseline);

// The paper's thresholds for a violation: significant at p <= 0.001 and at least 3% slower.
inline constexpr double slower_p_threshold = 0.001;
inline constexpr double slower_ratio_threshold = 1.03;

struct Comparison {
    double ratio = 1.0;     // median of sample / median of baseline
    double p_slower = 1.0;  // rank_sum_p_greater(sample, baseline)
    bool slower = false;    // both thresholds met
};

// Compares the run medians of a variant (sample) with those of the reference (baseline); neither
// may be empty.
Comparison compare_runs(const std::vector<double>& sample, const std::vector<double>& baseline);

}  // namespace nbrcomb::bench
