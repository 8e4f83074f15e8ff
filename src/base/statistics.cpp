#include "src/base/statistics.h"

#include "schedule/executor.h"

#include <cstddef>
#include <type_traits>

namespace nbrcomb::detail {

namespace {

// FIELD(name, sums over communicators, a reset keeps it, a duplicate starts with it), in the
// order of nbrcomb_stats.
#define NBRCOMB_STATISTICS(FIELD)                       \
    FIELD(requested_mode, false, true, true)            \
    FIELD(mode, false, true, true)                      \
    FIELD(calls, true, false, false)                    \
    FIELD(messages_sent, true, false, false)            \
    FIELD(bytes_sent, true, false, false)               \
    FIELD(native_messages, true, false, false)          \
    FIELD(native_bytes, true, false, false)             \
    FIELD(rounds, true, false, false)                   \
    FIELD(pattern_seconds, true, true, true)            \
    FIELD(pattern_messages, true, true, true)           \
    FIELD(pattern_exchanges, true, true, true)          \
    FIELD(pattern_hyperedges, true, true, true)         \
    FIELD(pattern_hyperedges_dropped, true, true, true) \
    FIELD(schedules_built, true, false, false)          \
    FIELD(schedule_seconds, true, false, false)         \
    FIELD(reorder_seconds, true, true, true)            \
    FIELD(edge_cut_before, true, true, true)            \
    FIELD(edge_cut_after, true, true, true)             \
    FIELD(internode_bytes_before, true, false, false)   \
    FIELD(internode_bytes_after, true, false, false)    \
    FIELD(reorder_tried, true, true, true)              \
    FIELD(reordered, true, true, true)                  \
    FIELD(native_calls, true, false, false)             \
    FIELD(native_call_messages, true, false, false)     \
    FIELD(auto_combined, true, true, false)             \
    FIELD(auto_native, true, true, false)               \
    FIELD(internode_messages, true, false, false)       \
    FIELD(internode_bytes, true, false, false)          \
    FIELD(native_internode_messages, true, false, false) \
    FIELD(native_internode_bytes, true, false, false)    \
    FIELD(global_calls, true, false, false)              \
    FIELD(device_calls, true, false, false)              \
    FIELD(auto_forced, true, true, false)                \
    FIELD(auto_rules, true, true, false)                 \
    FIELD(auto_trial, true, true, false)                 \
    FIELD(auto_estimate, true, true, false)              \
    FIELD(trial_calls, true, false, false)

// A field of nbrcomb_stats left out of the list would neither sum nor survive a reset.
#define NBRCOMB_FIELD_SIZE(name, sums, reset_keeps, duplicate_keeps) +sizeof(nbrcomb_stats::name)
static_assert(0 NBRCOMB_STATISTICS(NBRCOMB_FIELD_SIZE) == sizeof(nbrcomb_stats),
              "every field of nbrcomb_stats needs its row in NBRCOMB_STATISTICS");
#undef NBRCOMB_FIELD_SIZE

// The fields a reset (or a duplicate) keeps of stats, the others zero.
template <bool for_reset>
nbrcomb_stats kept(const nbrcomb_stats& stats) {
    nbrcomb_stats result{};
#define NBRCOMB_KEEP(name, sums, reset_keeps, duplicate_keeps) \
    if constexpr (for_reset ? reset_keeps : duplicate_keeps) result.name = stats.name;
    NBRCOMB_STATISTICS(NBRCOMB_KEEP)
#undef NBRCOMB_KEEP
    return result;
}

// How the report combines a field over processes: counters sum, times take the slowest
// process's, modes stay the reporting process's.
template <class T>
constexpr bool is_counter = std::is_integral_v<T>;
template <class T>
constexpr bool is_seconds = std::is_floating_point_v<T>;

template <class T>
void append_counter(std::vector<unsigned long long>& values, T field) {
    if constexpr (is_counter<T>) values.push_back(static_cast<unsigned long long>(field));
}

template <class T>
void append_seconds(std::vector<double>& values, T field) {
    if constexpr (is_seconds<T>) values.push_back(field);
}

// The field from the next counter or time, in the order append_counter and append_seconds gave them.
template <class T>
void set_value(T& field, const std::vector<unsigned long long>& counters, std::size_t& counter,
               const std::vector<double>& seconds, std::size_t& second) {
    if constexpr (is_counter<T>)
        field = static_cast<T>(counters.at(counter++));
    else if constexpr (is_seconds<T>)
        field = seconds.at(second++);
}

// A template, so that the modes, which do not sum, need no operator +=.
template <bool sums, class T>
void add_field(T& sum, const T& part) {
    if constexpr (sums) sum += part;
}

// Whether MPI calls may run at once in several threads; asked once the MPI is initialized,
// which it is wherever a communicator has counters.
bool threads_concurrent() {
    static const bool concurrent = [] {
        int level = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&level);
        return level == MPI_THREAD_MULTIPLE;
    }();
    return concurrent;
}

}  // namespace

