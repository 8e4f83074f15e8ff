#include "matching/group_matching.h"

#include <algorithm>
#include <map>

namespace nbrcomb::detail {

namespace {

enum State : int { searching = 0, grouped = 1 };

// Everyone this process shares a hyperedge with, ascending.
std::vector<int> peers_of(const std::vector<Hyperedge>& hyperedges, int self) {
    std::vector<int> peers;
    for (const Hyperedge& edge : hyperedges)
        for (const int member : edge.members)
            if (member != self) peers.push_back(member);
    std::sort(peers.begin(), peers.end());
    peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
    return peers;
}

// Sends each friend weight and members of every hyperedge that contains it and returns what
// each friend sent, as hyperedges in heavier() order.
Task<std::map<int, std::vector<Hyperedge>>> tell_members(Transport& transport, const Friends& friends,
                                                         const std::vector<Hyperedge>& hyperedges, int k) {
    const int self = transport.rank();
    std::map<int, std::vector<int>> told;
    for (const auto& [rank, weight] : friends) told[rank];
    for (const Hyperedge& edge : hyperedges)
        for (const int member : edge.members)
            if (member != self) {
                std::vector<int>& payload = told.at(member);
                payload.push_back(edge.weight);
                payload.insert(payload.end(), edge.members.begin(), edge.members.end());
            }
    std::vector<Outgoing> sends;
    std::vector<Expected> from;
    for (auto& [rank, payload] : told) {
        sends.push_back({rank, MatchingChannel::candidates, make_payload(std::move(payload))});
        from.push_back({rank, MatchingChannel::candidates});
    }
    const auto received = co_await transport.exchange(std::move(sends), std::move(from));

    const auto stride = static_cast<std::ptrdiff_t>(k) + 1;
    std::map<int, std::vector<Hyperedge>> theirs;
    std::size_t i = 0;
    for (const auto& [rank, weight] : friends) {
        const std::vector<int>& payload = *received[i++];
        std::vector<Hyperedge>& list = theirs[rank];
        for (auto at = payload.begin(); payload.end() - at >= stride; at += stride)
            list.push_back({{at + 1, at + stride}, *at});
        std::sort(list.begin(), list.end(), heavier);
    }
    co_return theirs;
}

}  // namespace

Task<ConfirmedGroups> confirm_candidates(Transport& transport, const Friends& friends,
                                         std::vector<Hyperedge> candidates, int k, int cap) {
    ConfirmedGroups result;
    // Everyone learns the candidates that contain it.
    const auto proposed = co_await tell_members(transport, friends, candidates, k);
    std::vector<Hyperedge> pool = std::move(candidates);
    for (const auto& [rank, list] : proposed) pool.insert(pool.end(), list.begin(), list.end());
    std::sort(pool.begin(), pool.end(), heavier);
    pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
    if (pool.size() > static_cast<std::size_t>(cap)) {
        result.dropped = pool.size() - static_cast<std::size_t>(cap);
        pool.resize(static_cast<std::size_t>(cap));
    }
    // A candidate stays if it is in the pool of every member.
    const auto pooled = co_await tell_members(transport, friends, pool, k);
    const int self = transport.rank();
    std::erase_if(pool, [&](const Hyperedge& edge) {
        return std::any_of(edge.members.begin(), edge.members.end(), [&](int member) {
            if (member == self) return false;
            const std::vector<Hyperedge>& list = pooled.at(member);
            return !std::binary_search(list.begin(), list.end(), edge, heavier);
        });
    });
    result.hyperedges = std::move(pool);
    co_return result;
}

Task<GroupMatchResult> match_group(Transport& transport, std::vector<Hyperedge> hyperedges) {
    const int self = transport.rank();
    GroupMatchResult result;
    std::vector<int> peers = peers_of(hyperedges, self);
    while (!hyperedges.empty()) {
        ++result.rounds;
        const Hyperedge& choice = hyperedges.front();
        const Payload proposal = make_payload(choice.members);
        const auto choices = co_await exchange_with_all(transport, peers, MatchingChannel::choices, proposal);
        bool mutual = true;
        for (const int member : choice.members) {
            if (member == self) continue;
            const auto at = std::lower_bound(peers.begin(), peers.end(), member) - peers.begin();
            mutual = mutual && *choices[static_cast<std::size_t>(at)] == choice.members;
        }
        const Payload state = make_payload({mutual ? grouped : searching});
        const auto states = co_await exchange_with_all(transport, peers, MatchingChannel::states, state);
        if (mutual) {
            result.group = choice;
            break;
        }
        std::vector<int> gone;  // grouped elsewhere: drop every hyperedge with them
        for (std::size_t p = 0; p < peers.size(); ++p)
            if (states[p]->at(0) == grouped) gone.push_back(peers[p]);
        if (gone.empty()) continue;
        std::erase_if(hyperedges, [&](const Hyperedge& edge) {
            return std::any_of(edge.members.begin(), edge.members.end(),
                               [&](int member) { return std::binary_search(gone.begin(), gone.end(), member); });
        });
        peers = peers_of(hyperedges, self);
    }
    co_return result;
}

}  // namespace nbrcomb::detail
