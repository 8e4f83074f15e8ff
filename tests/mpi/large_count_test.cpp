// The large-count forms of MPI-4 (MPI_Neighbor_*_c, MPI_Ineighbor_*_c, MPI_Neighbor_*_init_c)
// give what native MPI's give, byte for byte, in all three forms, run by the library's schedules;
// a count past the range of int goes to native MPI.
#include "schedule/mpi_features.h"
#include "all_ranks.h"
#include "collective_shapes.h"
#include "differential.h"
#include "topologies.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

constexpr const char* no_large_count = "this MPI has no large-count neighborhood collectives (MPI-4 MPI_Neighbor_*_c)";

Comm topology_comm(const std::string& topology, Hints hints) {
    const auto spec = nbrcomb::topology::parse_topology(topology);
    return create_dist_graph(MPI_COMM_WORLD, digraph_of(nbrcomb::topology::generate(spec, size_of(MPI_COMM_WORLD))),
                             {.hints = std::move(hints)});
}

struct LargeCountCase {
    std::string name;
    std::string topology;  // as nbrsim names it
    Hints hints;
    Expect expect = Expect::library_runs;
};

void PrintTo(const LargeCountCase& large_count_case, std::ostream* out) { *out << large_count_case.name; }

const std::vector<LargeCountCase> large_count_cases{
    {"random_direct", "er:0.5:1", {{"nbrcomb_mode", "direct"}}},
    {"complete_pairs", "er:1.0", pairs_hints},
    {"moore_2d_r1_pairs", "moore:2:1", pairs_hints},
    {"random_auto", "er:0.6:2", {{"nbrcomb_lazy", "0"}}, Expect::any_route},
};

class LargeCount : public testing::TestWithParam<std::tuple<LargeCountCase, Form>> {};

TEST_P(LargeCount, every_shape_matches_native) {
    if (!has_large_count_forms) GTEST_SKIP() << no_large_count;
    const auto& [large_count_case, form] = GetParam();
    const Comm comm = topology_comm(large_count_case.topology, large_count_case.hints);
    expect_every_shape_matches_native(comm, form, large_count_case.expect, true);
}

INSTANTIATE_TEST_SUITE_P(Cases, LargeCount,
                         testing::Combine(testing::ValuesIn(large_count_cases),
                                          testing::Values(Form::blocking, Form::nonblocking, Form::persistent)),
                         [](const testing::TestParamInfo<std::tuple<LargeCountCase, Form>>& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

#if NBRCOMB_MPI_LARGE_COUNT
// A count past INT_MAX of a type without data moves nothing: native MPI's call, not the
// library's, which takes counts in int.
TEST(LargeCount, counts_past_int_go_to_native) {
    const Comm comm = topology_comm("er:1.0", pairs_hints);
    MPI_Datatype empty = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(0, MPI_INT, &empty);
    MPI_Type_commit(&empty);
    nbrcomb_stats before{}, after{};
    ASSERT_EQ(comm_stats(comm, before), MPI_SUCCESS);
    char sendbuf = 0, recvbuf = 0;
    const MPI_Count huge = static_cast<MPI_Count>(INT_MAX) + 1;
    EXPECT_EQ(MPI_Neighbor_allgather_c(&sendbuf, huge, empty, &recvbuf, huge, empty, comm), MPI_SUCCESS);
    ASSERT_EQ(comm_stats(comm, after), MPI_SUCCESS);
    EXPECT_EQ(after.calls, before.calls) << "the library ran a call whose counts do not fit in int";
    EXPECT_GT(after.native_calls, before.native_calls);
    MPI_Type_free(&empty);
}
#endif

}  // namespace
