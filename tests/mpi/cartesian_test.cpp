// Neighborhood collectives on Cartesian (MPI_Cart_create, MPI_Cart_sub) and graph
// (MPI_Graph_create) communicators give native results byte for byte, in every form, in the
// neighbor order of MPI-4.1 §8.6: MPI_PROC_NULL neighbors send and receive nothing, and where a
// periodic dimension has 1 or 2 processes send block s still meets receive block s^1 (where
// native MPI is known wrong there, as MPICH 4.0 is, the harness's reference stands in). These
// constructors take no hints, so the environment sets the mode: CTest runs this once with
// NBRCOMB_MODE=pairs and NBRCOMB_THETA=1 (the library's schedules on every call), once in
// auto mode with NBRCOMB_LAZY=1 (Phase 1 in the first call, then trials and decisions), and once
// with NBRCOMB_MODE=aggregate on nodes of 2, once with NBRCOMB_MODE=dimwise.
#include "schedule/mpi_features.h"
#include "all_ranks.h"
#include "collective_shapes.h"
#include "datatypes.h"
#include "differential.h"
#include "mix.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace nbrcomb::test;

namespace {

// Auto mode may leave a call to native MPI; any other mode runs every call itself.
Expect route_of(MPI_Comm comm) {
    nbrcomb_stats stats{};
    if (comm_stats(comm, stats) != MPI_SUCCESS) return Expect::library_runs;  // whose check then fails
    return stats.requested_mode == NBRCOMB_MODE_AUTO ? Expect::any_route : Expect::library_runs;
}

std::vector<Form> forms() {
    std::vector<Form> all{Form::blocking, Form::nonblocking};
    if (has_persistent_collectives) all.push_back(Form::persistent);
    return all;
}

// Collective: every collective in every shape and form on comm against native MPI.
void expect_all_forms_match_native(MPI_Comm comm) {
    for (const Form form : forms()) expect_every_shape_matches_native(comm, form, route_of(comm));
}

std::vector<int> dims_created(int size, int dimensions) {
    std::vector<int> dims(static_cast<std::size_t>(dimensions), 0);
    MPI_Dims_create(size, dimensions, dims.data());
    return dims;
}

struct GridCase {
    std::string name;
    std::function<std::vector<int>(int size)> dims;  // of size processes; empty where size does not fit
    std::vector<int> periods;
    int reorder = 0;
};

void PrintTo(const GridCase& grid, std::ostream* out) { *out << grid.name; }

auto created(int dimensions) {
    return [dimensions](int size) { return dims_created(size, dimensions); };
}

// Dimensions of 1 and 2 processes come from small jobs and from the fixed shapes.
const std::vector<GridCase> grid_cases{
    {"line_open", created(1), {0}},
    {"ring", created(1), {1}, 1},
    {"plane_open", created(2), {0, 0}},
    {"torus_2d", created(2), {1, 1}},
    {"cylinder", created(2), {1, 0}, 1},
    {"box_open", created(3), {0, 0, 0}},
    {"torus_3d", created(3), {1, 1, 1}},
    {"slab", created(3), {0, 1, 1}},
    {"periodic_dims_of_1", [](int size) { return std::vector<int>{1, size, 1}; }, {1, 0, 1}},
    {"open_dims_of_1", [](int size) { return std::vector<int>{1, size, 1}; }, {0, 1, 0}},
    {"periodic_dim_of_2",
     [](int size) { return size % 2 == 0 ? std::vector<int>{2, size / 2} : std::vector<int>{}; },
     {1, 0}},
    {"periodic_dims_of_2",
     [](int size) { return size % 4 == 0 ? std::vector<int>{2, 2, size / 4} : std::vector<int>{}; },
     {1, 1, 0}},
};

// Collective over MPI_COMM_WORLD: the Cartesian communicator of grid, which covers every rank.
Comm cartesian(const std::vector<int>& dims, const std::vector<int>& periods, int reorder = 0) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Cart_create(MPI_COMM_WORLD, static_cast<int>(dims.size()), dims.data(), periods.data(), reorder, &comm);
    return Comm(comm);
}

class CartesianGrids : public testing::TestWithParam<GridCase> {};

TEST_P(CartesianGrids, every_collective_and_form_matches_native) {
    const GridCase& grid = GetParam();
    const std::vector<int> dims = grid.dims(size_of(MPI_COMM_WORLD));
    if (dims.empty()) GTEST_SKIP() << grid.name << " does not fit " << size_of(MPI_COMM_WORLD) << " ranks";
    const Comm comm = cartesian(dims, grid.periods, grid.reorder);
    expect_all_forms_match_native(comm);
}

