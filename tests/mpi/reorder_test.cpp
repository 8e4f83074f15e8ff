// reorder=1 with reordering on (mapping/README.md): the process given rank v in the new
// communicator takes vertex v of the graph, with exactly the neighbors, order and weights that
// vertex was given; all five collectives give native results there; on emulated nodes the edge
// weight between nodes never rises and falls where clusters were scattered; and the ranks stay
// where reordering is off, not agreed on, or the graph has more edges than may be gathered. A
// library built without METIS keeps the ranks without trying.
#include "all_ranks.h"
#include "collective_shapes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace nbrcomb::test;

namespace {

Hints reordering(int node_size, Hints hints = {}) {
    hints.push_back({"nbrcomb_reorder", "on"});
    hints.push_back({"nbrcomb_node_size", std::to_string(node_size)});
    return hints;
}

// Whether the library reorders at all: NBRCOMB_HAVE_METIS comes from the build (tests/CMakeLists.txt).
constexpr bool reordering_built = NBRCOMB_HAVE_METIS;

const Hints node_aware_pairs{{"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "1"}, {"nbrcomb_topo_aware", "1"}};

// The same construction without reorder.
Construction kept_ranks(Construction construction) {
    return construction == Construction::general_reorder ? Construction::general : Construction::adjacent;
}

// The calling process's vertex as MPI_Dist_graph_neighbors returns it: in- and out-degree, then
// per in-edge and per out-edge the neighbor and its weight (0 when unweighted). Open MPI orders
// the neighbors MPI_Dist_graph_create collects as they arrive, differently from one call to the
// next, so for that constructor in_any_order sorts the edges of each side.
std::vector<int> vertex_lists(MPI_Comm comm, bool in_any_order) {
    int indegree = 0, outdegree = 0, weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
    std::vector<int> sources(indegree + 1), source_weights(indegree + 1);
    std::vector<int> destinations(outdegree + 1), destination_weights(outdegree + 1);
    MPI_Dist_graph_neighbors(comm, indegree, sources.data(), weighted ? source_weights.data() : MPI_UNWEIGHTED,
                             outdegree, destinations.data(),
                             weighted ? destination_weights.data() : MPI_UNWEIGHTED);
    std::vector<int> lists{indegree, outdegree};
    for (const auto& [neighbors, weights, degree] : {std::tuple{&sources, &source_weights, indegree},
                                                     std::tuple{&destinations, &destination_weights, outdegree}}) {
        std::vector<std::pair<int, int>> edges;
        for (int i = 0; i < degree; ++i) edges.emplace_back((*neighbors)[i], weighted ? (*weights)[i] : 0);
        if (in_any_order) std::sort(edges.begin(), edges.end());
        for (const auto& [neighbor, weight] : edges) lists.insert(lists.end(), {neighbor, weight});
    }
    return lists;
}

// Every rank's vertex_lists of comm, on every rank.
std::vector<std::vector<int>> all_vertex_lists(MPI_Comm comm, bool in_any_order) {
    const std::vector<int> mine = vertex_lists(comm, in_any_order);
    const int size = size_of(comm);
    const int length = static_cast<int>(mine.size());
    std::vector<int> lengths(size), offsets(size + 1, 0);
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
    std::partial_sum(lengths.begin(), lengths.end(), offsets.begin() + 1);
    std::vector<int> all(offsets.back());
    MPI_Allgatherv(mine.data(), length, MPI_INT, all.data(), lengths.data(), offsets.data(), MPI_INT, comm);
    std::vector<std::vector<int>> lists;
    for (int r = 0; r < size; ++r) lists.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r + 1]);
    return lists;
}

// The library's counters of comm summed over the ranks: edge weight between nodes with the old
// and the new ranks, bytes between nodes with both, ranks that tried to reorder and that did.
struct ReorderSums {
    unsigned long long cut_before = 0, cut_after = 0, bytes_before = 0, bytes_after = 0, tried = 0, reordered = 0;
};

ReorderSums reorder_sums(MPI_Comm comm) {
    nbrcomb_stats stats{};
    const bool managed = comm_stats(comm, stats) == MPI_SUCCESS;
    expect_all_ranks(managed, "the library does not manage the communicator");
    unsigned long long sums[] = {stats.edge_cut_before,
                                 stats.edge_cut_after,
                                 stats.internode_bytes_before,
                                 stats.internode_bytes_after,
                                 static_cast<unsigned long long>(stats.reorder_tried),
                                 static_cast<unsigned long long>(stats.reordered)};
    MPI_Allreduce(MPI_IN_PLACE, sums, 6, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return {sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]};
}

// Whether every rank kept its rank of MPI_COMM_WORLD in comm.
bool ranks_kept(MPI_Comm comm) { return on_all_ranks(rank_of(comm) == rank_of(MPI_COMM_WORLD)); }

struct ReorderCase {
    std::string name;
    std::function<Digraph(int size)> graph;
    TopologyOptions options;
    int cut_falls_from = 0;  // from this many ranks on the edge weight between nodes must fall; 0: never required
};

void PrintTo(const ReorderCase& reorder_case, std::ostream* out) { *out << reorder_case.name; }

auto clusters(int cluster_size) {
    return [=](int size) { return scrambled_clusters(size, cluster_size); };
}

auto stencil(int dims, Stencil kind, int radius) {
    return [=](int size) { return periodic_stencil(size, dims, kind, radius); };
}

auto matrix(std::string file) {
    return [file](int size) { return matrix_digraph(file, size); };
}

auto random_graph(std::uint64_t seed) {
    return [seed](int size) { return random_digraph(size, seed); };
}

const std::vector<ReorderCase> reorder_cases{
    {"scrambled_pairs", clusters(2), {.construction = Construction::adjacent_reorder, .hints = reordering(2)}, 4},
    {"scrambled_pairs_weighted",
     clusters(2),
     {.construction = Construction::adjacent_reorder, .weighted = true, .hints = reordering(2)},
     4},
    {"scrambled_pairs_general",
     clusters(2),
     {.construction = Construction::general_reorder, .weighted = true, .hints = reordering(2)},
     4},
    {"scrambled_quads_uneven_nodes",
     clusters(4),
     {.construction = Construction::adjacent_reorder, .hints = reordering(3)},
     8},
    {"scrambled_pairs_combining",
     clusters(2),
     {.construction = Construction::adjacent_reorder, .hints = reordering(2, node_aware_pairs)},
     4},
    {"moore_2d_r1",
     stencil(2, Stencil::moore, 1),
     {.construction = Construction::adjacent_reorder, .hints = reordering(2)}},
    {"von_neumann_3d_r1_general",
     stencil(3, Stencil::von_neumann, 1),
     {.construction = Construction::general_reorder, .weighted = true, .hints = reordering(4)}},
    {"moore_2d_r2_uneven_nodes",
     stencil(2, Stencil::moore, 2),
     {.construction = Construction::adjacent_reorder, .hints = reordering(3, pairs_hints)}},
    {"matrix_can_1072",
     matrix("can_1072.mtx"),
     {.construction = Construction::adjacent_reorder, .weighted = true, .hints = reordering(2, pairs_hints)}},
    {"matrix_lp_sctap2_general",
     matrix("lp_sctap2.mtx"),
     {.construction = Construction::general_reorder, .hints = reordering(3)}},
    {"matrix_bcsstk01_node_aware",
     matrix("bcsstk01.mtx"),
     {.construction = Construction::adjacent_reorder, .hints = reordering(2, node_aware_pairs)}},
    {"random",
     random_graph(11),
     {.construction = Construction::adjacent_reorder, .weighted = true, .hints = reordering(2)}},
    {"random_general_node_aware",
     random_graph(12),
     {.construction = Construction::general_reorder, .hints = reordering(2, node_aware_pairs)}},
};

class Reordering : public testing::TestWithParam<ReorderCase> {};

TEST_P(Reordering, every_vertex_keeps_its_neighbors_and_collectives_match_native) {
    const ReorderCase& reorder_case = GetParam();
    const int size = size_of(MPI_COMM_WORLD);
    const Digraph graph = reorder_case.graph(size);
    const Comm reordered = create_dist_graph(MPI_COMM_WORLD, graph, reorder_case.options);
    TopologyOptions given = reorder_case.options;
    given.construction = kept_ranks(given.construction);
    const Comm reference = create_dist_graph(MPI_COMM_WORLD, graph, given);

    // Vertex v of the reference is the process with old rank v; in the reordered communicator
    // it is the process with new rank v.
    const bool in_any_order = given.construction == Construction::general;
    const std::vector<std::vector<int>> vertices = all_vertex_lists(reference, in_any_order);
    expect_all_ranks(vertex_lists(reordered, in_any_order) == vertices[rank_of(reordered)],
                     "rank " + std::to_string(rank_of(reordered)) +
                         " of the reordered communicator does not have that vertex's neighbors and weights");

    const ReorderSums sums = reorder_sums(reordered);
    EXPECT_EQ(sums.tried, reordering_built ? static_cast<unsigned long long>(size) : 0u);
    EXPECT_TRUE(sums.reordered == 0 || sums.reordered == static_cast<unsigned long long>(size));
    EXPECT_LE(sums.cut_after, sums.cut_before);
    if (sums.reordered == 0) {
        EXPECT_EQ(sums.cut_after, sums.cut_before);
        EXPECT_TRUE(ranks_kept(reordered));
    }
    if (reordering_built && reorder_case.cut_falls_from > 0 && size >= reorder_case.cut_falls_from) {
        EXPECT_EQ(sums.reordered, static_cast<unsigned long long>(size));
        EXPECT_LT(sums.cut_after, sums.cut_before);
    }

    expect_every_shape_matches_native(reordered);
}

INSTANTIATE_TEST_SUITE_P(Topologies, Reordering, testing::ValuesIn(reorder_cases),
                         [](const testing::TestParamInfo<ReorderCase>& info) { return info.param.name; });

TEST(Reordering, bytes_between_nodes_fall_with_the_edge_weight) {
    if (!reordering_built) GTEST_SKIP() << "built without METIS";
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, scrambled_clusters(size_of(MPI_COMM_WORLD), 2),
                                        {.construction = Construction::adjacent_reorder, .hints = reordering(2)});
    const TypeCatalog catalog;
    expect_matches_native(make_call(Collective::alltoall, comm, catalog, {.types = &catalog.pair("int"), .units = 100}),
                          "100 ints per edge");
    const ReorderSums sums = reorder_sums(comm);
    EXPECT_GT(sums.bytes_before, 0u);
    EXPECT_LT(sums.bytes_after, sums.bytes_before);
}

