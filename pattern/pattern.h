// The message-combining pattern of one process (paper 000, Alg. 1 output T): plain data,
// computed once per topology and used by every collective's schedule.
//
// Edges are named by their index in the process's destination list (out-edges) or source
// list (in-edges), as MPI_Dist_graph_neighbors returns them, so duplicate edges stay apart.
#pragma once

#include <vector>

namespace nbrcomb::detail {

// One combining step with a friend: the two swap the blocks each forwards for the other, then
// each sends one combined message to every out-neighbor it onloaded. onloaded and offloaded
// list out-edge indices in ascending rank of the neighbor, the order both friends agree on.
struct PairStep {
    int friend_rank;
    std::vector<int> onloaded;   // my combined message goes there: my block, then my friend's
    std::vector<int> offloaded;  // my friend sends my block there inside its combined message
};

// A message this process receives in the data phase and the in-edges whose blocks it carries,
// in message order: one for a direct message; sender's then its friend's for a combined one.
struct IncomingMessage {
    int from;
    std::vector<int> in_edges;
};

struct Pattern {
    std::vector<PairStep> steps;
    std::vector<int> direct;                // out-edges sent one message each (or copied, for self-loops)
    std::vector<IncomingMessage> incoming;  // every message of the data phase, direct ones included

    // What Phase 1 cost this process.
    struct Cost {
        int iterations = 0;            // of Alg. 1's main loop
        int matching_rounds = 0;       // of Alg. 2, summed over iterations
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
