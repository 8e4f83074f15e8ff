#include "matching/pair_matching.h"

#include <algorithm>

namespace nbrcomb::detail {

namespace {

enum State : int { searching = 0, paired = 1, terminal = 2 };
constexpr int no_choice = -1;

// Heaviest candidate, ties to the lower rank (Alg. 2 lines 4 and 18). candidate[i] says
// whether friends[i] may still be proposed to.
int heaviest(const Friends& friends, const std::vector<char>& candidate) {
    int best = no_choice, best_weight = 0;
    for (std::size_t i = 0; i < friends.size(); ++i)  // ascending rank: a strict > keeps the lower on ties
        if (candidate[i] && (best == no_choice || friends[i].second > best_weight)) {
            best = friends[i].first;
            best_weight = friends[i].second;
        }
    return best;
}

}  // namespace

Task<MatchResult> match_pair(Transport& transport, Friends friends) {
    const int self = transport.rank();
    std::vector<int> active;  // friends still searching, ascending: the ones we talk to
    for (const auto& [rank, weight] : friends) active.push_back(rank);
    std::vector<char> candidate(friends.size(), 1);  // friends we may still propose to
    std::vector<int> their_choice;  // last round's proposal of each active friend, aligned with active
    auto is_active = [&](int rank) { return std::binary_search(active.begin(), active.end(), rank); };
    auto index_of = [&](int rank) {
        return static_cast<std::size_t>(
            std::lower_bound(friends.begin(), friends.end(), std::pair{rank, 0}) - friends.begin());
    };
    MatchResult result;
    int choice = no_choice;
    State state = searching;

    while (state == searching) {
        if (active.empty()) {
            state = terminal;
            break;
        }
        if (result.rounds == 0) {
            choice = heaviest(friends, candidate);
        } else if (choice != no_choice && is_active(choice) && self < choice) {
            // Lines 7-8: our last choice still searches; the lower rank retries, the higher
            // rank moves, so that no cycle of processes retries forever.
        } else {
            int proposer = no_choice;  // line 11: a lower-ranked friend that proposed to us
            for (std::size_t i = 0; i < active.size() && active[i] < self; ++i)
                if (their_choice[i] == self) {
                    proposer = active[i];
                    break;
                }
            if (proposer != no_choice) {
                choice = proposer;
            } else {
                if (choice != no_choice) candidate[index_of(choice)] = 0;  // line 13
                for (std::size_t i = 0; i < friends.size(); ++i)
                    if (!is_active(friends[i].first)) candidate[i] = 0;
                choice = heaviest(friends, candidate);
                // Lines 14-15: the paper's test reads "F != empty"; giving up is meant for when
                // no friend is left to try.
                if (choice == no_choice) state = terminal;
            }
        }
        ++result.rounds;

        // Line 23: tell every active friend whom we propose to.
        const Payload proposal = make_payload({choice});
        const auto choices = co_await exchange_with_all(transport, active, MatchingChannel::choices, proposal);
        their_choice.clear();
        for (const Payload& proposal : choices) their_choice.push_back(proposal->at(0));
        if (state == searching && choice != no_choice &&
            their_choice[static_cast<std::size_t>(std::lower_bound(active.begin(), active.end(), choice) - active.begin())] ==
                self)
            state = paired;  // lines 24-25

        // Line 27: announce the outcome; line 28: stop talking to friends that are done.
        const Payload outcome = make_payload({state});
        const auto states = co_await exchange_with_all(transport, active, MatchingChannel::states, outcome);
        std::vector<int> still_searching, their_last_choice;
        for (std::size_t i = 0; i < active.size(); ++i)
            if (states[i]->at(0) == searching) {
                still_searching.push_back(active[i]);
                their_last_choice.push_back(their_choice[i]);
            }
        active = std::move(still_searching);
        their_choice = std::move(their_last_choice);
    }
    if (state == paired) result.partner = choice;
    co_return result;
}

}  // namespace nbrcomb::detail
