#include "pattern/node_aggregation.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace nbrcomb::detail {

namespace {

// An edge between this node and another, as both ends name it.
struct NodeEdge {
    int node;  // the other node
    int source;
    int destination;
    int repeat;  // the o of (s, d, o)
    int edge;    // the out-edge of source (sending side) or in-edge of destination (receiving side)
    int local;   // index in the view's locals of the process on this node

    auto key() const { return std::tie(node, source, destination, repeat); }
};

// The edges of the view's processes that leave the node (out) or arrive from another (in), in
// (node, s, d, o) order.
std::vector<NodeEdge> remote_edges(const NodeView& view, bool out) {
    const std::vector<int>& node_of = *view.node_of;
    std::vector<NodeEdge> edges;
    for (std::size_t p = 0; p < view.locals.size(); ++p) {
        const LocalGraph& graph = view.locals[p];
        const int node = node_of[static_cast<std::size_t>(graph.rank)];
        const std::vector<int>& peers = out ? graph.destinations : graph.sources;
        std::map<int, int> repeats;
        for (std::size_t i = 0; i < peers.size(); ++i) {
            const int peer = peers[i];
            const int repeat = repeats[peer]++;
            const int other = node_of[static_cast<std::size_t>(peer)];
            if (other == node) continue;
            edges.push_back({other, out ? graph.rank : peer, out ? peer : graph.rank, repeat, static_cast<int>(i),
                             static_cast<int>(p)});
        }
    }
    std::ranges::sort(edges, [](const NodeEdge& a, const NodeEdge& b) { return a.key() < b.key(); });
    return edges;
}

// The agent of node in links (each remote node is in them once).
int agent_for(const std::vector<NodeView::Link>& links, int node) {
    return std::ranges::lower_bound(links, node, {}, &NodeView::Link::node)->agent;
}

// The links of one direction: remote nodes, ascending, each with its agent among locals (the
// peer agents are filled in once the remote nodes tell them).
std::vector<NodeView::Link> agent_links(const std::vector<NodeEdge>& edges, const std::vector<LocalGraph>& graphs) {
    std::vector<NodeView::Link> links;
    for (const NodeEdge& edge : edges)
        if (links.empty() || links.back().node != edge.node) links.push_back({edge.node, -1, -1});
    std::vector<std::vector<int>> counts(graphs.size(), std::vector<int>(links.size(), 0));
    std::size_t n = 0;
    for (const NodeEdge& edge : edges) {
        while (links[n].node != edge.node) ++n;
        ++counts[static_cast<std::size_t>(edge.local)][n];
    }
    const std::vector<int> agent = assign_agents(counts, static_cast<int>(links.size()));
    for (std::size_t i = 0; i < links.size(); ++i) links[i].agent = graphs[static_cast<std::size_t>(agent[i])].rank;
    return links;
}

void append_list(std::vector<int>& out, const std::vector<int>& list) {
    out.push_back(static_cast<int>(list.size()));
    out.insert(out.end(), list.begin(), list.end());
}

std::vector<int> read_list(const std::vector<int>& in, std::size_t& at) {
    const auto size = static_cast<std::size_t>(in[at++]);
    std::vector<int> list(in.begin() + static_cast<std::ptrdiff_t>(at),
                          in.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
    return list;
}

std::vector<int> encode_graph(const LocalGraph& graph) {
    std::vector<int> out{graph.rank};
    append_list(out, graph.destinations);
    append_list(out, graph.sources);
    return out;
}

LocalGraph decode_graph(const std::vector<int>& in, std::size_t& at) {
    LocalGraph graph;
    graph.rank = in[at++];
    graph.destinations = read_list(in, at);
    graph.sources = read_list(in, at);
    return graph;
}

std::vector<int> encode_view(const NodeView& view) {
    std::vector<int> out{static_cast<int>(view.locals.size())};
    for (const LocalGraph& graph : view.locals) {
        const std::vector<int> encoded = encode_graph(graph);
        out.insert(out.end(), encoded.begin(), encoded.end());
    }
    for (const auto* links : {&view.sending, &view.receiving}) {
        out.push_back(static_cast<int>(links->size()));
        for (const NodeView::Link& link : *links) out.insert(out.end(), {link.node, link.agent, link.peer_agent});
    }
    return out;
}

NodeView decode_view(const std::vector<int>& in, std::shared_ptr<const std::vector<int>> node_of) {
    NodeView view{std::move(node_of), {}, {}, {}};
    std::size_t at = 0;
    const int locals = in[at++];
    for (int p = 0; p < locals; ++p) view.locals.push_back(decode_graph(in, at));
    for (auto* links : {&view.sending, &view.receiving}) {
        const int count = in[at++];
        for (int i = 0; i < count; ++i, at += 3) links->push_back({in[at], in[at + 1], in[at + 2]});
    }
    return view;
}

// The lowest rank of every node: the one that plans for it.
std::map<int, int> node_leaders(const std::vector<int>& node_of) {
    std::map<int, int> leaders;
    for (std::size_t r = 0; r < node_of.size(); ++r) leaders.emplace(node_of[r], static_cast<int>(r));
    return leaders;
}

// The leader's part: the node's agents, and those of the nodes it exchanges with.
Task<NodeView> plan_node(Transport& transport, std::vector<LocalGraph> locals,
                         std::shared_ptr<const std::vector<int>> node_of) {
    NodeView view{node_of, std::move(locals), {}, {}};
    view.sending = agent_links(remote_edges(view, true), view.locals);
    view.receiving = agent_links(remote_edges(view, false), view.locals);
    // Each leader tells each other node's leader its agent for each direction (-1: none); the
    // two nodes' edges decide alike whether there is one.
    std::map<int, std::pair<int, int>> told;  // node -> (our agent sending to it, receiving from it)
    for (const NodeView::Link& link : view.sending)
        told.try_emplace(link.node, -1, -1).first->second.first = link.agent;
    for (const NodeView::Link& link : view.receiving)
        told.try_emplace(link.node, -1, -1).first->second.second = link.agent;
    const std::map<int, int> leaders = node_leaders(*node_of);
    std::vector<Outgoing> sends;
    std::vector<Expected> expected;
    for (const auto& [node, agents] : told) {
        const int leader = leaders.at(node);
        sends.push_back({leader, AggregationChannel::node_agents, make_payload({agents.first, agents.second})});
        expected.push_back({leader, AggregationChannel::node_agents});
    }
    const std::vector<Payload> answers = co_await transport.exchange(std::move(sends), std::move(expected));
    std::size_t i = 0;
    for (const auto& [node, agents] : told) {
        const std::vector<int>& theirs = *answers[i++];  // (their agent sending to us, receiving from us)
        for (NodeView::Link& link : view.sending)
            if (link.node == node) link.peer_agent = theirs[1];
        for (NodeView::Link& link : view.receiving)
            if (link.node == node) link.peer_agent = theirs[0];
    }
    co_return view;
}

}  // namespace

std::vector<int> assign_agents(const std::vector<std::vector<int>>& remote_edges, int remote_nodes) {
    const std::size_t nodes = static_cast<std::size_t>(remote_nodes);
    std::vector<int> total(nodes, 0);
    for (const std::vector<int>& row : remote_edges)
        for (std::size_t n = 0; n < nodes; ++n) total[n] += row[n];
    std::vector<std::size_t> order(nodes);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) { return total[a] > total[b]; });
    std::vector<int> agencies(remote_edges.size(), 0), carried(remote_edges.size(), 0), agent(nodes, 0);
    for (const std::size_t n : order) {
        std::size_t best = 0;
        const auto load = [&](std::size_t p) { return std::tuple(agencies[p], carried[p], -remote_edges[p][n]); };
        for (std::size_t p = 1; p < remote_edges.size(); ++p)
            if (load(p) < load(best)) best = p;
        agent[n] = static_cast<int>(best);
        ++agencies[best];
        carried[best] += total[n];
    }
    return agent;
}

