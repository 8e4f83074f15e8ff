// Distributed maximum-weight matching in the k-uniform friendship hypergraph (paper 002,
// Alg. 3, after Hoepman), in synchronous rounds over a Transport.
#pragma once

#include "matching/friends.h"
#include "matching/task.h"
#include "matching/transport.h"

#include <optional>

namespace nbrcomb::detail {

struct ConfirmedGroups {
    std::vector<Hyperedge> hyperedges;  // heaviest first
    unsigned long long dropped = 0;     // candidates beyond the cap
};

// Each process found its candidate groups on its own, and a cap may have kept a group at one
// member and dropped it at another. Every process tells each friend the candidates that
// contain it (MatchingChannel::candidates), pools its own with those it was told, keeps the cap
// heaviest, and tells the friends again; a candidate stays only if it is in the pool of every
// member. Afterwards a hyperedge is known to all its members or to none, which the matching
// needs, and a group one member found is known to the others even if their own search cut it.
Task<ConfirmedGroups> confirm_candidates(Transport& transport, const Friends& friends,
                                         std::vector<Hyperedge> candidates, int k, int cap);

struct GroupMatchResult {
    std::optional<Hyperedge> group;  // the group this process joined, if any
    int rounds = 0;
};

// hyperedges: confirmed, heaviest first. Each round every process with a hyperedge left
// proposes its heaviest one to the processes it shares hyperedges with (MatchingChannel::choices); a
// hyperedge all of whose members proposed it is matched, and its members say so
// (MatchingChannel::states), so that everyone drops the hyperedges that contain them (Alg. 3's drop
// messages). The heaviest hyperedge left anywhere is every member's first choice, so each round
// matches at least one group, and a process stops when it is grouped or has nothing left.
Task<GroupMatchResult> match_group(Transport& transport, std::vector<Hyperedge> hyperedges);

}  // namespace nbrcomb::detail
