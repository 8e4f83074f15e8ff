// Node-aware aggregation (paper 003 §3.2, Algs. 4-6): each node assigns every remote node it
// exchanges with to one of its processes, its agent for that node, so that one message crosses
// the network per pair of nodes and direction. Plain data of one process, computed once per
// topology and used by every collective's schedule (schedule/aggregated_schedule.h).
//
// An edge from s to d that crosses nodes is known on both ends as (s, d, o): its o-th repeat
// from s to d, which MPI pairs with the o-th edge from s in d's source list. The message between
// two nodes carries its edges in (s, d, o) order, which both nodes compute alike.
#pragma once

#include "matching/task.h"
#include "matching/transport.h"
#include "pattern/pattern.h"

#include <memory>
#include <vector>

namespace nbrcomb::detail {

// The channels of the aggregation plan's Phase 1.
struct AggregationChannel {
    static constexpr Channel node_lists = 0, node_agents = 1, node_views = 2, count = 3;
};

// A packet this process hands a local agent: the out-edges whose blocks that agent sends on.
struct Handoff {
    int agent;
    std::vector<int> out_edges;  // in packet order
};

// A packet a local process hands this process, as its agent: it holds blocks of this many edges.
struct HandoffIn {
    int source;
    int edges;
};

// One edge's block in a message to a remote node: from our own send buffer (slot -1, index the
// out-edge), or part index of the packet handoffs_in[slot] brought.
struct OutboundEdge {
    int source;
    int slot;
    int index;
};

// The message this process sends, as agent, to the agent of a remote node.
struct Outbound {
    int peer;
    std::vector<OutboundEdge> edges;  // in (s, d, o) order
};

// One edge of a message this process receives, as agent, from a remote node: its source, and
// the process of this node and the in-edge of that process it is for.
struct InboundEdge {
    int source;
    int destination;
    int in_edge;
};

struct Inbound {
    int peer;
    std::vector<InboundEdge> edges;  // in (s, d, o) order
};

struct AggregationPattern {
    // ℓ: out-edges to processes of this node, self-loops included, as native MPI sends them,
    // and the in-edges from other processes of this node that meet them.
    std::vector<int> local_out;
    std::vector<int> local_in;
    // s: the initial redistribution, as a source and as an agent (by ascending source rank).
    std::vector<Handoff> handoffs;
    std::vector<HandoffIn> handoffs_in;
    // g: one message per remote node this process is the agent for, each way (by ascending node).
    std::vector<Outbound> outbound;
    std::vector<Inbound> inbound;
    // r: the final redistribution as a destination: per local agent, our in-edges whose blocks it
    // delivers in one message, in its order (inbound messages in order, their edges in order).
    // The blocks an agent receives for itself are copied, not delivered.
    std::vector<IncomingMessage> delivered;
};

// Everything a node's processes need to plan their part: the edges of each, and the agents.
struct NodeView {
    std::shared_ptr<const std::vector<int>> node_of;  // (*node_of)[r]: the node of rank r
    std::vector<LocalGraph> locals;                   // this node's processes, by ascending rank
    // Per remote node, ascending: this node's agent for it and the agent there it exchanges with.
    struct Link {
        int node;
        int agent;
        int peer_agent;
    };
    std::vector<Link> sending;    // to nodes this node has out-edges to
    std::vector<Link> receiving;  // from nodes this node has in-edges from
};

// Which local process is the agent for each remote node: remote nodes by falling edge count go
// to the process with the fewest agencies, then the fewest edges, then the most edges of its own
// to that node (its blocks need no packet). Paper 003 balances message counts for small blocks
// and bytes for large ones; the counts come first here, since the blocks' sizes are per call.
// remote_edges[p][n]: edges between local process p and remote node n, in one direction.
std::vector<int> assign_agents(const std::vector<std::vector<int>>& remote_edges, int remote_nodes);

// This process's part of the node's plan (a pure function of the view, the same on every
// process of the node).
AggregationPattern plan_aggregation(const NodeView& view, int rank);

// Run by every process of the topology at once: each node's lowest rank gathers its processes'
// edges, assigns agents, tells the lowest rank of each node it exchanges with whom to talk to,
// and hands its processes the node's view.
Task<AggregationPattern> build_aggregation(Transport& transport, LocalGraph graph,
                                           std::shared_ptr<const std::vector<int>> node_of);

}  // namespace nbrcomb::detail
