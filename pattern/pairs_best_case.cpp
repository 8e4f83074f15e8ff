#include "pattern/pairs_best_case.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace nbrcomb::detail {

namespace {

// One side's edges, self-loops left out (they cost no message): the overheads of those pairs
// may combine (peers listed once), cheapest first, and the sum of the others' (repeated peers
// stay direct messages).
struct Side {
    std::vector<double> simple;
    double repeated = 0;
    std::size_t edges = 0;  // blocks: every edge's reaches its other end

    // The count cheapest messages among the simple edges.
    double cheapest(std::size_t count) const {
        count = std::min(count, simple.size());
        return std::accumulate(simple.begin(), simple.begin() + static_cast<std::ptrdiff_t>(count), 0.0);
    }
};

Side side_of(int rank, const std::vector<int>& peers, const std::vector<int>& node_of, double local, double remote) {
    std::map<int, int> listed;
    for (const int peer : peers)
        if (peer != rank) ++listed[peer];
    const int node = node_of[static_cast<std::size_t>(rank)];
    Side side;
    for (const auto& [peer, times] : listed) {
        const double overhead = node_of[static_cast<std::size_t>(peer)] == node ? local : remote;
        if (times == 1)
            side.simple.push_back(overhead);
        else
            side.repeated += times * overhead;
        side.edges += static_cast<std::size_t>(times);
    }
    std::ranges::sort(side.simple);
    return side;
}

std::size_t half_up(std::size_t n) { return (n + 1) / 2; }

}  // namespace

// In s combining steps (one per friend it pairs with) a process sends one packet per step and,
// with theta of 2 or more, receives one; each step combines c >= theta common out-neighbors, of
// which it sends at least floor(c / 2), and its edge to the friend rides in the packet. So of its
// n simple out-edges at least ceil(n / 2) - s still go as messages of their own, and of its m
// simple in-edges at least ceil((m - s) / 2) arrive in messages, a combined one carrying at most
// two. The blocks that leave a node: every block to another node crosses once at least,
// allgather's once per node it reaches.
RoundCosts pairs_best_case(const LocalGraph& graph, const std::vector<int>& node_of, int theta,
                           bool same_send_block) {
    const MessageOverheads overheads;
    const Side out = side_of(graph.rank, graph.destinations, node_of, overheads.send_local, overheads.send_remote);
    const Side in = side_of(graph.rank, graph.sources, node_of, overheads.receive_local, overheads.receive_remote);
    const std::size_t n = out.simple.size(), m = in.simple.size();
    // A step of a single common out-neighbor (theta 1) sends a packet one way only; the other
    // member sends that neighbor its message, which the bound of own messages left out.
    const bool packets_both_ways = theta >= 2;
    const std::size_t most_steps = n / static_cast<std::size_t>(std::max(theta, 1));

    double overhead = out.cheapest(n) + out.repeated + in.cheapest(half_up(m)) + in.repeated;  // no step
    std::size_t fewest_messages = n;
    for (std::size_t s = 1; s <= most_steps; ++s) {
        const std::size_t own = half_up(n) > s ? half_up(n) - s : 0;
        const std::size_t received = m > s ? half_up(m - s) : 0;
        const double packets = static_cast<double>(s);
        overhead = std::min(overhead, out.cheapest(own) + out.repeated + packets * overheads.send_local +
                                          in.cheapest(received) + in.repeated +
                                          (packets_both_ways ? packets * (overheads.receive_local + overheads.probe) : 0));
        fewest_messages = std::min(fewest_messages, own + s);
    }
    // Every message holds a block at least; alltoall's blocks are one per edge.
    const std::size_t repeated_out = out.edges - n;
    const double sent_blocks = static_cast<double>(same_send_block ? fewest_messages + repeated_out : out.edges);

    const int node = node_of[static_cast<std::size_t>(graph.rank)];
    std::set<int> other_nodes;
    std::size_t crossing_edges = 0;
    for (const int peer : graph.destinations)
        if (const int peer_node = node_of[static_cast<std::size_t>(peer)]; peer_node != node) {
            other_nodes.insert(peer_node);
            ++crossing_edges;
        }

    RoundCosts costs;
    costs.overhead[0] = overhead;
    costs.remote[0] = crossing_edges > 0 ? 1 : 0;
    costs.remote_blocks[0] = sent_blocks + static_cast<double>(in.edges);
    costs.node_blocks[0] = static_cast<double>(same_send_block ? other_nodes.size() : crossing_edges);
    return costs;
}

}  // namespace nbrcomb::detail
