// Partitioning the process graph into parts of given sizes: the first step of topology-aware
// mapping, one part per node (thesis 001, §3.3.1), and again inside a node.
#pragma once

#include "mapping/process_graph.h"

#include <span>
#include <vector>

namespace nbrcomb::detail {

// The part of every vertex, with exactly sizes[i] vertices in part i (sizes are positive and sum
// to the vertex count) and little edge weight between parts. METIS (recursive bisection for parts
// of up to 64 vertices on average, multilevel k-way for larger ones) partitions with the sizes as
// target weights, but balances only within a tolerance, so vertices then leave the parts it
// overfilled, each time the one whose move loses least. Without edges the vertices fill the parts
// in order.
// Throws std::runtime_error when METIS fails, or in a build without METIS.
std::vector<int> partition_exact(const ProcessGraph& graph, std::span<const int> sizes);

// Whether this build partitions: METIS is optional at build time (NBRCOMB_WITH_METIS), and a
// build without it has graph_partition_without_metis.cpp instead.
extern const bool partitioning_built;

}  // namespace nbrcomb::detail