// Reordering is off unless the environment or a hint turns it on.
TEST(Reordering, ranks_stay_when_reordering_is_off) {
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, scrambled_clusters(size_of(MPI_COMM_WORLD), 2),
                                        {.construction = Construction::adjacent_reorder,
                                         .hints = {{"nbrcomb_node_size", "2"}}});
    EXPECT_TRUE(ranks_kept(comm));
    EXPECT_EQ(reorder_sums(comm).tried, 0u);
}

TEST(Reordering, ranks_stay_when_processes_disagree) {
    const Hints off{{"nbrcomb_reorder", "off"}, {"nbrcomb_node_size", "2"}};
    const Comm comm = create_dist_graph(
        MPI_COMM_WORLD, scrambled_clusters(size_of(MPI_COMM_WORLD), 2),
        {.construction = Construction::adjacent_reorder, .hints = rank_of(MPI_COMM_WORLD) == 0 ? off : reordering(2)});
    EXPECT_TRUE(ranks_kept(comm));
    EXPECT_EQ(reorder_sums(comm).tried, 0u);
}

TEST(Reordering, ranks_stay_when_the_graph_has_more_edges_than_may_be_gathered) {
    if (!reordering_built) GTEST_SKIP() << "built without METIS: nothing is gathered";
    for (const Construction construction : {Construction::adjacent_reorder, Construction::general_reorder}) {
        const Comm comm = create_dist_graph(
            MPI_COMM_WORLD, scrambled_clusters(size_of(MPI_COMM_WORLD), 2),
            {.construction = construction, .hints = reordering(2, {{"nbrcomb_reorder_max_edges", "1"}})});
        EXPECT_TRUE(ranks_kept(comm));
        const ReorderSums sums = reorder_sums(comm);
        EXPECT_EQ(sums.tried, static_cast<unsigned long long>(size_of(MPI_COMM_WORLD)));
        EXPECT_EQ(sums.reordered, 0u);
        EXPECT_GT(sums.cut_before, 0u);
        EXPECT_EQ(sums.cut_after, sums.cut_before);
    }
}

}  // namespace
