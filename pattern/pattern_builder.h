// Distributed extraction of the message-combining pattern (paper 000 Alg. 1 for pairs, paper
// 002 Alg. 1 for groups of k).
#pragma once

#include "matching/friends.h"
#include "matching/task.h"
#include "matching/transport.h"
#include "pattern/pattern.h"

#include <memory>

namespace nbrcomb::detail {

// The channels of Phase 1 of pairs and groups and of its check, after the matching's.
struct CombiningChannel {
    static constexpr Channel in_lists = MatchingChannel::count, notices = in_lists + 1, checks = in_lists + 2,
                             count = in_lists + 3;
};

enum class Grouping {
    pairs,       // friends pair up by the matching of paper 000 (Alg. 2)
    hypergraph,  // groups of k by the hypergraph matching of paper 002 (Algs. 2 and 3)
};

struct PatternSettings {
    int theta = 4;  // common active out-neighbors that make a friend (and a group, which needs more than k)
    Grouping grouping = Grouping::pairs;
    int k = 2;                 // group size for Grouping::hypergraph
    int max_hyperedges = 256;  // candidate groups a process keeps per iteration (see candidate_groups)
    // Topology-aware mode (paper 002 §IV-B): (*domains)[r] is rank r's locality domain and
    // friends must share one. Null: topology-agnostic.
    std::shared_ptr<const std::vector<int>> domains{};
};

// Run by every process of the topology at once, each with its own edges. Friends share at
// least theta active out-neighbors; they form pairs or groups, split their common out-neighbors
// by rank order, and repeat until no process has a group left. Only simple edges (not
// self-loops, not repeated) are combined; the others stay direct. No process learns more than
// its out-neighbors' in-neighbor lists (O(degree^2)).
Task<Pattern> build_pattern(Transport& transport, LocalGraph graph, PatternSettings settings);

// The pattern of the direct schedule: every edge its own message.
Pattern direct_pattern(const LocalGraph& graph);

}  // namespace nbrcomb::detail
