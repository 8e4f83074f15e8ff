// The counters of nbrcomb_stats: each field is described once, in the registry of statistics.cpp
// (whether it sums over communicators, whether a reset keeps it, whether a duplicate starts with
// it; its type says how the report combines processes), and the counts of every call go through
// here; Phase 1, Phase 2 and reordering write theirs where they measure them. Adding a statistic:
// its field at the end of nbrcomb_stats (include/nbrcomb/nbrcomb.h), its row in the registry, the
// count where it happens, and its line in the report (src/shims/report.cpp) if the report shows it.
#pragma once

#include "nbrcomb/nbrcomb.h"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <vector>

namespace nbrcomb::detail {

struct Traffic;

// What native MPI sends for one call, one message per out-edge, for the statistics.
struct NativeTraffic {
    std::size_t messages = 0;
    std::size_t bytes = 0;
    // reorder=1: the bytes of it between nodes, with the old ranks and with the new ones.
    std::size_t internode_bytes_before = 0;
    std::size_t internode_bytes_after = 0;
    // Its messages and bytes between nodes, where the library knows the nodes.
    std::size_t internode_messages = 0;
    std::size_t internode_bytes = 0;
};


// A communicator's counters. Under MPI_THREAD_MULTIPLE one thread's call writes them while
// another thread's MPI call completes an operation of the communicator (the progress engine
// runs in whichever thread drives the MPI) and a third reads them (nbrcomb_comm_stats): every
// access then holds a lock. Below that level no two MPI calls run at once, and nothing locks.
class CommStatistics {
public:
    // The counters, locked until the access ends: `++stats.lock()->calls;` locks for the statement.
    class Access {
    public:
        explicit Access(CommStatistics& owner);
        nbrcomb_stats* operator->() const { return &owner_.stats_; }
        nbrcomb_stats& operator*() const { return owner_.stats_; }

    private:
        CommStatistics& owner_;
        std::unique_lock<std::mutex> lock_;
    };

    Access lock() { return Access(*this); }
    // A call left to the MPI, counted with the messages it sends (one per out-edge), without the
    // lock: only the thread in a collective call on the communicator counts, and MPI lets no two
    // collective calls on one communicator run at once (MPI 3.1 §12.4.2); the native route then
    // costs two adds. calls = -1 takes one back.
    void count_native_call(std::size_t out_edges, int calls = 1) {
        const auto added = static_cast<unsigned long long>(calls);  // modulo 2^64, as the counters wrap
        native_calls_.store(native_calls_.load(std::memory_order_relaxed) + added, std::memory_order_relaxed);
        native_call_messages_.store(native_call_messages_.load(std::memory_order_relaxed) + added * out_edges,
                                    std::memory_order_relaxed);
    }
    nbrcomb_stats snapshot() const;
    // The counters as nbrcomb_comm_reset_stats leaves them.
    void reset();

private:
    // First, in the line of the communicator's native route (communicator/topo_state.h).
    std::atomic<unsigned long long> native_calls_{0};
    std::atomic<unsigned long long> native_call_messages_{0};
    mutable std::mutex mutex_;
    nbrcomb_stats stats_{};  // but for the two above, which snapshot() adds
};

// sum += part, field by field where a field sums.
void add_statistics(nbrcomb_stats& sum, const nbrcomb_stats& part);

// What a reset leaves: the counters that describe the communicator rather than its calls
// (modes, Phase 1, reordering, auto mode's decisions).
nbrcomb_stats after_reset(const nbrcomb_stats& stats);

// What a duplicate starts with: the same, but for the decisions, which it takes afresh.
nbrcomb_stats for_duplicate(const nbrcomb_stats& stats);

// The counters (integers) of stats, in the registry's order; then the times (seconds).
std::vector<unsigned long long> counters_of(const nbrcomb_stats& stats);
std::vector<double> seconds_of(const nbrcomb_stats& stats);

// stats with the counters and times of counters_of and seconds_of set from values (its modes kept):
// what a reduction over processes gives back, summed counters and the slowest process's times.
nbrcomb_stats with_values(nbrcomb_stats stats, const std::vector<unsigned long long>& counters,
                          const std::vector<double>& seconds);

// Where each field of nbrcomb_stats ends (its offset and size), in the struct's order.
std::vector<std::size_t> field_ends();

// One call the library ran: what it sent, what native MPI would have, and its rounds.
void count_library_call(nbrcomb_stats& stats, const Traffic& sent, const NativeTraffic& native, std::size_t rounds);

}  // namespace nbrcomb::detail
