// The schedules of recent calls, kept for the calls that repeat their arguments: Phase 2 once.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <vector>

namespace nbrcomb::detail {

// Everything a schedule is built from besides the plan, as words (the caller's encoding of a
// call's arguments: src/route/call_args.h).
using CallKey = std::vector<std::intptr_t>;

// The most recently used calls of one communicator: their schedules and whatever the caller
// keeps with them.
template <class Call>
class CallCache {
public:
    static constexpr std::size_t capacity = 8;

    // The call stored under key, now the most recently used, or nullptr. Operations in flight
    // share ownership, so an eviction never pulls a schedule from under them.
    std::shared_ptr<const Call> find(const CallKey& key) {
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (it->key == key) {
                entries_.splice(entries_.begin(), entries_, it);
                return entries_.front().call;
            }
        return nullptr;
    }

    // Stores call under key, evicting the least recently used.
    std::shared_ptr<const Call> insert(CallKey key, Call call) {
        if (entries_.size() == capacity) entries_.pop_back();
        entries_.push_front({std::move(key), std::make_shared<const Call>(std::move(call))});
        return entries_.front().call;
    }

private:
    struct Entry {
        CallKey key;
        std::shared_ptr<const Call> call;
    };
    std::list<Entry> entries_;  // most recently used first
};

}  // namespace nbrcomb::detail
