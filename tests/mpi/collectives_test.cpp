// All five neighborhood collectives give native results, byte for byte, on every topology
// family, with counts from 0 up, gaps and reversed blocks, one shared buffer and derived types.
#include "all_ranks.h"
#include "collective_shapes.h"
#include "datatypes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

using namespace nbrcomb::test;

namespace {

struct TopologyCase {
    std::string name;
    std::function<Digraph(int size)> graph;
    TopologyOptions options;
};

// gtest names a failing instance by this rather than by the bytes of the object.
void PrintTo(const TopologyCase& topology, std::ostream* out) { *out << topology.name; }

auto random_graph(std::uint64_t seed) {
    return [seed](int size) { return random_digraph(size, seed); };
}

auto stencil(int dims, Stencil kind, int radius) {
    return [=](int size) { return periodic_stencil(size, dims, kind, radius); };
}

auto matrix(std::string file) {
    return [file](int size) { return matrix_digraph(file, size); };
}

const Hints groups_hints{{"nbrcomb_mode", "groups"}, {"nbrcomb_theta", "1"}, {"nbrcomb_k", "3"}};
const Hints node_aware_hints{
    {"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "1"}, {"nbrcomb_topo_aware", "1"}, {"nbrcomb_node_size", "2"}};
// Blocks above 24 bytes go directly even on combined edges: both kinds in one combined message.
const Hints limited_pairs_hints{{"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "1"}, {"nbrcomb_combine_limit", "24"}};
// Some pairs of ranks friends, others not: combined and direct edges in one schedule.
const Hints partial_pairs_hints{{"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "3"}};

const std::vector<TopologyCase> topology_cases{
    {"random", random_graph(1), {}},
    {"random_weighted", random_graph(2), {.weighted = true}},
    {"random_general", random_graph(3), {.construction = Construction::general}},
    {"random_general_weighted", random_graph(4), {.construction = Construction::general, .weighted = true}},
    {"random_reorder", random_graph(5), {.construction = Construction::adjacent_reorder, .weighted = true}},
    {"von_neumann_2d_r1", stencil(2, Stencil::von_neumann, 1), {}},
    {"von_neumann_2d_r2", stencil(2, Stencil::von_neumann, 2), {.weighted = true}},
    {"moore_2d_r1", stencil(2, Stencil::moore, 1), {.construction = Construction::general}},
    {"moore_2d_r2", stencil(2, Stencil::moore, 2), {}},
    {"von_neumann_3d_r1", stencil(3, Stencil::von_neumann, 1), {.weighted = true}},
    {"von_neumann_3d_r2", stencil(3, Stencil::von_neumann, 2), {.construction = Construction::general}},
    {"moore_3d_r1", stencil(3, Stencil::moore, 1), {}},
    {"moore_3d_r2", stencil(3, Stencil::moore, 2), {.construction = Construction::general, .weighted = true}},
    {"matrix_bcsstk01", matrix("bcsstk01.mtx"), {}},
    {"matrix_can_1054", matrix("can_1054.mtx"), {.weighted = true}},
    {"matrix_can_1072", matrix("can_1072.mtx"), {.construction = Construction::general}},
    {"matrix_D_10", matrix("D_10.mtx"), {}},
    {"matrix_dwt_162", matrix("dwt_162.mtx"), {}},
    {"matrix_gams10a", matrix("gams10a.mtx"), {.weighted = true}},
    {"matrix_lp_sctap2", matrix("lp_sctap2.mtx"), {.construction = Construction::general}},
    {"matrix_odepa400", matrix("odepa400.mtx"), {}},
    {"matrix_oscil_dcop_11", matrix("oscil_dcop_11.mtx"), {.construction = Construction::general, .weighted = true}},
    {"matrix_SmaGri", matrix("SmaGri.mtx"), {}},
    {"matrix_tumorAntiAngiogenesis_4", matrix("tumorAntiAngiogenesis_4.mtx"), {}},
    {"matrix_west0132", matrix("west0132.mtx"), {.weighted = true}},
    {"matrix_ww_36_pmec_36", matrix("ww_36_pmec_36.mtx"), {}},
    {"random_pairs", random_graph(6), {.hints = pairs_hints}},
    {"moore_2d_r2_pairs", stencil(2, Stencil::moore, 2), {.hints = pairs_hints}},
    {"moore_3d_r2_pairs", stencil(3, Stencil::moore, 2), {.weighted = true, .hints = pairs_hints}},
    {"von_neumann_2d_r2_partial_pairs", stencil(2, Stencil::von_neumann, 2), {.hints = partial_pairs_hints}},
    {"random_general_pairs", random_graph(9), {.construction = Construction::general, .hints = pairs_hints}},
    {"random_reorder_pairs", random_graph(10), {.construction = Construction::adjacent_reorder, .hints = pairs_hints}},
    {"matrix_can_1072_pairs", matrix("can_1072.mtx"), {.hints = pairs_hints}},
    {"matrix_lp_sctap2_partial_pairs", matrix("lp_sctap2.mtx"), {.hints = partial_pairs_hints}},
    {"random_pairs_combine_limit", random_graph(11), {.hints = limited_pairs_hints}},
    {"moore_2d_r2_pairs_combine_limit", stencil(2, Stencil::moore, 2), {.hints = limited_pairs_hints}},
    {"moore_3d_r1_groups", stencil(3, Stencil::moore, 1), {.hints = groups_hints}},
    {"random_general_groups", random_graph(7), {.construction = Construction::general, .hints = groups_hints}},
    {"moore_2d_r1_node_aware", stencil(2, Stencil::moore, 1), {.hints = node_aware_hints}},
};

class NeighborCollectives : public testing::TestWithParam<TopologyCase> {};

// One communicator for all five collectives: setting a topology up is what costs.
TEST_P(NeighborCollectives, all_collectives_match_native) {
    const TopologyCase& topology = GetParam();
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, topology.graph(size_of(MPI_COMM_WORLD)), topology.options);
    expect_every_shape_matches_native(comm);
}

INSTANTIATE_TEST_SUITE_P(Topologies, NeighborCollectives, testing::ValuesIn(topology_cases),
                         [](const testing::TestParamInfo<TopologyCase>& info) { return info.param.name; });

}  // namespace
