#include "pattern/grid_routing.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace nbrcomb::detail {

namespace {

// A block this process holds for the rounds to come: its edge, and where its bytes will be.
struct Held {
    RoutedEdge edge;
    BlockOrigin origin;
};

std::vector<int> flattened(const std::vector<Held>& held) {
    std::vector<int> values;
    for (const Held& h : held) values.insert(values.end(), {h.edge.source, h.edge.destination, h.edge.repeat});
    return values;
}

std::vector<RoutedEdge> edges_of(const std::vector<int>& values) {
    std::vector<RoutedEdge> edges;
    for (std::size_t i = 0; i + 2 < values.size(); i += 3) edges.push_back({values[i], values[i + 1], values[i + 2]});
    return edges;
}

// In-edges by (source, repeat): the repeat-th edge from source in the source list.
std::map<std::pair<int, int>, int> in_edges_by_repeat(const LocalGraph& graph) {
    std::map<std::pair<int, int>, int> in_edges;
    std::map<int, int> seen;
    for (std::size_t j = 0; j < graph.sources.size(); ++j) {
        const int source = graph.sources[j];
        in_edges[{source, seen[source]++}] = static_cast<int>(j);
    }
    return in_edges;
}

}  // namespace

Task<GridPattern> build_grid_routing(Transport& transport, LocalGraph graph, std::shared_ptr<const ProcessGrid> grid) {
    GridPattern pattern;
    if ((*grid->index_of)[static_cast<std::size_t>(graph.rank)] < 0) co_return pattern;  // no edges: off the grid
    std::vector<Held> held;
    std::map<int, int> repeats;
    for (std::size_t e = 0; e < graph.destinations.size(); ++e) {
        const int destination = graph.destinations[e];
        if (destination == graph.rank)
            pattern.self_loops.push_back(static_cast<int>(e));
        else
            held.push_back({{graph.rank, destination, repeats[destination]++}, {-1, static_cast<int>(e)}});
    }
    const std::map<std::pair<int, int>, int> in_edges = in_edges_by_repeat(graph);

    for (std::size_t d = 0; d < grid->dims.size(); ++d) {
        const int here = grid->coordinate(graph.rank, d);
        std::map<int, std::vector<Held>> moving;  // by peer
        std::vector<Held> staying;
        for (const Held& h : held) {
            const int there = grid->coordinate(h.edge.destination, d);
            if (there == here)
                staying.push_back(h);
            else
                moving[grid->moved(graph.rank, d, there)].push_back(h);
        }
        const std::vector<int> peers = grid->line_peers(graph.rank, d);
        std::vector<Outgoing> sends;
        std::vector<Expected> expected;
        GridRound round;
        for (const int peer : peers) {
            std::vector<Held> blocks;
            if (const auto found = moving.find(peer); found != moving.end()) {
                blocks = std::move(found->second);
                moving.erase(found);
                std::ranges::sort(blocks, {}, &Held::edge);
                GridSend send{peer, {}, {}, false};
                for (const Held& h : blocks) {
                    send.edges.push_back(h.edge);
                    send.origins.push_back(h.origin);
                    send.sized = send.sized || h.edge.destination != peer;
                }
                round.sends.push_back(std::move(send));
            }
            sends.push_back({peer, GridChannel::routes, make_payload(flattened(blocks))});
            expected.push_back({peer, GridChannel::routes});
        }
        if (!moving.empty()) throw std::logic_error("a block's route leaves the grid's lines");
        const std::vector<Payload> received = co_await transport.exchange(std::move(sends), std::move(expected));

        held = std::move(staying);
        for (std::size_t i = 0; i < peers.size(); ++i) {
            std::vector<RoutedEdge> edges = edges_of(*received[i]);
            if (edges.empty()) continue;
            const bool all_here =
                std::ranges::all_of(edges, [&](const RoutedEdge& edge) { return edge.destination == graph.rank; });
            GridReceive receive{peers[i], std::move(edges), all_here ? -1 : pattern.slots++, {}};
            for (std::size_t k = 0; k < receive.edges.size(); ++k) {
                const RoutedEdge& edge = receive.edges[k];
                if (edge.destination == graph.rank) {
                    receive.in_edges.push_back(in_edges.at({edge.source, edge.repeat}));
                } else {
                    receive.in_edges.push_back(-1);
                    held.push_back({edge, {receive.slot, static_cast<int>(k)}});
                }
            }
            round.receives.push_back(std::move(receive));
        }
        pattern.rounds.push_back(std::move(round));
    }
    if (!held.empty()) throw std::logic_error("a block's route ends before its destination");
    co_return pattern;
}

}  // namespace nbrcomb::detail
