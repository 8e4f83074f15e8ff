// Which rank each process gets when reorder=1 lets the library choose: the graph's vertices (the
// ranks as the application numbered them) partitioned over the nodes, then placed inside each
// node (thesis 001, §3.3.1: partition to nodes, then map within). Plain data, no MPI.
#pragma once

#include "mapping/process_graph.h"

#include <span>
#include <vector>

namespace nbrcomb::detail {

// Where a process runs: its node, and inside the node the package and the NUMA domain its
// binding lies in (-1: not bound inside one, or not known). Ids need only be distinct within
// the level above.
struct ProcessPlace {
    int node = 0;
    int package = -1;
    int numa = -1;

    bool operator==(const ProcessPlace&) const = default;
};

struct RankMapping {
    std::vector<int> new_rank;  // of the process with each old rank; the identity when nothing is gained
    long long cut_before = 0;   // edge weight between nodes with the old ranks
    long long cut_after = 0;    // with the new ones
};

// places[p] is where the process with old rank p runs. The vertices are partitioned over the
// nodes with the nodes' process counts as part sizes, inside a node over its packages and inside
// a package over its NUMA domains where all its processes know theirs (partition_exact each
// time), and each group's processes take its vertices: first a vertex whose old process is in
// the group goes back to it, the others go in rank order. The process given vertex v gets new
// rank v. The old ranks stay unless the new ones lower the edge weight between nodes, or, at an
// equal weight between nodes, between packages and then NUMA domains.
RankMapping map_ranks(const ProcessGraph& graph, std::span<const ProcessPlace> places);

}  // namespace nbrcomb::detail
