// Built schedules kept for calls that repeat with the same arguments (Phase 2 once, not per call).
#pragma once

#include "schedule/schedule.h"

#include <cstdint>
#include <list>
#include <memory>
#include <vector>

namespace nbrcomb::detail {

// Everything a schedule is built from besides the pattern, as words (the caller's encoding of
// a call's arguments: src/call_args.h).
using ScheduleKey = std::vector<std::intptr_t>;

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