AggregationPattern plan_aggregation(const NodeView& view, int rank) {
    const std::vector<int>& node_of = *view.node_of;
    const int node = node_of[static_cast<std::size_t>(rank)];
    const auto self =
        static_cast<std::size_t>(std::ranges::find(view.locals, rank, &LocalGraph::rank) - view.locals.begin());
    const LocalGraph& graph = view.locals[self];
    AggregationPattern pattern;

    // ℓ: what stays on the node.
    for (std::size_t e = 0; e < graph.destinations.size(); ++e)
        if (node_of[static_cast<std::size_t>(graph.destinations[e])] == node)
            pattern.local_out.push_back(static_cast<int>(e));
    for (std::size_t j = 0; j < graph.sources.size(); ++j) {
        const int source = graph.sources[j];
        if (source != rank && node_of[static_cast<std::size_t>(source)] == node)
            pattern.local_in.push_back(static_cast<int>(j));
    }

    // s: packets to agents, in (node, d, o) order; the packets we get as agent, and where in
    // them each edge's block is.
    const std::vector<NodeEdge> out = remote_edges(view, true);
    std::map<int, std::vector<int>> packets;  // agent -> our out-edges
    std::map<int, int> parts;                 // source -> edges in its packet to us so far
    std::vector<int> part_of(out.size(), -1);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const NodeEdge& edge = out[i];
        const int agent = agent_for(view.sending, edge.node);
        if (edge.source == rank && agent != rank) packets[agent].push_back(edge.edge);
        if (edge.source != rank && agent == rank) part_of[i] = parts[edge.source]++;
    }
    for (auto& [agent, edges] : packets) pattern.handoffs.push_back({agent, std::move(edges)});
    std::map<int, int> slot_of;
    for (const auto& [source, edges] : parts) {
        slot_of[source] = static_cast<int>(pattern.handoffs_in.size());
        pattern.handoffs_in.push_back({source, edges});
    }

    // g: our messages as agent, to and from the agents of remote nodes.
    for (const NodeView::Link& link : view.sending) {
        if (link.agent != rank) continue;
        Outbound& message = pattern.outbound.emplace_back(Outbound{link.peer_agent, {}});
        for (std::size_t i = 0; i < out.size(); ++i) {
            const NodeEdge& edge = out[i];
            if (edge.node != link.node) continue;
            message.edges.push_back(edge.source == rank
                                        ? OutboundEdge{rank, -1, edge.edge}
                                        : OutboundEdge{edge.source, slot_of.at(edge.source), part_of[i]});
        }
    }
    const std::vector<NodeEdge> in = remote_edges(view, false);
    for (const NodeView::Link& link : view.receiving) {
        if (link.agent != rank) continue;
        Inbound& message = pattern.inbound.emplace_back(Inbound{link.peer_agent, {}});
        for (const NodeEdge& edge : in)
            if (edge.node == link.node) message.edges.push_back({edge.source, edge.destination, edge.edge});
    }

    // r: what other agents of this node deliver to us, in their order.
    std::map<int, std::vector<int>> deliveries;  // agent -> our in-edges
    for (const NodeView::Link& link : view.receiving) {
        if (link.agent == rank) continue;
        for (const NodeEdge& edge : in)
            if (edge.node == link.node && edge.destination == rank) deliveries[link.agent].push_back(edge.edge);
    }
    for (auto& [agent, edges] : deliveries) pattern.delivered.push_back({agent, std::move(edges)});
    return pattern;
}

