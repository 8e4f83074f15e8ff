#include "schedule/schedule_cache.h"

#include <cstring>

namespace nbrcomb::detail {

namespace {

// A datatype handle as a number, whether the MPI makes handles pointers or integers.
std::intptr_t handle_bits(MPI_Datatype type) {
    static_assert(sizeof(MPI_Datatype) <= sizeof(std::intptr_t));
    std::intptr_t bits = 0;
    std::memcpy(&bits, &type, sizeof type);
    return bits;
}

void append(ScheduleKey& key, std::span<const Block> blocks) {
    key.push_back(static_cast<std::intptr_t>(blocks.size()));
    for (const Block& block : blocks) {
        key.push_back(static_cast<std::intptr_t>(block.at.space));
        key.push_back(block.at.offset);
        key.push_back(block.count);
        key.push_back(handle_bits(block.type));
        key.push_back(static_cast<std::intptr_t>(block.bytes));
    }
}

}  // namespace

ScheduleKey schedule_key(int collective, std::span<const Block> send, std::span<const Block> recv) {
    ScheduleKey key;
    key.reserve(2 + 5 * (send.size() + recv.size()) + 1);
    key.push_back(collective);
    append(key, send);
    append(key, recv);
    return key;
}

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
