// The registry of statistics (src/base/statistics.cpp): every field is a counter, a time or a mode, and
// what the report reduces over processes comes back field by field.
#include "src/base/statistics.h"

#include <gtest/gtest.h>


using namespace nbrcomb::detail;

namespace {

// Statistics whose every counter and time differs from every other.
nbrcomb_stats distinct() {
    nbrcomb_stats stats{};
    std::vector<unsigned long long> counters = counters_of(stats);
    std::vector<double> seconds = seconds_of(stats);
    for (std::size_t i = 0; i < counters.size(); ++i) counters[i] = 100 + i;
    for (std::size_t i = 0; i < seconds.size(); ++i) seconds[i] = 0.5 + static_cast<double>(i);
    stats = with_values(stats, counters, seconds);
    stats.requested_mode = NBRCOMB_MODE_PAIRS;
    stats.mode = NBRCOMB_MODE_DIRECT;
    return stats;
}

}  // namespace

TEST(Statistics, every_field_is_a_counter_a_time_or_a_mode) {
    const nbrcomb_stats stats = distinct();
    EXPECT_EQ(stats.calls, counters_of(stats)[0]);  // the registry's order is the struct's
    EXPECT_EQ(stats.pattern_seconds, seconds_of(stats).front());
    const nbrcomb_stats again = with_values(nbrcomb_stats{}, counters_of(stats), seconds_of(stats));
    EXPECT_EQ(counters_of(again), counters_of(stats));
    EXPECT_EQ(seconds_of(again), seconds_of(stats));
    EXPECT_EQ(again.mode, NBRCOMB_MODE_OFF);  // modes are not reduced: the reporting process's stay
}

// The registry holds every field, in the struct's order: the fields' ends rise, and the last ends
// the struct but for its padding, whichever field a new statistic appends.
TEST(Statistics, the_registry_holds_every_field_in_order) {
    const std::vector<std::size_t> ends = field_ends();
    ASSERT_FALSE(ends.empty());
    for (std::size_t i = 1; i < ends.size(); ++i) EXPECT_LT(ends[i - 1], ends[i]) << "field " << i;
    const std::size_t alignment = alignof(nbrcomb_stats);
    EXPECT_EQ((ends.back() + alignment - 1) / alignment * alignment, sizeof(nbrcomb_stats));
}

TEST(Statistics, sums_keep_modes_and_add_the_rest) {
    nbrcomb_stats sum = distinct();
    add_statistics(sum, distinct());
    const auto once = counters_of(distinct()), twice = counters_of(sum);
    for (std::size_t i = 0; i < once.size(); ++i) EXPECT_EQ(twice[i], 2 * once[i]) << i;
    EXPECT_EQ(sum.mode, NBRCOMB_MODE_DIRECT);
}

TEST(Statistics, a_reset_keeps_what_describes_the_communicator) {
    const nbrcomb_stats reset = after_reset(distinct());
    EXPECT_EQ(reset.calls, 0u);
    EXPECT_EQ(reset.trial_calls, 0u);
    EXPECT_EQ(reset.pattern_messages, distinct().pattern_messages);
    EXPECT_EQ(reset.auto_trial, distinct().auto_trial);
    EXPECT_EQ(reset.mode, NBRCOMB_MODE_DIRECT);
    const nbrcomb_stats duplicate = for_duplicate(distinct());
    EXPECT_EQ(duplicate.auto_trial, 0u);  // a duplicate decides afresh
    EXPECT_EQ(duplicate.pattern_messages, distinct().pattern_messages);
}
