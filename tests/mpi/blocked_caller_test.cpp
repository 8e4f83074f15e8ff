// A process blocks in another MPI call (a barrier, a reduction, another communicator's
// neighborhood collective, a topology constructor) while a nonblocking neighborhood collective it
// relays for the others is in flight, as native MPIs allow: every call finishes, in every mode,
// with the bytes native MPI gives.
#include "all_ranks.h"
#include "differential.h"
#include "mode_cases.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

// A process blocked in another MPI call still relays for the others: Open MPI runs the
// library's progress in its own (mpi_progress_hook.h); elsewhere the blocking calls the library
// intercepts first finish its operations in flight.
enum class Blocker { barrier, allreduce, neighbor_collective, constructor };
const char* name_of(Blocker blocker) {
    switch (blocker) {
    case Blocker::barrier: return "barrier";
    case Blocker::allreduce: return "allreduce";
    case Blocker::neighbor_collective: return "neighbor_collective";
    case Blocker::constructor: return "constructor";
    }
    return "?";
}

class BlockedCaller : public testing::TestWithParam<std::tuple<ModeCase, Blocker>> {};

// Every rank starts an alltoall on a complete digraph; rank 0 enters the blocking call before
// its wait, the others after theirs. 30 iterations, so that in auto mode with Phase 1 in the
// first call (lazy1) the operation falls on both sides of the trial and after its decision;
// the default settings differ from that in when Phase 1 comes, which SkippingCaller covers.
TEST_P(BlockedCaller, completes_while_a_relay_blocks_elsewhere) {
    const auto& [mode, blocker] = GetParam();
    const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
    const Digraph complete = complete_digraph(size);
    Comm comm = create_dist_graph(MPI_COMM_WORLD, complete, {.hints = mode.hints});
    Comm other = create_dist_graph(MPI_COMM_WORLD, complete, {.hints = mode.hints});
    const std::function<void()> block = [&] {
        int value = rank;
        switch (blocker) {
        case Blocker::barrier: MPI_Barrier(MPI_COMM_WORLD); break;
        case Blocker::allreduce: MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
        case Blocker::neighbor_collective: {
            std::vector<int> gathered(static_cast<std::size_t>(size));
            MPI_Neighbor_allgather(&value, 1, MPI_INT, gathered.data(), 1, MPI_INT, other);
            break;
        }
        case Blocker::constructor: {
            Comm made = create_dist_graph(MPI_COMM_WORLD, complete, {.hints = mode.hints});
            break;
        }
        }
    };
    std::string failure;
    for (int iteration = 0; iteration < 30; ++iteration) {
        std::vector<int> send(static_cast<std::size_t>(size)), mine(send.size(), -1), native(send.size(), -1);
        for (int j = 0; j < size; ++j) send[static_cast<std::size_t>(j)] = rank * 1000 + j * 10 + iteration;
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Ineighbor_alltoall(send.data(), 1, MPI_INT, mine.data(), 1, MPI_INT, comm, &request);
        if (rank == 0) block();
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        if (rank != 0) block();
        PMPI_Neighbor_alltoall(send.data(), 1, MPI_INT, native.data(), 1, MPI_INT, comm);
        if (mine != native && failure.empty()) failure = "iteration " + std::to_string(iteration) + " differs";
    }
    EXPECT_EQ(failure, "") << "rank " << rank;
    EXPECT_TRUE(on_all_ranks(failure.empty()));
}

std::vector<ModeCase> modes_but_default() {
    std::vector<ModeCase> chosen = all_modes();
    std::erase_if(chosen, [](const ModeCase& mode) { return mode.name == "default"; });
    return chosen;
}

INSTANTIATE_TEST_SUITE_P(Modes, BlockedCaller,
                         testing::Combine(testing::ValuesIn(modes_but_default()),
                                          testing::Values(Blocker::barrier, Blocker::allreduce,
                                                          Blocker::neighbor_collective, Blocker::constructor)),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

}  // namespace