Task<AggregationPattern> build_aggregation(Transport& transport, LocalGraph graph,
                                           std::shared_ptr<const std::vector<int>> node_of) {
    const int node = (*node_of)[static_cast<std::size_t>(graph.rank)];
    std::vector<int> members;
    for (std::size_t r = 0; r < node_of->size(); ++r)
        if ((*node_of)[r] == node) members.push_back(static_cast<int>(r));
    const int leader = members.front();
    Payload view;
    if (graph.rank != leader) {
        std::vector<Outgoing> lists{{leader, AggregationChannel::node_lists, make_payload(encode_graph(graph))}};
        co_await transport.exchange(std::move(lists), {});
        std::vector<Expected> plan{{leader, AggregationChannel::node_views}};
        view = (co_await transport.exchange({}, std::move(plan))).front();
    } else {
        std::vector<Expected> from;
        for (std::size_t m = 1; m < members.size(); ++m) from.push_back({members[m], AggregationChannel::node_lists});
        const std::vector<Payload> lists = co_await transport.exchange({}, std::move(from));
        std::vector<LocalGraph> locals{graph};
        for (const Payload& list : lists) {
            std::size_t at = 0;
            locals.push_back(decode_graph(*list, at));
        }
        view = make_payload(encode_view(co_await plan_node(transport, std::move(locals), node_of)));
        std::vector<Outgoing> sends;
        for (std::size_t m = 1; m < members.size(); ++m) sends.push_back({members[m], AggregationChannel::node_views, view});
        co_await transport.exchange(std::move(sends), {});
    }
    co_return plan_aggregation(decode_view(*view, node_of), graph.rank);
}

}  // namespace nbrcomb::detail
