#include "mapping/renumbering.h"

#include "mapping/graph_partition.h"
#include "mapping/locality.h"
#include "mapping/process_graph.h"
#include "mapping/rank_mapping.h"

#include <array>
#include <chrono>
#include <exception>
#include <numeric>
#include <set>

namespace nbrcomb::detail {

namespace {

// On rank 0: the new ranks of all processes from the gathered graph; the old ones if mapping fails.
std::vector<int> map_on_root(int size, const std::vector<int>& offsets, const std::vector<int>& destinations,
                             const std::vector<int>& weights, const std::vector<ProcessPlace>& places,
                             RootMapping& report) {
    const auto start = std::chrono::steady_clock::now();
    RankMapping mapping;
    try {
        mapping = map_ranks(undirected_graph(size, offsets, destinations, weights), places);
    } catch (const std::exception& failure) {
        report.failure = failure.what();
        mapping.new_rank.resize(static_cast<std::size_t>(size));
        std::iota(mapping.new_rank.begin(), mapping.new_rank.end(), 0);
        return mapping.new_rank;
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::set<int> nodes;
    for (const ProcessPlace& place : places) nodes.insert(place.node);
    report.nodes = nodes.size();
    report.cut_before = mapping.cut_before;
    report.cut_after = mapping.cut_after;
    return mapping.new_rank;
}

// Gathers every process's out-edges and place on rank 0, maps there (how it went in report), and
// returns this process's new rank, the new rank of the process whose old rank that is, and
// whether any rank changes.
std::array<int, 3> new_rank_from_root(MPI_Comm comm, int rank, int size, const OutEdges& mine,
                                      const ProcessPlace& place, std::optional<RootMapping>& report) {
    const bool root = rank == 0;
    const int degree = static_cast<int>(mine.destinations.size());
    std::vector<int> degrees(root ? size : 0);
    PMPI_Gather(&degree, 1, MPI_INT, degrees.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(root ? size + 1 : 0);
    if (root) std::partial_sum(degrees.begin(), degrees.end(), offsets.begin() + 1);
    std::vector<int> destinations(root ? offsets.back() : 0);
    PMPI_Gatherv(mine.destinations.data(), degree, MPI_INT, destinations.data(), degrees.data(), offsets.data(),
                 MPI_INT, 0, comm);
    std::vector<int> weights(root && mine.weighted ? offsets.back() : 0);
    if (mine.weighted)
        PMPI_Gatherv(mine.weights.data(), degree, MPI_INT, weights.data(), degrees.data(), offsets.data(), MPI_INT,
                     0, comm);
    const int my_place[3] = {place.node, place.package, place.numa};
    std::vector<int> place_values(root ? 3 * size : 0);
    PMPI_Gather(my_place, 3, MPI_INT, place_values.data(), 3, MPI_INT, 0, comm);

    std::vector<int> assignments(root ? 3 * size : 0);
    if (root) {
        std::vector<ProcessPlace> places;
        for (int p = 0; p < size; ++p)
            places.push_back({place_values[3 * p], place_values[3 * p + 1], place_values[3 * p + 2]});
        const std::vector<int> new_rank = map_on_root(size, offsets, destinations, weights, places, report.emplace());
        bool changed = false;
        for (int p = 0; p < size; ++p) changed = changed || new_rank[p] != p;
        for (int p = 0; p < size; ++p) {
            assignments[3 * p] = new_rank[p];
            assignments[3 * p + 1] = new_rank[new_rank[p]];
            assignments[3 * p + 2] = changed;
        }
    }
    std::array<int, 3> assignment{};
    PMPI_Scatter(assignments.data(), 3, MPI_INT, assignment.data(), 3, MPI_INT, 0, comm);
    return assignment;
}

}  // namespace

ReorderAgreement agree_to_reorder(MPI_Comm comm, const MappingSettings& settings, bool valid, bool weighted) {
    enum Value { wish, validity, weights, node_size, max_edges, partitions, count };
    // Each value and its negation: one maximum gives the largest and the smallest.
    int values[2 * count] = {settings.reorder, valid, weighted, settings.node_size, settings.reorder_max_edges,
                             partitioning_built};
    for (int i = 0; i < count; ++i) values[count + i] = -values[i];
    PMPI_Allreduce(MPI_IN_PLACE, values, 2 * count, MPI_INT, MPI_MAX, comm);
    const auto smallest = [&](Value v) { return -values[count + v]; };
    const auto same = [&](Value v) { return values[v] == smallest(v); };

    if (smallest(validity) == 0) return ReorderAgreement::invalid;
    if (values[wish] == 0) return ReorderAgreement::not_asked;
    if (smallest(partitions) == 0) return ReorderAgreement::without_metis;
    if (!same(wish) || !same(weights) || !same(node_size) || !same(max_edges)) return ReorderAgreement::disagree;
    return ReorderAgreement::agreed;
}

Renumbering plan_renumbering(MPI_Comm comm, const MappingSettings& settings, const OutEdges& mine) {
    int rank = 0, size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    Renumbering result;
    result.tried = true;
    result.old_rank = result.new_rank = result.vertex_holder = rank;
    const ProcessPlace place = this_process_place(comm, settings.node_size);
    result.node_before.resize(static_cast<std::size_t>(size));
    PMPI_Allgather(&place.node, 1, MPI_INT, result.node_before.data(), 1, MPI_INT, comm);
    result.node_after = result.node_before;

    result.edges = static_cast<long long>(mine.destinations.size());
    PMPI_Allreduce(MPI_IN_PLACE, &result.edges, 1, MPI_LONG_LONG, MPI_SUM, comm);
    result.too_large = result.edges > settings.reorder_max_edges;
    if (result.too_large) return result;

    const auto [new_rank, vertex_holder, changed] =
        new_rank_from_root(comm, rank, size, mine, place, result.root_mapping);
    if (!changed) return result;
    result.reordered = true;
    result.new_rank = new_rank;
    result.vertex_holder = vertex_holder;
    std::vector<int> new_rank_of(static_cast<std::size_t>(size));
    PMPI_Allgather(&new_rank, 1, MPI_INT, new_rank_of.data(), 1, MPI_INT, comm);
    for (int p = 0; p < size; ++p) result.node_after[new_rank_of[p]] = result.node_before[p];
    return result;
}

}  // namespace nbrcomb::detail