CommStatistics::Access::Access(CommStatistics& owner)
    : owner_(owner), lock_(owner.mutex_, std::defer_lock) {
    if (threads_concurrent()) lock_.lock();
}

nbrcomb_stats CommStatistics::snapshot() const {
    std::unique_lock lock(mutex_, std::defer_lock);
    if (threads_concurrent()) lock.lock();
    nbrcomb_stats stats = stats_;
    stats.native_calls += native_calls_.load(std::memory_order_relaxed);
    stats.native_call_messages += native_call_messages_.load(std::memory_order_relaxed);
    return stats;
}

void CommStatistics::reset() {
    std::unique_lock lock(mutex_, std::defer_lock);
    if (threads_concurrent()) lock.lock();
    stats_ = after_reset(stats_);
    native_calls_.store(0, std::memory_order_relaxed);
    native_call_messages_.store(0, std::memory_order_relaxed);
}

void add_statistics(nbrcomb_stats& sum, const nbrcomb_stats& part) {
#define NBRCOMB_ADD(name, sums, reset_keeps, duplicate_keeps) add_field<sums>(sum.name, part.name);
    NBRCOMB_STATISTICS(NBRCOMB_ADD)
#undef NBRCOMB_ADD
}

std::vector<unsigned long long> counters_of(const nbrcomb_stats& stats) {
    std::vector<unsigned long long> values;
#define NBRCOMB_COUNTER(name, sums, reset_keeps, duplicate_keeps) append_counter(values, stats.name);
    NBRCOMB_STATISTICS(NBRCOMB_COUNTER)
#undef NBRCOMB_COUNTER
    return values;
}

std::vector<double> seconds_of(const nbrcomb_stats& stats) {
    std::vector<double> values;
#define NBRCOMB_SECONDS(name, sums, reset_keeps, duplicate_keeps) append_seconds(values, stats.name);
    NBRCOMB_STATISTICS(NBRCOMB_SECONDS)
#undef NBRCOMB_SECONDS
    return values;
}

nbrcomb_stats with_values(nbrcomb_stats stats, const std::vector<unsigned long long>& counters,
                          const std::vector<double>& seconds) {
    std::size_t counter = 0, second = 0;
#define NBRCOMB_SET(name, sums, reset_keeps, duplicate_keeps) set_value(stats.name, counters, counter, seconds, second);
    NBRCOMB_STATISTICS(NBRCOMB_SET)
#undef NBRCOMB_SET
    return stats;
}

std::vector<std::size_t> field_ends() {
    std::vector<std::size_t> ends;
#define NBRCOMB_END(name, sums, reset_keeps, duplicate_keeps) \
    ends.push_back(offsetof(nbrcomb_stats, name) + sizeof(nbrcomb_stats::name));
    NBRCOMB_STATISTICS(NBRCOMB_END)
#undef NBRCOMB_END
    return ends;
}

nbrcomb_stats after_reset(const nbrcomb_stats& stats) { return kept<true>(stats); }

nbrcomb_stats for_duplicate(const nbrcomb_stats& stats) { return kept<false>(stats); }

void count_library_call(nbrcomb_stats& stats, const Traffic& sent, const NativeTraffic& native, std::size_t rounds) {
    ++stats.calls;
    stats.rounds += rounds;
    if (sent.global_collectives > 0) {  // the MPI's messages: nothing to set against native MPI's
        ++stats.global_calls;
        return;
    }
    stats.messages_sent += sent.messages;
    stats.bytes_sent += sent.bytes;
    stats.native_messages += native.messages;
    stats.native_bytes += native.bytes;
    stats.internode_bytes_before += native.internode_bytes_before;
    stats.internode_bytes_after += native.internode_bytes_after;
    stats.internode_messages += sent.internode_messages;
    stats.internode_bytes += sent.internode_bytes;
    stats.native_internode_messages += native.internode_messages;
    stats.native_internode_bytes += native.internode_bytes;
}

}  // namespace nbrcomb::detail
