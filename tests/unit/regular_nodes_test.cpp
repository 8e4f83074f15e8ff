// Nodes found regular (consecutive ranks, all as many but the last) by one reduction of three ints
// per process, instead of gathering every rank's node: the layouts that are and those that are not.
#include "mapping/locality.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// What the reduction finds when every process of node k holds node_ranks[k] (in order).
int found_size(const std::vector<std::vector<int>>& node_ranks, int comm_size) {
    RegularNodes maximum{-comm_size, -comm_size, -comm_size};
    for (const std::vector<int>& ranks : node_ranks) {
        const bool consecutive = ranks.back() - ranks.front() == static_cast<int>(ranks.size()) - 1;
        const RegularNodes part = regular_nodes_part(ranks.front(), static_cast<int>(ranks.size()), consecutive, comm_size);
        for (std::size_t i = 0; i < maximum.size(); ++i) maximum[i] = std::max(maximum[i], part[i]);
    }
    return regular_node_size(maximum);
}

std::vector<int> ranks_from(int first, int count) {
    std::vector<int> ranks;
    for (int r = first; r < first + count; ++r) ranks.push_back(r);
    return ranks;
}

}  // namespace

TEST(RegularNodes, blocks_of_one_size_are_regular) {
    EXPECT_EQ(found_size({ranks_from(0, 4), ranks_from(4, 4), ranks_from(8, 4)}, 12), 4);
}

TEST(RegularNodes, a_smaller_last_node_is_regular) {
    EXPECT_EQ(found_size({ranks_from(0, 4), ranks_from(4, 4), ranks_from(8, 2)}, 10), 4);
}

TEST(RegularNodes, one_node_is_regular) { EXPECT_EQ(found_size({ranks_from(0, 6)}, 6), 6); }

TEST(RegularNodes, a_larger_last_node_is_not) {
    EXPECT_EQ(found_size({ranks_from(0, 2), ranks_from(2, 4)}, 6), 0);
}

TEST(RegularNodes, a_smaller_node_before_the_last_is_not) {
    EXPECT_EQ(found_size({ranks_from(0, 4), ranks_from(4, 2), ranks_from(6, 4)}, 10), 0);
}

TEST(RegularNodes, ranks_dealt_round_robin_are_not) {
    EXPECT_EQ(found_size({{0, 2, 4}, {1, 3, 5}}, 6), 0);
}
