// A complete graph's calls as the MPI's own collective over all processes (global mode): every
// collective in every form gives native results byte for byte, whatever the order of the neighbor
// lists, with and without self-loops, with the blocks in place or packed; the calls run as the
// MPI's global collective; and a graph that is not complete runs the direct schedule instead.
#include "all_ranks.h"
#include "collective_shapes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

const Hints global_hints{{"nbrcomb_mode", "global"}};

// Every list of graph shuffled by its process alone (any order of a complete graph's lists keeps
// its edges, each between two processes once).
Digraph shuffled_lists(Digraph graph, std::uint64_t seed) {
    for (std::size_t r = 0; r < graph.out.size(); ++r) {
        std::mt19937_64 random(seed + r);
        std::shuffle(graph.out[r].begin(), graph.out[r].end(), random);
        std::shuffle(graph.in[r].begin(), graph.in[r].end(), random);
    }
    return graph;
}

struct GlobalCase {
    std::string name;
    Digraph (*graph)(int size);
    bool complete;
};

void PrintTo(const GlobalCase& c, std::ostream* out) { *out << c.name; }

const std::vector<GlobalCase> cases{
    // Each process lists itself first (rank 0's lists are in rank order: its blocks go in place).
    {"complete_linear_self_loops", [](int size) { return named_digraph("complete", size); }, true},
    {"complete_random_self_loops", [](int size) { return shuffled_lists(named_digraph("complete", size), 7); }, true},
    {"complete_no_self_loops", [](int size) { return named_digraph("er:1.0", size); }, true},
    {"complete_random_no_self_loops", [](int size) { return shuffled_lists(named_digraph("er:1.0", size), 8); }, true},
    {"stencil_not_complete", [](int size) { return named_digraph("moore:2:1", size); }, false},
    {"random_not_complete", [](int size) { return named_digraph("random:61", size); }, false},
};

// On a complete graph of more than one process every call the library ran was the MPI's global
// collective; on any other graph none.
void expect_global_calls(MPI_Comm comm, const GlobalCase& c) {
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    EXPECT_EQ(stats.mode, NBRCOMB_MODE_GLOBAL);
    EXPECT_GT(stats.calls, 0u);
    const bool global = c.complete && size_of(MPI_COMM_WORLD) > 1;
    EXPECT_EQ(stats.global_calls, global ? stats.calls : 0u);
    if (global) {
        EXPECT_EQ(stats.messages_sent, 0u);
        EXPECT_EQ(stats.native_messages, 0u);
    }
}

class GlobalPlan : public testing::TestWithParam<std::tuple<GlobalCase, Form>> {};

TEST_P(GlobalPlan, every_shape_matches_native) {
    const auto& [c, form] = GetParam();
    if (form == Form::persistent && !has_persistent_collectives)
        GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, c.graph(size_of(MPI_COMM_WORLD)), {.hints = global_hints});
    expect_every_shape_matches_native(comm, form);
    expect_global_calls(comm, c);
}