INSTANTIATE_TEST_SUITE_P(Grids, CartesianGrids, testing::ValuesIn(grid_cases),
                         [](const testing::TestParamInfo<GridCase>& info) { return info.param.name; });

// MPI_Cart_sub of a 3-D grid periodic in its first and last dimensions.
class CartesianSubgrids : public testing::TestWithParam<std::vector<int>> {};

TEST_P(CartesianSubgrids, every_collective_and_form_matches_native) {
    const Comm grid = cartesian(dims_created(size_of(MPI_COMM_WORLD), 3), {1, 0, 1});
    MPI_Comm sub = MPI_COMM_NULL;
    ASSERT_EQ(MPI_Cart_sub(grid, GetParam().data(), &sub), MPI_SUCCESS);
    const Comm comm(sub);
    expect_all_forms_match_native(comm);
}

INSTANTIATE_TEST_SUITE_P(Remaining, CartesianSubgrids,
                         testing::Values(std::vector<int>{1, 0, 1}, std::vector<int>{0, 1, 0}),
                         [](const testing::TestParamInfo<std::vector<int>>& info) {
                             std::string name = "dims";
                             for (const int remain : info.param) name += remain ? "_kept" : "_dropped";
                             return name;
                         });

// A duplicate shares the pattern and runs its calls as its original does.
TEST(Cartesian, duplicate_runs_through_the_library) {
    const Comm grid = cartesian(dims_created(size_of(MPI_COMM_WORLD), 2), {1, 0});
    MPI_Comm dup = MPI_COMM_NULL;
    ASSERT_EQ(MPI_Comm_dup(grid, &dup), MPI_SUCCESS);
    const Comm comm(dup);
    expect_all_forms_match_native(comm);
}

// What the standard prescribes, computed here rather than taken from an MPI: on a ring, a
// process's block 0 holds what its -1 neighbor sent to its +1 neighbor (block 1) and block 1 what
// its +1 neighbor sent to its -1 neighbor (block 0); at the ends of a line MPI_PROC_NULL sends
// nothing and its block keeps what it held. One and two processes make the same neighbor twice.
class RingsAndLines : public testing::TestWithParam<std::tuple<bool, Form>> {};

TEST_P(RingsAndLines, blocks_meet_as_the_standard_says) {
    const auto [periodic, form] = GetParam();
    if (form == Form::persistent && !has_persistent_collectives) GTEST_SKIP() << "no MPI_Neighbor_*_init";
    const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
    const Comm comm = cartesian({size}, {periodic ? 1 : 0});
    ASSERT_TRUE(expect_library_loaded());
    constexpr int untouched = -7;
    const int send[2] = {10 * rank, 10 * rank + 1};
    int recv[2] = {untouched, untouched};
    MPI_Request request = MPI_REQUEST_NULL;
    switch (form) {
    case Form::blocking: ASSERT_EQ(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm), MPI_SUCCESS); break;
    case Form::nonblocking:
        ASSERT_EQ(MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm, &request), MPI_SUCCESS);
        ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
        break;
    case Form::persistent:
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        ASSERT_EQ(MPI_Neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, comm, MPI_INFO_NULL, &request),
                  MPI_SUCCESS);
        ASSERT_EQ(MPI_Start(&request), MPI_SUCCESS);
        ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
        ASSERT_EQ(MPI_Request_free(&request), MPI_SUCCESS);
#endif
        break;
    }
    const bool has_below = periodic || rank > 0, has_above = periodic || rank < size - 1;
    const int expected[2] = {has_below ? 10 * ((rank + size - 1) % size) + 1 : untouched,
                             has_above ? 10 * ((rank + 1) % size) : untouched};
    expect_all_ranks(recv[0] == expected[0] && recv[1] == expected[1],
                     "received " + std::to_string(recv[0]) + ", " + std::to_string(recv[1]) + " instead of " +
                         std::to_string(expected[0]) + ", " + std::to_string(expected[1]));
}

INSTANTIATE_TEST_SUITE_P(Forms, RingsAndLines,
                         testing::Combine(testing::Bool(), testing::Values(Form::blocking, Form::nonblocking,
                                                                           Form::persistent)),
                         [](const testing::TestParamInfo<std::tuple<bool, Form>>& info) {
                             return std::string(std::get<0>(info.param) ? "ring_" : "line_") +
                                    name_of(std::get<1>(info.param));
                         });

