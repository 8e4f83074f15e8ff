// Who a process may combine with: the vocabulary of both matchings.
#pragma once

#include "matching/transport.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace nbrcomb::detail {

// (rank, weight) of each friend, ascending by rank; the weight is the number of active
// out-neighbors the two have in common.
using Friends = std::vector<std::pair<int, int>>;

// The channels the matchings talk on; a pattern that runs one numbers its own after them.
struct MatchingChannel {
    static constexpr Channel candidates = 0, choices = 1, states = 2, count = 3;
};

// A candidate group of k friends: an edge of the friendship hypergraph (paper 002 §IV-C).
struct Hyperedge {
    std::vector<int> members;  // this process included, ascending rank
    int weight = 0;            // active out-neighbors common to every member

    bool operator==(const Hyperedge&) const = default;
};

// A fixed pseudo-random number of a member list (splitmix64 steps), to break ties in weight.
inline std::uint64_t tie_breaker(const std::vector<int>& members) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const int member : members) {
        h += static_cast<std::uint64_t>(member) + 0x9e3779b97f4a7c15ULL;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
        h ^= h >> 31;
    }
    return h;
}

// The order every process ranks hyperedges by: heavier first, ties broken by tie_breaker, then
// by member list. All members of a hyperedge see it alike, which is what lets the matching make
// progress (the heaviest remaining hyperedge is every member's first choice). Breaking ties by
// rank instead would make equal-weight groups on a regular grid match one after the other in
// a wave across the grid; scattered tie-breaks let distant groups match in the same round.
inline bool heavier(const Hyperedge& a, const Hyperedge& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    const std::uint64_t ta = tie_breaker(a.members), tb = tie_breaker(b.members);
    if (ta != tb) return ta < tb;
    return a.members < b.members;
}

}  // namespace nbrcomb::detail
