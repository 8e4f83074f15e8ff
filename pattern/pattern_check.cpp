#include "pattern/pattern_check.h"

#include "pattern/pattern_builder.h"

#include <algorithm>
#include <map>
#include <set>

namespace nbrcomb::detail {

namespace {

enum Fate : int { unknown = -1, direct = 0, in_my_message = 1, in_friend_message = 2, in_packet = 3 };

// How an out-edge is delivered: carrier is who sends its block in a combined message (or, for
// in_packet, the member our packet brings it to); group is the carrier's group, for in_my_message.
struct Claim {
    int fate = unknown;
    int carrier = -1;
    std::vector<int> group;
};

std::string edge_name(int from, int to) { return std::to_string(from) + "->" + std::to_string(to); }

}  // namespace

std::size_t messages_per_call(const LocalGraph& graph, const Pattern& pattern) {
    std::size_t messages = 0;
    for (const int edge : pattern.direct)
        if (graph.destinations[static_cast<std::size_t>(edge)] != graph.rank) ++messages;
    for (const GroupStep& step : pattern.steps)
        for (std::size_t i = 0; i < step.members.size(); ++i)
            messages += i == step.self ? step.parts[i].size() : (step.sends_packet(i) ? 1 : 0);
    return messages;
}

Task<std::vector<std::string>> check_pattern(Transport& transport, LocalGraph graph, Pattern pattern) {
    std::vector<std::string> problems;
    const int self = graph.rank;

    // Every out-edge has exactly one fate.
    std::vector<Claim> claims(graph.destinations.size());
    auto claim = [&](int edge, Claim fate) {
        if (edge < 0 || static_cast<std::size_t>(edge) >= claims.size()) {
            problems.push_back("out-edge index " + std::to_string(edge) + " out of range");
            return;
        }
        Claim& slot = claims[static_cast<std::size_t>(edge)];
        if (slot.fate != unknown)
            problems.push_back("edge " + edge_name(self, graph.destinations[static_cast<std::size_t>(edge)]) +
                               " has two fates");
        slot = fate;
    };
    for (const int edge : pattern.direct) claim(edge, {direct, -1, {}});
    for (const GroupStep& step : pattern.steps)
        for (std::size_t i = 0; i < step.members.size(); ++i) {
            for (const int edge : step.parts[i])
                claim(edge, i == step.self ? Claim{in_my_message, self, step.members}
                                           : Claim{in_friend_message, step.members[i], {}});
            if (i != step.self && step.to_member[i] >= 0) {
                if (graph.destinations[static_cast<std::size_t>(step.to_member[i])] != step.members[i])
                    problems.push_back("an edge rides in the packet to a member it does not lead to");
                claim(step.to_member[i], {in_packet, step.members[i], {}});
            }
        }
    for (std::size_t i = 0; i < claims.size(); ++i)
        if (claims[i].fate == unknown) problems.push_back("edge " + edge_name(self, graph.destinations[i]) + " is never sent");
    std::size_t native = 0;
    for (const int destination : graph.destinations) native += destination != self ? 1 : 0;
    if (messages_per_call(graph, pattern) > native)
        problems.push_back("sends " + std::to_string(messages_per_call(graph, pattern)) + " messages, native sends " +
                           std::to_string(native));

    // Tell each out-neighbor the fates of our edges to it, in edge order: fate, carrier,
    // group size, group.
    std::map<int, std::vector<int>> told;
    for (std::size_t i = 0; i < claims.size(); ++i) {
        const int to = graph.destinations[i];
        if (to == self) continue;
        std::vector<int>& payload = told[to];
        payload.insert(payload.end(), {claims[i].fate, claims[i].carrier, static_cast<int>(claims[i].group.size())});
        payload.insert(payload.end(), claims[i].group.begin(), claims[i].group.end());
    }
    std::vector<Outgoing> sends;
    for (auto& [to, payload] : told) sends.push_back({to, CombiningChannel::checks, make_payload(std::move(payload))});
    const std::set<int> senders = [&] {
        std::set<int> ranks(graph.sources.begin(), graph.sources.end());
        ranks.erase(self);
        return ranks;
    }();
    std::vector<Expected> from;
    for (const int rank : senders) from.push_back({rank, CombiningChannel::checks});
    const auto received = co_await transport.exchange(std::move(sends), std::move(from));

    // The k-th claim of sender u is about our k-th in-edge from u.
    std::map<int, std::vector<int>> in_edges_of;  // sender -> our in-edge indices, in order
    for (std::size_t j = 0; j < graph.sources.size(); ++j)
        if (graph.sources[j] != self) in_edges_of[graph.sources[j]].push_back(static_cast<int>(j));
    std::map<int, std::map<int, Claim>> claim_of;  // sender -> in-edge -> claim
    std::size_t k = 0;
    for (const int u : senders) {
        const std::vector<int>& payload = *received[k++];
        const std::vector<int>& edges = in_edges_of[u];
        std::size_t at = 0, e = 0;
        for (; e < edges.size() && at + 3 <= payload.size(); ++e) {
            Claim fate{payload[at], payload[at + 1], {}};
            const auto group_size = static_cast<std::size_t>(payload[at + 2]);
            at += 3;
            if (at + group_size > payload.size()) break;
            fate.group.assign(payload.begin() + static_cast<std::ptrdiff_t>(at),
                              payload.begin() + static_cast<std::ptrdiff_t>(at + group_size));
            at += group_size;
            claim_of[u][edges[e]] = std::move(fate);
        }
        if (e != edges.size() || at != payload.size())
            problems.push_back(edge_name(u, self) + ": sender and receiver disagree on the number of edges");
    }

    // The messages those claims promise, against the messages we expect. A combined message
    // from u holds u's block, then the block of every other member of u's group that names u
    // as its carrier, by rank.
    std::multiset<std::pair<int, std::vector<int>>> promised, expected;
    std::map<int, int> forwarded_claims;  // in-edge named as carried by another: times used
    std::set<std::pair<int, int>> riding_promised, riding_expected;  // (member, in-edge)
    for (const auto& [u, edges] : claim_of)
        for (const auto& [edge, fate] : edges) {
            if (fate.fate == direct) promised.insert({u, {edge}});
            if (fate.fate == in_friend_message) forwarded_claims[edge];
            if (fate.fate == in_packet) riding_promised.insert({u, edge});
        }
    for (const auto& [u, edges] : claim_of) {
        for (const auto& [edge, fate] : edges) {
            if (fate.fate != in_my_message) continue;
            std::vector<int> message{edge};
            for (const int member : fate.group) {
                if (member == u) continue;
                int member_edge = -1;
                if (const auto member_claims = claim_of.find(member); member_claims != claim_of.end())
                    for (const auto& [other, other_fate] : member_claims->second)
                        if (other_fate.fate == in_friend_message && other_fate.carrier == u) member_edge = other;
                if (member_edge < 0)
                    problems.push_back(edge_name(u, self) + " is combined with group member " + std::to_string(member) +
                                       ", which does not agree");
                else
                    ++forwarded_claims[member_edge];
                message.push_back(member_edge);
            }
            promised.insert({u, std::move(message)});
        }
    }
    for (const auto& [edge, uses] : forwarded_claims)
        if (uses != 1)
            problems.push_back("edge " + edge_name(graph.sources[static_cast<std::size_t>(edge)], self) +
                               " is said to travel in another's message " + std::to_string(uses) + " times");
    std::vector<int> covered(graph.sources.size(), 0);
    for (const IncomingMessage& message : pattern.incoming) {
        expected.insert({message.from, message.in_edges});
        for (const int edge : message.in_edges)
            if (edge >= 0 && static_cast<std::size_t>(edge) < covered.size()) ++covered[static_cast<std::size_t>(edge)];
    }
    for (const GroupStep& step : pattern.steps)
        for (std::size_t i = 0; i < step.members.size(); ++i)
            if (i != step.self && step.from_member[i] >= 0) {
                riding_expected.insert({step.members[i], step.from_member[i]});
                if (static_cast<std::size_t>(step.from_member[i]) < covered.size())
                    ++covered[static_cast<std::size_t>(step.from_member[i])];
            }
    if (promised != expected) problems.push_back("rank " + std::to_string(self) + " expects other messages than its in-neighbors send");
    if (riding_promised != riding_expected)
        problems.push_back("rank " + std::to_string(self) + " expects other blocks in packets than its group members send");
    for (std::size_t j = 0; j < covered.size(); ++j)
        if (graph.sources[j] != self && covered[j] != 1)
            problems.push_back("edge " + edge_name(graph.sources[j], self) + " arrives " + std::to_string(covered[j]) +
                               " times");
    co_return problems;
}

}  // namespace nbrcomb::detail
