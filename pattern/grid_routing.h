// Multi-hop routing over a process grid (pattern/process_grid.h): in round d every block moves
// along dimension d to the process whose coordinate there is its destination's, so after the
// last round it has arrived. A process sends one message per peer and round, holding its own
// blocks and those it forwards; where a block goes is settled once, in Phase 1, by sending each
// edge's name along the route it will take. Plain data of one process, used by every call's
// schedule (schedule/grid_schedule.h).
#pragma once

#include "matching/task.h"
#include "matching/transport.h"
#include "pattern/pattern.h"
#include "pattern/process_grid.h"

#include <memory>
#include <vector>

namespace nbrcomb::detail {

struct GridChannel {
    static constexpr Channel routes = 0, count = 1;
};

// An edge, as both its ends and every process on its route name it: the repeat-th edge from
// source to destination, which MPI pairs with the repeat-th edge from source in the
// destination's source list (MPI-4.0 erratum). Messages carry their edges in this order.
struct RoutedEdge {
    int source;
    int destination;
    int repeat;
    auto operator<=>(const RoutedEdge&) const = default;
};

// Where a block this process sends comes from: its own out-edge (slot -1), or the index-th edge
// of the sized message received into slot.
struct BlockOrigin {
    int slot;
    int index;
};

struct GridSend {
    int peer;
    std::vector<RoutedEdge> edges;
    std::vector<BlockOrigin> origins;  // one per edge
    bool sized;                        // false when every edge ends at the peer, which knows their sizes
};

struct GridReceive {
    int peer;
    std::vector<RoutedEdge> edges;
    int slot;                   // of a sized message; -1 for a bare one, whose edges all end here
    std::vector<int> in_edges;  // per edge, the in-edge it ends in here, or -1 where it goes on
};

struct GridRound {
    std::vector<GridSend> sends;
    std::vector<GridReceive> receives;
};

struct GridPattern {
    std::vector<int> self_loops;  // out-edges to this process, copied
    std::vector<GridRound> rounds;
    int slots = 0;
};

// Run by every process of the grid at once (those off it have no edges and take no part).
Task<GridPattern> build_grid_routing(Transport& transport, LocalGraph graph,
                                     std::shared_ptr<const ProcessGrid> grid);

}  // namespace nbrcomb::detail
