// Built schedules kept for calls that repeat with the same arguments (Phase 2 once, not per call).
#pragma once

#include "schedule/schedule.h"

#include <cstdint>
#include <list>
#include <memory>
#include <span>
#include <vector>

namespace nbrcomb::detail {

// Everything a schedule is built from besides the pattern: which collective and every block
// (offset, count, datatype handle, bytes). Offsets and bytes come from the datatypes' extents
// and sizes at the time of the call, so a datatype freed and re-created under the same handle
// with another shape gets another key, and one with the same shape may share the schedule: it
// is the same schedule, since MPI applies the handle's current layout when the schedule runs.
using ScheduleKey = std::vector<std::intptr_t>;

ScheduleKey schedule_key(int collective, std::span<const Block> send, std::span<const Block> recv);

// The most recently used schedules of one communicator.
class ScheduleCache {
public:
    static constexpr std::size_t capacity = 8;

    // The schedule stored under key, now the most recently used, or nullptr. Operations in
    // flight share ownership, so an eviction never pulls a schedule from under them.
    std::shared_ptr<const Schedule> find(const ScheduleKey& key);
    // Stores schedule under key, evicting the least recently used.
    std::shared_ptr<const Schedule> insert(ScheduleKey key, Schedule schedule);

private:
    struct Entry {
        ScheduleKey key;
        std::shared_ptr<const Schedule> schedule;
    };
    std::list<Entry> entries_;  // most recently used first
};

}  // namespace nbrcomb::detail
