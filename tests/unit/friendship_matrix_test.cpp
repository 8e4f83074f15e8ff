#include "matching/friendship_matrix.h"

#include <gtest/gtest.h>

using namespace nbrcomb::detail;

namespace {

// Process 0's out-neighbors and who else sends to each: rows of M.
std::vector<Payload> rows(const std::vector<std::vector<int>>& lists) {
    std::vector<Payload> result;
    for (const auto& list : lists) result.push_back(make_payload(list));
    return result;
}

}  // namespace

// 1 and 2 share 4 out-neighbors with 0, 3 shares 2; groups of three need 1 and 2 together.
TEST(FriendshipMatrix, groups_are_the_combinations_with_enough_common_neighbors) {
    const auto m = rows({{1, 2, 3}, {1, 2, 3}, {1, 2}, {1, 2}, {2}, {1}});
    const Friends friends{{1, 5}, {2, 5}, {3, 2}};
    const CandidateGroups pairs = candidate_groups(0, m, friends, 3, 2, 100);
    ASSERT_EQ(pairs.hyperedges.size(), 2u);
    EXPECT_EQ(pairs.hyperedges[0], (Hyperedge{{0, 1}, 5}));
    EXPECT_EQ(pairs.hyperedges[1], (Hyperedge{{0, 2}, 5}));

    const CandidateGroups triples = candidate_groups(0, m, friends, 2, 3, 100);
    ASSERT_EQ(triples.hyperedges.size(), 3u);
    EXPECT_EQ(triples.hyperedges[0], (Hyperedge{{0, 1, 2}, 4}));
    EXPECT_EQ(triples.hyperedges[1], (Hyperedge{{0, 1, 3}, 2}));
    EXPECT_EQ(triples.hyperedges[2], (Hyperedge{{0, 2, 3}, 2}));
    EXPECT_EQ(triples.dropped, 0u);

    EXPECT_TRUE(candidate_groups(0, m, friends, 5, 3, 100).hyperedges.empty());
    const CandidateGroups whole = candidate_groups(0, m, friends, 2, 4, 100);
    ASSERT_EQ(whole.hyperedges.size(), 1u);
    EXPECT_EQ(whole.hyperedges[0], (Hyperedge{{0, 1, 2, 3}, 2}));
}

// The cap keeps the heaviest candidates of each size and counts the rest.
TEST(FriendshipMatrix, the_cap_keeps_the_heaviest) {
    std::vector<std::vector<int>> lists(70);
    Friends friends;
    for (int f = 1; f <= 60; ++f) {
        for (int c = 0; c < f; ++c) lists[static_cast<std::size_t>(c)].push_back(f);  // friend f shares c < f
        friends.push_back({f, f});
    }
    const CandidateGroups capped = candidate_groups(0, rows(lists), friends, 1, 3, 10);
    ASSERT_EQ(capped.hyperedges.size(), 10u);
    EXPECT_EQ(capped.hyperedges.front(), (Hyperedge{{0, 59, 60}, 59}));
    EXPECT_GT(capped.dropped, 0u);
    for (std::size_t i = 1; i < capped.hyperedges.size(); ++i)
        EXPECT_TRUE(heavier(capped.hyperedges[i - 1], capped.hyperedges[i]));
}
