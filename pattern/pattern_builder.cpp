#include "pattern/pattern_builder.h"

#include "matching/pair_matching.h"

#include <algorithm>
#include <map>
#include <set>

namespace nbrcomb::detail {

namespace {

// What a process tells each active out-neighbor after an iteration (Alg. 1 lines 20, 26).
enum Notice : int { nothing = 0, onloaded = 1, offloaded = 2, done = 3 };

// Rank -> edge index of the edges that may be combined: to another process, and only one
// edge to it. Repeated edges and self-loops keep their own messages.
std::map<int, int> simple_edges(const std::vector<int>& ranks, int self) {
    std::map<int, int> occurrences, index;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        ++occurrences[ranks[i]];
        index[ranks[i]] = static_cast<int>(i);
    }
    std::erase_if(index, [&](const auto& entry) { return entry.first == self || occurrences[entry.first] > 1; });
    return index;
}

class PairPatternBuilder {
public:
    PairPatternBuilder(Transport& transport, const LocalGraph& graph, int theta)
        : transport_(transport), graph_(graph), theta_(theta), out_edge_(simple_edges(graph.destinations, graph.rank)),
          in_edge_(simple_edges(graph.sources, graph.rank)), shared_(static_cast<std::size_t>(transport.size()), 0) {
        for (const auto& [rank, index] : out_edge_) active_out_.insert(rank);
        for (const auto& [rank, index] : in_edge_) active_in_.insert(rank);
        for (std::size_t i = 0; i < graph.destinations.size(); ++i)
            if (!is_simple(out_edge_, graph.destinations[i], i)) pattern_.direct.push_back(static_cast<int>(i));
        for (std::size_t j = 0; j < graph.sources.size(); ++j)
            if (graph.sources[j] != graph.rank && !is_simple(in_edge_, graph.sources[j], j))
                pattern_.incoming.push_back({graph.sources[j], {static_cast<int>(j)}});
    }

    Task<Pattern> run() {
        co_await refresh_rows();  // line 1
        bool searching = true;  // in the main loop (line 4)
        while (true) {
            ++pattern_.cost.iterations;
            std::map<int, std::pair<int, int>> notices;  // out-neighbor -> (notice, friend)
            for (const int rank : active_out_) notices[rank] = {nothing, -1};
            const Friends friends = find_friends();  // lines 2, 24
            if (searching && friends.empty()) {
                searching = false;  // lines 26-27: what is left goes direct
                for (const int rank : active_out_) {
                    notices[rank] = {done, -1};
                    pattern_.direct.push_back(out_edge_.at(rank));
                }
                active_out_.clear();
            } else if (searching) {
                const MatchResult match = co_await match_pair(transport_, friends);  // line 6
                pattern_.cost.matching_rounds += match.rounds;
                if (match.partner) combine_with(*match.partner, notices);  // lines 8-18
            }
            const bool in_neighbors_left = co_await exchange_notices(notices);  // lines 20-21, 29
            if (!searching && !in_neighbors_left) break;
            co_await refresh_rows();  // line 23
        }
        std::sort(pattern_.direct.begin(), pattern_.direct.end());
        pattern_.cost.messages = transport_.stats().messages;
        pattern_.cost.bytes = transport_.stats().bytes;
        co_return std::move(pattern_);
    }

private:
    static bool is_simple(const std::map<int, int>& edges, int rank, std::size_t index) {
        const auto it = edges.find(rank);
        return it != edges.end() && it->second == static_cast<int>(index);
    }

    // Sections IV-B1 and IV-B3: every process sends its active in-neighbors, sorted, to each of
    // them and gets the lists of its active out-neighbors: the rows of M. A row is the list as
    // received, shared with every other process that got it.
    Task<bool> refresh_rows() {
        const Payload mine = make_payload(std::vector<int>(active_in_.begin(), active_in_.end()));
        std::vector<Outgoing> sends;
        for (const int rank : active_in_) sends.push_back({rank, Channel::in_lists, mine});
        std::vector<Expected> from;
        for (const int rank : active_out_) from.push_back({rank, Channel::in_lists});
        const auto received = co_await transport_.exchange(std::move(sends), std::move(from));
        rows_.clear();
        std::size_t i = 0;
        for (const int rank : active_out_) rows_.emplace(rank, received[i++]);
        co_return true;
    }

