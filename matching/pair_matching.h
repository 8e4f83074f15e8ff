// Distributed maximum-weight matching of friends into pairs (paper 000, Alg. 2, after Hoepman).
#pragma once

#include "matching/friends.h"
#include "matching/task.h"
#include "matching/transport.h"

#include <optional>

namespace nbrcomb::detail {

struct MatchResult {
    std::optional<int> partner;  // the friend this process paired with, if any
    int rounds = 0;
};

// friends lists each friend with its weight. Friendship must be
// symmetric with equal weights on both ends, and every friend must run this in the same
// iteration. Each round every searching process proposes to one friend over MatchingChannel::choices,
// then announces whether it paired, gave up or still searches over MatchingChannel::states. A process
// proposes its heaviest friend (ties to the lower rank); later it retries its last choice only
// if that friend still searches and has the higher rank, else accepts a lower-ranked friend
// that proposed to it, else drops its last choice and proposes its heaviest remaining one.
// The rank rules break cycles, and each process either pairs or exhausts its friends, so the
// rounds are bounded by the number of friends plus one.
Task<MatchResult> match_pair(Transport& transport, Friends friends);

}  // namespace nbrcomb::detail
