// reorder=1 on the distributed-graph constructors: the processes agree to reorder, the graph is
// gathered to one process, which maps it (rank_mapping.h), and every process learns its new rank.
// The semantics are in mapping/README.md.
#pragma once

#include "mapping/mapping_settings.h"

#include <mpi.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nbrcomb::detail {

// This process's vertex of the graph as the constructor describes it; the vertex is its rank.
struct OutEdges {
    std::span<const int> destinations;
    std::span<const int> weights;  // one per destination; empty when the graph is unweighted
    bool weighted = false;
};

// How rank 0's mapping of the gathered graph went, for the caller to log.
struct RootMapping {
    std::optional<std::string> failure;  // why mapping failed, the ranks keeping their order
    std::size_t nodes = 0;
    long long cut_before = 0;  // edge weight between nodes with the old ranks
    long long cut_after = 0;   // with the new ones
    double seconds = 0;        // mapping the gathered graph took
};

struct Renumbering {
    bool tried = false;      // the processes agreed to reorder: the node tables are filled
    bool reordered = false;  // ranks change (the same on every process)
    int old_rank = 0;
    int new_rank = 0;
    int vertex_holder = 0;  // new rank of the process whose old rank is new_rank: it described our vertex
    std::vector<int> node_before;  // node of the process hosting each vertex (rank) with the old ranks
    std::vector<int> node_after;   // the same with the new ranks
    long long edges = 0;           // of the whole graph
    bool too_large = false;        // more edges than reorder_max_edges: nothing was gathered
    std::optional<RootMapping> root_mapping;  // on rank 0, when it mapped the gathered graph
};

enum class ReorderAgreement {
    agreed,
    invalid,    // some process gave invalid arguments, which the native constructor reports
    not_asked,      // no process asks to reorder
    without_metis,  // some process asks, but some process's library was built without METIS
    disagree,       // the processes differ in asking, weights, node_size or reorder_max_edges
};

// Collective over comm (the constructor's comm_old): agreed when every process asks to reorder
// (settings.reorder) with valid arguments and a library that partitions (graph_partition.h), all
// or none give weights, and node_size and reorder_max_edges are the same everywhere. The same
// answer on every process.
ReorderAgreement agree_to_reorder(MPI_Comm comm, const MappingSettings& settings, bool valid, bool weighted);

// Collective over comm, once the processes agreed. A graph of more than reorder_max_edges edges
// is not gathered, nor one whose mapping fails; the ranks stay then, as they do when no mapping
// lowers the edge weight between nodes.
Renumbering plan_renumbering(MPI_Comm comm, const MappingSettings& settings, const OutEdges& mine);

}  // namespace nbrcomb::detail
