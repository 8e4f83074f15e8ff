#include "matching/friendship_matrix.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace nbrcomb::detail {

namespace {

using Word = std::uint64_t;
constexpr std::size_t word_bits = 64;

// Matrix A of Alg. 2 as bit rows: bit c of friend f's row says f is in rows[c].
class CommonNeighbors {
public:
    CommonNeighbors(std::span<const Payload> rows, const Friends& friends)
        : words_((rows.size() + word_bits - 1) / word_bits), bits_(friends.size() * words_, 0) {
        // Rows and friends are both ascending: one merge per row.
        for (std::size_t c = 0; c < rows.size(); ++c) {
            const std::vector<int>& row = *rows[c];
            auto in_row = row.begin();
            for (std::size_t f = 0; f < friends.size() && in_row != row.end(); ++f) {
                in_row = std::lower_bound(in_row, row.end(), friends[f].first);
                if (in_row != row.end() && *in_row == friends[f].first)
                    bits_[f * words_ + c / word_bits] |= Word{1} << (c % word_bits);
            }
        }
    }

    std::size_t words() const { return words_; }
    const Word* row(std::size_t f) const { return bits_.data() + f * words_; }

private:
    std::size_t words_;
    std::vector<Word> bits_;
};

// Groups of this process and `size` friends being grown, stored flat: group g's friend
// indices (ascending) are friends[g*size ..], the out-neighbors all its members share are
// common[g*words ..], and weight[g] counts them.
struct Groups {
    std::size_t size = 0, words = 0;
    std::vector<int> friends;
    std::vector<Word> common;
    std::vector<int> weight;
    int floor = 0;  // once the cap has cut, the lightest weight kept: anything lighter would be cut too

    std::size_t count() const { return weight.size(); }
    const int* friends_of(std::size_t g) const { return friends.data() + g * size; }
    const Word* common_of(std::size_t g) const { return common.data() + g * words; }

    void add(const int* group_friends, int extra_friend, const Word* shared, int shared_count) {
        friends.insert(friends.end(), group_friends, group_friends + (extra_friend < 0 ? size : size - 1));
        if (extra_friend >= 0) friends.push_back(extra_friend);
        common.insert(common.end(), shared, shared + words);
        weight.push_back(shared_count);
    }

    // Heavier first, then by friend indices: which of equally heavy groups the beam keeps
    // needs only to be deterministic.
    bool before(std::size_t a, std::size_t b) const {
        if (weight[a] != weight[b]) return weight[a] > weight[b];
        return std::lexicographical_compare(friends_of(a), friends_of(a) + size, friends_of(b), friends_of(b) + size);
    }

    // Keeps the cap first groups in before() order; counts the others.
    void keep_first(std::size_t cap, unsigned long long& dropped) {
        if (count() <= cap) return;
        std::vector<std::size_t> order(count());
        for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
        std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(cap), order.end(),
                         [this](std::size_t a, std::size_t b) { return before(a, b); });
        order.resize(cap);
        std::sort(order.begin(), order.end());  // gathering in place then never overwrites a kept group
        for (std::size_t to = 0; to < cap; ++to) {
            const std::size_t from = order[to];
            std::copy_n(friends_of(from), size, friends.data() + to * size);
            std::copy_n(common_of(from), words, common.data() + to * words);
            weight[to] = weight[from];
        }
        dropped += count() - cap;
        friends.resize(cap * size);
        common.resize(cap * words);
        weight.resize(cap);
        floor = *std::min_element(weight.begin(), weight.end());
    }
};

}  // namespace

CandidateGroups candidate_groups(int self, std::span<const Payload> rows, const Friends& friends, int min_weight,
                                 int k, int cap) {
    CandidateGroups result;
    const CommonNeighbors matrix(rows, friends);
    const std::size_t words = matrix.words(), limit = static_cast<std::size_t>(cap);

    Groups groups{1, words, {}, {}, {}};
    for (std::size_t f = 0; f < friends.size(); ++f) {
        if (friends[f].second < min_weight) continue;
        if (friends[f].second < groups.floor) {
            ++result.dropped;
            continue;
        }
        const int index = static_cast<int>(f);
        groups.add(&index, -1, matrix.row(f), friends[f].second);
        if (groups.count() >= 2 * limit) groups.keep_first(limit, result.dropped);  // bounds memory
    }
    groups.keep_first(limit, result.dropped);

    std::vector<Word> common(words);
    while (groups.size + 1 < static_cast<std::size_t>(k)) {
        Groups larger{groups.size + 1, words, {}, {}, {}};
        for (std::size_t g = 0; g < groups.count(); ++g) {
            const int* members = groups.friends_of(g);
            const Word* shared = groups.common_of(g);
            for (std::size_t f = static_cast<std::size_t>(members[groups.size - 1]) + 1; f < friends.size(); ++f) {
                const Word* extra = matrix.row(f);
                int weight = 0;
                for (std::size_t w = 0; w < words; ++w) {
                    common[w] = shared[w] & extra[w];
                    weight += std::popcount(common[w]);
                }
                if (weight < min_weight) continue;
                if (weight < larger.floor) {
                    ++result.dropped;
                    continue;
                }
                larger.add(members, static_cast<int>(f), common.data(), weight);
                if (larger.count() >= 2 * limit) larger.keep_first(limit, result.dropped);
            }
        }
        larger.keep_first(limit, result.dropped);
        groups = std::move(larger);
    }

    for (std::size_t g = 0; g < groups.count(); ++g) {
        Hyperedge edge{{self}, groups.weight[g]};
        for (std::size_t m = 0; m < groups.size; ++m)
            edge.members.push_back(friends[static_cast<std::size_t>(groups.friends_of(g)[m])].first);
        std::sort(edge.members.begin(), edge.members.end());
        result.hyperedges.push_back(std::move(edge));
    }
    std::sort(result.hyperedges.begin(), result.hyperedges.end(), heavier);
    return result;
}

}  // namespace nbrcomb::detail