    bool in_row(int out_neighbor, int rank) const {
        const std::vector<int>& row = *rows_.at(out_neighbor);
        return std::binary_search(row.begin(), row.end(), rank);
    }

    // Friends: processes in at least theta active rows, with how many (their weight), by
    // rank. Counting over all rows is the O(degree^2) step of the paper; shared_ keeps it a
    // tight loop.
    Friends find_friends() {
        std::vector<int> seen;
        for (const auto& [rank, row] : rows_)
            for (const int q : *row)
                if (q != graph_.rank && shared_[static_cast<std::size_t>(q)]++ == 0) seen.push_back(q);
        std::sort(seen.begin(), seen.end());
        Friends friends;
        for (const int q : seen) {
            int& count = shared_[static_cast<std::size_t>(q)];
            if (count >= theta_) friends.push_back({q, count});
            count = 0;
        }
        return friends;
    }

    // Lines 8-18: the common out-neighbors, in rank order, split in halves; the lower rank
    // keeps the first half (the larger one when odd), so both friends split alike.
    void combine_with(int partner, std::map<int, std::pair<int, int>>& notices) {
        std::vector<int> common;  // ascending rank
        for (const int rank : active_out_)
            if (in_row(rank, partner)) common.push_back(rank);
        const std::size_t lower_share = (common.size() + 1) / 2;
        const bool lower = graph_.rank < partner;
        PairStep step{partner, {}, {}};
        for (std::size_t i = 0; i < common.size(); ++i) {
            const bool mine = (i < lower_share) == lower;
            (mine ? step.onloaded : step.offloaded).push_back(out_edge_.at(common[i]));
            notices[common[i]] = {mine ? onloaded : offloaded, partner};
            active_out_.erase(common[i]);
        }
        pattern_.steps.push_back(std::move(step));
    }

    // Lines 20-21: tell active out-neighbors what happened, learn the same from active
    // in-neighbors; an in-neighbor that combined or finished is no longer active. Returns
    // whether any in-neighbor is still active.
    Task<bool> exchange_notices(const std::map<int, std::pair<int, int>>& notices) {
        std::map<std::pair<int, int>, Payload> payloads;  // notices repeat: share them
        std::vector<Outgoing> sends;
        for (const auto& [rank, notice] : notices) {
            Payload& payload = payloads[notice];
            if (!payload) payload = make_payload({notice.first, notice.second});
            sends.push_back({rank, Channel::notices, payload});
        }
        std::vector<Expected> from;
        for (const int rank : active_in_) from.push_back({rank, Channel::notices});
        const auto received = co_await transport_.exchange(std::move(sends), std::move(from));

        std::size_t i = 0;
        for (const int rank : std::vector<int>(active_in_.begin(), active_in_.end())) {
            const int notice = received[i]->at(0), partner = received[i]->at(1);
            ++i;
            if (notice == nothing) continue;
            if (notice == onloaded) pattern_.incoming.push_back({rank, {in_edge_.at(rank), in_edge_.at(partner)}});
            if (notice == done) pattern_.incoming.push_back({rank, {in_edge_.at(rank)}});
            active_in_.erase(rank);
        }
        co_return !active_in_.empty();
    }

    Transport& transport_;
    const LocalGraph& graph_;
    const int theta_;
    const std::map<int, int> out_edge_;  // simple out-edges: rank -> index in destinations
    const std::map<int, int> in_edge_;   // simple in-edges: rank -> index in sources
    std::set<int> active_out_, active_in_;
    std::map<int, Payload> rows_;  // M: active out-neighbor -> its active in-neighbors
    // Scratch counters of find_friends, one per process of the communicator (like the rank
    // tables MPI itself keeps), all zero between calls.
    std::vector<int> shared_;
    Pattern pattern_;
};

}  // namespace

Task<Pattern> build_pair_pattern(Transport& transport, LocalGraph graph, int theta) {
    PairPatternBuilder builder(transport, graph, theta);
    co_return co_await builder.run();
}

Pattern direct_pattern(const LocalGraph& graph) {
    Pattern pattern;
    for (std::size_t i = 0; i < graph.destinations.size(); ++i) pattern.direct.push_back(static_cast<int>(i));
    for (std::size_t j = 0; j < graph.sources.size(); ++j)
        if (graph.sources[j] != graph.rank) pattern.incoming.push_back({graph.sources[j], {static_cast<int>(j)}});
    return pattern;
}

}  // namespace nbrcomb::detail