// The send block of an end's MPI_PROC_NULL neighbor lies far outside any memory of the process:
// reading it would crash.
TEST(CartesianLine, send_blocks_of_missing_neighbors_are_not_read) {
    const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
    const Comm comm = cartesian({size}, {0});
    ASSERT_TRUE(expect_library_loaded());
    constexpr int far = 1 << 30;  // ints: 4 GiB past the buffer
    const int send[2] = {10 * rank, 10 * rank + 1};
    const int counts[2] = {1, 1}, recv_displs[2] = {0, 1};
    const int send_displs[2] = {rank > 0 ? 0 : far, rank < size - 1 ? 1 : far};
    for (const bool blocking : {true, false}) {
        constexpr int untouched = -7;
        int recv[2] = {untouched, untouched};
        if (blocking) {
            ASSERT_EQ(
                MPI_Neighbor_alltoallv(send, counts, send_displs, MPI_INT, recv, counts, recv_displs, MPI_INT, comm),
                MPI_SUCCESS);
        } else {
            MPI_Request request = MPI_REQUEST_NULL;
            ASSERT_EQ(MPI_Ineighbor_alltoallv(send, counts, send_displs, MPI_INT, recv, counts, recv_displs, MPI_INT,
                                              comm, &request),
                      MPI_SUCCESS);
            ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
        const int expected[2] = {rank > 0 ? 10 * (rank - 1) + 1 : untouched,
                                 rank < size - 1 ? 10 * (rank + 1) : untouched};
        expect_all_ranks(recv[0] == expected[0] && recv[1] == expected[1],
                         std::string(blocking ? "blocking" : "nonblocking") + ": received " + std::to_string(recv[0]) +
                             ", " + std::to_string(recv[1]));
    }
}

// Collective over MPI_COMM_WORLD: a graph topology with out[r] as the neighbors of rank r.
Comm graph_topology(const std::vector<std::vector<int>>& out) {
    std::vector<int> index, edges;
    for (const std::vector<int>& neighbors : out) {
        edges.insert(edges.end(), neighbors.begin(), neighbors.end());
        index.push_back(static_cast<int>(edges.size()));
    }
    edges.push_back(-1);  // a spare entry: Open MPI 4.1 rejects a NULL edges array even for no edges
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Graph_create(MPI_COMM_WORLD, static_cast<int>(out.size()), index.data(), edges.data(), 0, &comm);
    return Comm(comm);
}

// Every pair of ranks joined by 0 to 2 edges each way, self-loops included, each rank's list in
// its own order: symmetric, as the neighborhood collectives require of a graph topology.
std::vector<std::vector<int>> symmetric_multigraph(int size, std::uint64_t seed) {
    std::vector<std::vector<int>> out(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i)
        for (int j = i; j < size; ++j) {
            const auto edges = static_cast<int>(mix(seed, i, j) % (i == j ? 2 : 3));
            for (int e = 0; e < edges; ++e) {
                out[static_cast<std::size_t>(i)].push_back(j);
                if (i != j) out[static_cast<std::size_t>(j)].push_back(i);
            }
        }
    for (int r = 0; r < size; ++r) {
        std::vector<int>& neighbors = out[static_cast<std::size_t>(r)];
        for (std::size_t k = neighbors.size(); k > 1; --k) std::swap(neighbors[k - 1], neighbors[mix(seed, r, k) % k]);
    }
    return out;
}

TEST(Graph, symmetric_multigraph_matches_native) {
    const Comm comm = graph_topology(symmetric_multigraph(size_of(MPI_COMM_WORLD), 31));
    expect_all_forms_match_native(comm);
}

// A periodic Moore stencil as a graph topology: many shared neighbors, so combining saves
// messages where the mode combines on every call.
TEST(Graph, moore_torus_matches_native_and_combines) {
    const int size = size_of(MPI_COMM_WORLD);
    const Comm comm = graph_topology(periodic_stencil(size, 2, Stencil::moore, 1).out);
    expect_all_forms_match_native(comm);
    if (size < 8 || route_of(comm) != Expect::library_runs) return;
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    unsigned long long sent[2] = {stats.messages_sent, stats.native_messages};
    MPI_Allreduce(MPI_IN_PLACE, sent, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_LT(sent[0], sent[1]) << "no messages saved";
}

// A graph whose edges do not come back is legal, its neighborhood collectives are not: the
// library leaves it alone rather than wait in Phase 1 for messages that never come.
TEST(Graph, one_way_ring_stays_native) {
    const int size = size_of(MPI_COMM_WORLD);
    if (size < 3) GTEST_SKIP() << "with fewer than 3 ranks a ring goes both ways";
    std::vector<std::vector<int>> out(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) out[static_cast<std::size_t>(r)].push_back((r + 1) % size);
    const Comm comm = graph_topology(out);
    nbrcomb_stats stats{};
    expect_all_ranks(comm_stats(comm, stats) == MPI_ERR_COMM, "the library manages a graph that is not symmetric");
}

}  // namespace
