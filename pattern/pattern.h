// The message-combining pattern of one process (paper 000, Alg. 1 output T): plain data,
// computed once per topology and used by every collective's schedule.
//
// Edges are named by their index in the process's destination list (out-edges) or source
// list (in-edges), as MPI_Dist_graph_neighbors returns them, so duplicate edges stay apart.
#pragma once

#include <cstddef>
#include <vector>

namespace nbrcomb::detail {

// One combining step with a group of friends (paper 002, Alg. 1 lines 8-18): their common
// out-neighbors are split into one part per member by rank order; every member hands each other
// member its blocks for that member's part, and each member sends one combined message to every
// neighbor of its own part. A pair is a group of two.
//
// Members are often neighbors of each other too (paper 000, Fig. 1). The block of such an edge
// rides in the packet its sender hands that member anyway, so the edge costs no message of its
// own: with it, a group saves messages with fewer common neighbors than members.
struct GroupStep {
    std::vector<int> members;             // the group, this process included, ascending rank
    std::vector<std::vector<int>> parts;  // parts[i]: my out-edges that members[i] carries, by neighbor rank
    std::size_t self = 0;                 // this process's index in members
    std::vector<int> to_member;    // to_member[i]: my out-edge to members[i] that rides in my packet to it, or -1
    std::vector<int> from_member;  // from_member[i]: my in-edge from members[i] that rides in its packet, or -1

    const std::vector<int>& onloaded() const { return parts[self]; }
    // Whether this process hands members[i] a packet, and receives one from it.
    bool sends_packet(std::size_t i) const { return i != self && (!parts[i].empty() || to_member[i] >= 0); }
    bool receives_packet(std::size_t i) const { return i != self && (!onloaded().empty() || from_member[i] >= 0); }
};

// A message this process receives in the data phase and the in-edges whose blocks it carries,
// in message order: one for a direct message; for a combined one the sender's, then those of
// the other members of its group by ascending rank.
struct IncomingMessage {
    int from;
    std::vector<int> in_edges;
};

struct Pattern {
    std::vector<GroupStep> steps;
    std::vector<int> direct;                // out-edges sent one message each (or copied, for self-loops)
    std::vector<IncomingMessage> incoming;  // every message of the data phase, direct ones included

    // What Phase 1 cost this process.
    struct Cost {
        int iterations = 0;            // of Alg. 1's main loop
        int matching_rounds = 0;       // of the matching, summed over iterations
        unsigned long long hyperedges = 0;          // candidate groups of the first iteration, after the cap
        unsigned long long hyperedges_dropped = 0;  // candidates the cap discarded, summed over iterations
        unsigned long long messages = 0;
        unsigned long long bytes = 0;
    } cost;
};

// The out-edges and in-edges of one process, as the topology gives them.
struct LocalGraph {
    int rank = 0;
    std::vector<int> sources;
    std::vector<int> destinations;
};

}  // namespace nbrcomb::detail