INSTANTIATE_TEST_SUITE_P(Cases, GlobalPlan,
                         testing::Combine(testing::ValuesIn(cases),
                                          testing::Values(Form::blocking, Form::nonblocking, Form::persistent)),
                         [](const testing::TestParamInfo<std::tuple<GlobalCase, Form>>& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

// Rank 0 sends a strided block (packed, so its send side lies in temporary space) to rank 1 and
// receives nothing; rank 1 receives it and sends nothing; the others, from 3 processes on, neither
// send nor receive. A side without bytes must not share the other side's address: Open MPI's
// collectives take equal send and receive buffers for MPI_IN_PLACE, and then send what the
// receive counts say, or run another algorithm than the other processes; Open MPI 4.1 then leaves
// out a nonblocking collective's tag on a process whose side is empty, and the next nonblocking
// collective over the communicator hangs or truncates.
TEST(GlobalPlanSides, a_side_without_bytes_keeps_apart_from_the_other) {
    const int size = size_of(MPI_COMM_WORLD);
    if (size < 2) GTEST_SKIP() << "a complete graph of one process has no edge";
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, named_digraph("er:1.0", size), {.hints = global_hints});
    int indegree = 0, outdegree = 0, weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
    std::vector<int> sources(static_cast<std::size_t>(indegree)), destinations(static_cast<std::size_t>(outdegree));
    MPI_Dist_graph_neighbors(comm, indegree, sources.data(), MPI_UNWEIGHTED, outdegree, destinations.data(),
                             MPI_UNWEIGHTED);
    MPI_Datatype strided = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    const bool sender = rank_of(MPI_COMM_WORLD) == 0;
    const std::vector<int> send{10, -1, 11, -1};
    const bool receiver = rank_of(MPI_COMM_WORLD) == 1;
    std::vector<int> send_counts(destinations.size() + 1), send_displs(send_counts.size(), 0);
    for (std::size_t j = 0; j < destinations.size(); ++j) send_counts[j] = sender && destinations[j] == 1 ? 1 : 0;
    std::vector<int> recv_counts(sources.size() + 1), recv_displs(recv_counts.size());
    for (std::size_t j = 0; j < sources.size(); ++j) {
        recv_counts[j] = receiver && sources[j] == 0 ? 2 : 0;
        recv_displs[j] = static_cast<int>(2 * j);
    }
    for (const Form form : {Form::blocking, Form::nonblocking}) {
        std::vector<int> received(2 * sources.size() + 2, -7), expected(received);
        PMPI_Neighbor_alltoallv(send.data(), send_counts.data(), send_displs.data(), strided, expected.data(),
                                recv_counts.data(), recv_displs.data(), MPI_INT, comm);
        MPI_Request request = MPI_REQUEST_NULL;
        const int code = form == Form::blocking
                             ? MPI_Neighbor_alltoallv(send.data(), send_counts.data(), send_displs.data(), strided,
                                                      received.data(), recv_counts.data(), recv_displs.data(),
                                                      MPI_INT, comm)
                             : MPI_Ineighbor_alltoallv(send.data(), send_counts.data(), send_displs.data(), strided,
                                                       received.data(), recv_counts.data(), recv_displs.data(),
                                                       MPI_INT, comm, &request);
        EXPECT_EQ(code, MPI_SUCCESS) << name_of(form);
        if (form == Form::nonblocking) MPI_Wait(&request, MPI_STATUS_IGNORE);
        EXPECT_EQ(received, expected) << name_of(form);
    }
    MPI_Type_free(&strided);
    const int mine = rank_of(MPI_COMM_WORLD);
    std::vector<int> gathered(sources.size() + 1, -7), expected(gathered);
    PMPI_Neighbor_allgather(&mine, 1, MPI_INT, expected.data(), 1, MPI_INT, comm);
    MPI_Request request = MPI_REQUEST_NULL;
    EXPECT_EQ(MPI_Ineighbor_allgather(&mine, 1, MPI_INT, gathered.data(), 1, MPI_INT, comm, &request), MPI_SUCCESS);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    EXPECT_EQ(gathered, expected) << "the nonblocking call after";
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    EXPECT_EQ(stats.global_calls, 3u);
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

// Auto mode weighs the global collective on a complete graph; whichever way each shape goes,
// results stay exact, and from 4 processes on (2 rounds of one message against 3 messages) the
// estimate puts it first among the candidates.
TEST(GlobalPlanAuto, a_complete_graph_makes_the_global_collective_the_candidate) {
    const int size = size_of(MPI_COMM_WORLD);
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, shuffled_lists(named_digraph("complete", size), 9),
                                        {.hints = {{"nbrcomb_mode", "auto"}, {"nbrcomb_lazy", "0"}}});
    for (int i = 0; i < 3; ++i) expect_every_shape_matches_native(comm, Form::blocking, Expect::any_route);
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    if (size >= 4) {
        EXPECT_EQ(stats.mode, NBRCOMB_MODE_GLOBAL);
    }
}

}  // namespace
