#include "schedule/schedule_cache.h"

namespace nbrcomb::detail {

std::shared_ptr<const Schedule> ScheduleCache::find(const ScheduleKey& key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->key == key) {
            entries_.splice(entries_.begin(), entries_, it);
            return entries_.front().schedule;
        }
    return nullptr;
}

std::shared_ptr<const Schedule> ScheduleCache::insert(ScheduleKey key, Schedule schedule) {
    if (entries_.size() == capacity) entries_.pop_back();
    entries_.push_front({std::move(key), std::make_shared<const Schedule>(std::move(schedule))});
    return entries_.front().schedule;
}

}  // namespace nbrcomb::detail
