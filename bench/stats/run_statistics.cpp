#include "stats/run_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace nbrcomb::bench {

double median(std::vector<double> values) {
    std::ranges::sort(values);
    return quantile(values, 0.5);
}

double quantile(const std::vector<double>& sorted, double p) {
    const double position = p * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

std::vector<double> drop_outliers(std::vector<double> values) {
    if (values.empty()) return values;
    std::ranges::sort(values);
    const double q1 = quantile(values, 0.25);
    const double q3 = quantile(values, 0.75);
    const double low = q1 - 1.5 * (q3 - q1);
    const double high = q3 + 1.5 * (q3 - q1);
    std::erase_if(values, [&](double value) { return value < low || value > high; });
    return values;
}

double rank_sum_p_greater(const std::vector<double>& sample, const std::vector<double>& baseline) {
    const auto n1 = static_cast<double>(sample.size());
    const auto n2 = static_cast<double>(baseline.size());
    if (sample.empty() || baseline.empty()) return 1.0;

    // Pool both samples, remembering which one each value came from, and rank them.
    std::vector<std::pair<double, bool>> pooled;
    for (const double value : sample) pooled.emplace_back(value, true);
    for (const double value : baseline) pooled.emplace_back(value, false);
    std::ranges::sort(pooled, {}, &std::pair<double, bool>::first);

    double sample_rank_sum = 0.0;
    double tie_term = 0.0;  // sum of t^3 - t over groups of t tied values
    for (std::size_t first = 0; first < pooled.size();) {
        std::size_t end = first;
        while (end < pooled.size() && pooled[end].first == pooled[first].first) ++end;
        const double mid_rank = static_cast<double>(first + end + 1) / 2.0;  // ranks first+1 .. end
        for (std::size_t i = first; i < end; ++i)
            if (pooled[i].second) sample_rank_sum += mid_rank;
        const auto tied = static_cast<double>(end - first);
        tie_term += tied * tied * tied - tied;
        first = end;
    }

    const double n = n1 + n2;
    const double u = sample_rank_sum - n1 * (n1 + 1.0) / 2.0;
    const double variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if (variance <= 0.0) return 1.0;
    const double z = (u - n1 * n2 / 2.0 - 0.5) / std::sqrt(variance);
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

Comparison compare_runs(const std::vector<double>& sample, const std::vector<double>& baseline) {
    Comparison result;
    result.ratio = median(sample) / median(baseline);
    result.p_slower = rank_sum_p_greater(sample, baseline);
    result.slower = result.p_slower <= slower_p_threshold && result.ratio >= slower_ratio_threshold;
    return result;
}

}  // namespace nbrcomb::bench
