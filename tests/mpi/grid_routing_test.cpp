// Routing over a process grid (dimwise: dimension-wise combining on a stencil's grid; forward:
// store-and-forward over a virtual grid): every collective in every form gives native results
// byte for byte, with repeated edges and self-loops (the wrap-around of small periodic grids),
// processes without neighbors and any graph at all; and on stencils each process sends fewer
// messages per call than one per edge.
#include "all_ranks.h"
#include "collective_shapes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

struct GridCase {
    std::string name;
    std::string topology;  // named_digraph's name
    nbrcomb_mode mode;
    bool stencil;  // whether messages per call must fall (from 4 ranks on)
    // Blocks above this many bytes go as direct messages beside the routed ones (0: none).
    int combine_limit = 0;
};

void PrintTo(const GridCase& c, std::ostream* out) { *out << c.name; }

// Store-and-forward on nodes of 2, so that its grids put the nodes' dimensions first.
Hints hints_of(const GridCase& c) {
    Hints hints{{"nbrcomb_mode", c.mode == NBRCOMB_MODE_DIMWISE ? "dimwise" : "forward"}};
    if (c.mode == NBRCOMB_MODE_FORWARD) hints.push_back({"nbrcomb_node_size", "2"});
    if (c.combine_limit > 0) hints.push_back({"nbrcomb_combine_limit", std::to_string(c.combine_limit)});
    return hints;
}

// The messages the library sent on comm and native MPI's for the same calls, summed over the ranks.
std::pair<unsigned long long, unsigned long long> messages_of(MPI_Comm comm, const GridCase& c) {
    nbrcomb_stats stats{};
    EXPECT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    EXPECT_EQ(stats.mode, c.mode);
    unsigned long long sums[2] = {stats.messages_sent, stats.native_messages};
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return {sums[0], sums[1]};
}

void expect_fewer_messages(MPI_Comm comm, const GridCase& c) {
    const auto [sent, native] = messages_of(comm, c);
    if (c.stencil && size_of(MPI_COMM_WORLD) >= 4) {
        EXPECT_LT(sent, native);
    }
}

const std::vector<GridCase> blocking_cases{
    {"moore_2d_r1_dimwise", "moore:2:1", NBRCOMB_MODE_DIMWISE, true},
    {"moore_2d_r2_dimwise", "moore:2:2", NBRCOMB_MODE_DIMWISE, true},
    {"moore_3d_r1_dimwise", "moore:3:1", NBRCOMB_MODE_DIMWISE, true},
    {"von_neumann_3d_r2_dimwise", "vonneumann:3:2", NBRCOMB_MODE_DIMWISE, false},
    {"random_dimwise", "random:51", NBRCOMB_MODE_DIMWISE, false},
    {"complete_dimwise", "er:1.0", NBRCOMB_MODE_DIMWISE, true},
    {"matrix_can_1054_dimwise", "matrix:can_1054.mtx", NBRCOMB_MODE_DIMWISE, false},
    {"moore_2d_r2_forward", "moore:2:2", NBRCOMB_MODE_FORWARD, true},
    {"random_forward", "random:52", NBRCOMB_MODE_FORWARD, false},
    {"random_idle_forward", "random:53", NBRCOMB_MODE_FORWARD, false},
    {"complete_forward", "er:1.0", NBRCOMB_MODE_FORWARD, true},
    {"dense_random_forward", "er:0.5:7", NBRCOMB_MODE_FORWARD, false},
    {"matrix_lp_sctap2_forward", "matrix:lp_sctap2.mtx", NBRCOMB_MODE_FORWARD, false},
    {"random_idle_forward_combine_limit", "random:56", NBRCOMB_MODE_FORWARD, false, 24},
};

class GridRouting : public testing::TestWithParam<GridCase> {};

TEST_P(GridRouting, every_shape_matches_native) {
    const GridCase& c = GetParam();
    const Digraph graph = named_digraph(c.topology, size_of(MPI_COMM_WORLD));
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, graph, {.hints = hints_of(c)});
    expect_every_shape_matches_native(comm);
    expect_fewer_messages(comm, c);
}

INSTANTIATE_TEST_SUITE_P(Cases, GridRouting, testing::ValuesIn(blocking_cases),
                         [](const testing::TestParamInfo<GridCase>& info) { return info.param.name; });

const std::vector<GridCase> form_cases{
    {"moore_3d_r1_dimwise", "moore:3:1", NBRCOMB_MODE_DIMWISE, true},
    {"random_dimwise", "random:54", NBRCOMB_MODE_DIMWISE, false},
    {"random_forward", "random:55", NBRCOMB_MODE_FORWARD, false},
    {"random_forward_combine_limit", "random:57", NBRCOMB_MODE_FORWARD, false, 24},
};

// Blocks above the combine limit go as direct messages beside the routed ones: on a stencil, the
// same calls then send more messages than without the limit.
TEST(GridRoutingLimit, blocks_above_the_combine_limit_go_directly) {
    const GridCase routed{"moore_2d_r2_dimwise", "moore:2:2", NBRCOMB_MODE_DIMWISE, true};
    GridCase limited = routed;
    limited.combine_limit = 24;
    const Digraph graph = named_digraph(routed.topology, size_of(MPI_COMM_WORLD));
    const Comm plain = create_dist_graph(MPI_COMM_WORLD, graph, {.hints = hints_of(routed)});
    const Comm with_limit = create_dist_graph(MPI_COMM_WORLD, graph, {.hints = hints_of(limited)});
    expect_every_shape_matches_native(plain);
    expect_every_shape_matches_native(with_limit);
    const auto [plain_sent, native] = messages_of(plain, routed);
    const auto [limited_sent, same_native] = messages_of(with_limit, limited);
    EXPECT_EQ(native, same_native);
    if (size_of(MPI_COMM_WORLD) >= 4) {
        EXPECT_GT(limited_sent, plain_sent);
    }
}

class GridRoutingForms : public testing::TestWithParam<std::tuple<GridCase, Form>> {};

TEST_P(GridRoutingForms, every_shape_matches_native) {
    const auto& [c, form] = GetParam();
    if (form == Form::persistent && !has_persistent_collectives)
        GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
    const Digraph graph = named_digraph(c.topology, size_of(MPI_COMM_WORLD));
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, graph, {.hints = hints_of(c)});
    expect_every_shape_matches_native(comm, form);
    expect_fewer_messages(comm, c);
}

INSTANTIATE_TEST_SUITE_P(Cases, GridRoutingForms,
                         testing::Combine(testing::ValuesIn(form_cases),
                                          testing::Values(Form::nonblocking, Form::persistent)),
                         [](const testing::TestParamInfo<std::tuple<GridCase, Form>>& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

}  // namespace
