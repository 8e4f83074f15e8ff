// The friendship hypergraph around one process (paper 002, Alg. 2): the groups of k processes,
// this one included, that share at least min_weight active out-neighbors.
#pragma once

#include "matching/friends.h"
#include "matching/transport.h"

#include <span>

namespace nbrcomb::detail {

struct CandidateGroups {
    std::vector<Hyperedge> hyperedges;  // heaviest first (see heavier)
    unsigned long long dropped = 0;     // partial or whole groups the cap discarded
};

// rows[c] lists the active in-neighbors (ascending) of active out-neighbor c: the matrix M.
// friends are the processes that may join a group (enough common out-neighbors, and on the
// same node in the topology-aware mode). Alg. 2 tries every combination of k-1
// friends, which grows as F^(k-1); here groups grow one member at a time and only the cap
// heaviest groups of each size are extended (a beam search): whenever there are at most cap
// groups of each size the result is exactly Alg. 2's, and the work is bounded by
// k * cap * F * |rows| / 64 word operations whatever the density.
CandidateGroups candidate_groups(int self, std::span<const Payload> rows, const Friends& friends, int min_weight,
                                 int k, int cap);

}  // namespace nbrcomb::detail
