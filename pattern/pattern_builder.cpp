#include "pattern/pattern_builder.h"

#include "matching/friendship_matrix.h"
#include "matching/group_matching.h"
#include "matching/pair_matching.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace nbrcomb::detail {

namespace {

// What a process tells each active out-neighbor after an iteration (paper 000 Alg. 1 lines 20,
// 26): the first value of the notice; an onloaded notice goes on with the group's members.
// A rides notice tells a member of our new group that our edge to it rides in our packet.
enum Notice : int { nothing = 0, onloaded = 1, offloaded = 2, done = 3, rides = 4 };

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

// What one iteration's search gave: a group, or none this time, or none ever again.
struct Search {
    std::optional<std::vector<int>> members;
    bool exhausted = false;
};

class PatternBuilder {
public:
    PatternBuilder(Transport& transport, const LocalGraph& graph, PatternSettings settings)
        : transport_(transport), graph_(graph), settings_(std::move(settings)),
          out_edge_(simple_edges(graph.destinations, graph.rank)),
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
            std::map<int, std::vector<int>> notices;  // out-neighbor -> notice
            for (const int rank : active_out_) notices[rank] = {nothing};
            const Friends friends = find_friends();  // lines 2, 24
            Search search;
            if (searching && !friends.empty()) search = co_await find_group(friends);  // line 6
            if (searching && (friends.empty() || search.exhausted)) {
                searching = false;  // lines 26-27: what is left goes direct
                for (const int rank : active_out_) {
                    notices[rank] = {done};
                    pattern_.direct.push_back(out_edge_.at(rank));
                }
                active_out_.clear();
            } else if (search.members) {
                combine_with(*search.members, notices);  // lines 8-18
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
        for (const int rank : active_in_) sends.push_back({rank, CombiningChannel::in_lists, mine});
        std::vector<Expected> from;
        for (const int rank : active_out_) from.push_back({rank, CombiningChannel::in_lists});
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

    // Active edges between this process and q, in either direction: with m common neighbors a
    // pair sends m + 2 - edges messages instead of 2m + edges, so it saves messages only when
    // m + edges > 2. (A larger group saves whenever m > k, which candidate groups require.)
    int edges_with(int q) const {
        return (active_out_.contains(q) ? 1 : 0) + (active_in_.contains(q) ? 1 : 0);
    }

    // Friends: processes in at least theta active rows, with whom a pair would save messages (and
    // in this process's domain when topology-aware), with how many rows (their weight), by rank.
    // Counting over all rows is the O(degree^2) step of the paper; shared_ keeps it a tight loop.
    Friends find_friends() {
        std::vector<int> seen;
        for (const auto& [rank, row] : rows_)
            for (const int q : *row)
                if (q != graph_.rank && shared_[static_cast<std::size_t>(q)]++ == 0) seen.push_back(q);
        std::sort(seen.begin(), seen.end());
        Friends friends;
        for (const int q : seen) {
            int& count = shared_[static_cast<std::size_t>(q)];
            if (count >= settings_.theta && count + edges_with(q) > 2 && nearby(q)) friends.push_back({q, count});
            count = 0;
        }
        return friends;
    }

    bool nearby(int rank) const {
        if (!settings_.domains) return true;
        const std::vector<int>& domain = *settings_.domains;
        return domain[static_cast<std::size_t>(rank)] == domain[static_cast<std::size_t>(graph_.rank)];
    }

    // Line 6: a pair by paper 000's matching, or a group of k by paper 002's.
    Task<Search> find_group(const Friends& friends) {
        const bool first = pattern_.cost.iterations == 1;
        if (settings_.grouping == Grouping::pairs) {
            if (first) pattern_.cost.hyperedges = friends.size();
            const MatchResult match = co_await match_pair(transport_, friends);
            pattern_.cost.matching_rounds += match.rounds;
            if (!match.partner) co_return Search{};
            co_return Search{std::vector<int>{std::min(graph_.rank, *match.partner), std::max(graph_.rank, *match.partner)}};
        }
        std::vector<Payload> rows;
        for (const auto& [rank, row] : rows_) rows.push_back(row);
        // k members with m common neighbors send m + (k-1)·min(m, k) messages instead of k·m:
        // a group saves only when m > k (paper 002, eq. 2).
        const int min_weight = std::max(settings_.theta, settings_.k + 1);
        CandidateGroups candidates =
            candidate_groups(graph_.rank, rows, friends, min_weight, settings_.k, settings_.max_hyperedges);
        const bool found_none = candidates.hyperedges.empty();
        ConfirmedGroups confirmed = co_await confirm_candidates(transport_, friends, std::move(candidates.hyperedges),
                                                                settings_.k, settings_.max_hyperedges);
        pattern_.cost.hyperedges_dropped += candidates.dropped + confirmed.dropped;
        if (first) pattern_.cost.hyperedges = confirmed.hyperedges.size();
        // Groups only lose common neighbors as neighbors are dealt with: none now, none later.
        // But a group the members' caps cut now may be confirmed later, when fewer compete, and
        // one our own search missed may come from a member whose search found it.
        if (found_none && confirmed.hyperedges.empty()) co_return Search{std::nullopt, true};
        const GroupMatchResult match = co_await match_group(transport_, std::move(confirmed.hyperedges));
        pattern_.cost.matching_rounds += match.rounds;
        if (!match.group) co_return Search{};
        co_return Search{match.group->members};
    }

    // Lines 8-18: the common out-neighbors, in rank order, split into one part per member in
    // member order; the first (size mod k) parts have one more, so every member splits alike.
    void combine_with(const std::vector<int>& members, std::map<int, std::vector<int>>& notices) {
        std::vector<int> common;  // ascending rank
        for (const int rank : active_out_)
            if (std::all_of(members.begin(), members.end(),
                            [&](int member) { return member == graph_.rank || in_row(rank, member); }))
                common.push_back(rank);
        GroupStep step{members, std::vector<std::vector<int>>(members.size()), 0,
                       std::vector<int>(members.size(), -1), std::vector<int>(members.size(), -1)};
        step.self = static_cast<std::size_t>(std::find(members.begin(), members.end(), graph_.rank) - members.begin());
        std::vector<int> onloaded_notice{onloaded};
        onloaded_notice.insert(onloaded_notice.end(), members.begin(), members.end());
        const std::size_t base = common.size() / members.size(), longer = common.size() % members.size();
        std::size_t next = 0;
        for (std::size_t part = 0; part < members.size(); ++part)
            for (std::size_t n = 0; n < base + (part < longer ? 1 : 0); ++n, ++next) {
                const int rank = common[next];
                step.parts[part].push_back(out_edge_.at(rank));
                notices[rank] = part == step.self ? onloaded_notice : std::vector<int>{offloaded};
                active_out_.erase(rank);
            }
        for (std::size_t i = 0; i < members.size(); ++i)
            if (i != step.self && active_out_.erase(members[i]) != 0) {
                step.to_member[i] = out_edge_.at(members[i]);
                notices[members[i]] = {rides};
            }
        pattern_.steps.push_back(std::move(step));
    }

    // Lines 20-21: tell active out-neighbors what happened, learn the same from active
    // in-neighbors; an in-neighbor that combined or finished is no longer active. Returns
    // whether any in-neighbor is still active.
    Task<bool> exchange_notices(const std::map<int, std::vector<int>>& notices) {
        std::map<std::vector<int>, Payload> payloads;  // notices repeat: share them
        std::vector<Outgoing> sends;
        for (const auto& [rank, notice] : notices) {
            Payload& payload = payloads[notice];
            if (!payload) payload = make_payload(notice);
            sends.push_back({rank, CombiningChannel::notices, payload});
        }
        std::vector<Expected> from;
        for (const int rank : active_in_) from.push_back({rank, CombiningChannel::notices});
        const auto received = co_await transport_.exchange(std::move(sends), std::move(from));

        std::size_t i = 0;
        for (const int rank : std::vector<int>(active_in_.begin(), active_in_.end())) {
            const std::vector<int>& notice = *received[i++];
            if (notice.at(0) == nothing) continue;
            if (notice.at(0) == onloaded) {
                IncomingMessage message{rank, {in_edge_.at(rank)}};  // the sender's block first
                for (std::size_t m = 1; m < notice.size(); ++m)
                    if (notice[m] != rank) message.in_edges.push_back(in_edge_.at(notice[m]));
                pattern_.incoming.push_back(std::move(message));
            }
            if (notice.at(0) == done) pattern_.incoming.push_back({rank, {in_edge_.at(rank)}});
            if (notice.at(0) == rides) rides_from(rank);
            active_in_.erase(rank);
        }
        co_return !active_in_.empty();
    }

    // Our edge from rank rides in its packet of the group we formed with it in this iteration.
    void rides_from(int rank) {
        if (pattern_.steps.empty()) throw std::logic_error("an edge rides with a group that does not exist");
        GroupStep& step = pattern_.steps.back();
        const auto member = std::find(step.members.begin(), step.members.end(), rank);
        if (member == step.members.end()) throw std::logic_error("an edge rides with a process outside the group");
        step.from_member[static_cast<std::size_t>(member - step.members.begin())] = in_edge_.at(rank);
    }

    Transport& transport_;
    const LocalGraph& graph_;
    const PatternSettings settings_;
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

Task<Pattern> build_pattern(Transport& transport, LocalGraph graph, PatternSettings settings) {
    PatternBuilder builder(transport, graph, std::move(settings));
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
