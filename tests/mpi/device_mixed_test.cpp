// Device memory on some processes and NULL buffers of zero counts on the others (as PETSc passes
// where a process has nothing to send), in one call: the MPI must take the call everywhere or
// nowhere, or the two ways never meet. The even ranks' buffers are host memory that the stand-in
// CUDA driver (tests/device/) reports as device memory, and once they are marked the driver has a
// context on those ranks, as a GPU program's has. Its folder is on LD_LIBRARY_PATH
// (CMakeLists.txt). The tests run in order, in one process: the first marks the buffers after
// making its communicator, the second makes its communicators after.
#include "all_ranks.h"
#include "differential.h"
#include "mode_cases.h"
#include "topologies.h"
#include "tests/device/standin.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace nbrcomb::test;

namespace {

constexpr int calls = 40;  // past auto mode's Phase 1, in its 32nd call

bool on_device() { return rank_of(MPI_COMM_WORLD) % 2 == 0; }

bool mark_as_device(const std::vector<int>& buffer) {
    return standin_mark_device(buffer.data(), buffer.size() * sizeof(int));
}

// The even ranks' send (0) and receive (1) buffers, marked device memory at the first use; kept
// for the life of the process, as the stand-in reports them as device memory for good.
std::vector<int>& device_buffer(int which) {
    static std::vector<std::vector<int>> buffers(2, std::vector<int>(64));
    static const bool marked = !on_device() || (mark_as_device(buffers[0]) && mark_as_device(buffers[1]));
    EXPECT_TRUE(marked) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";
    return buffers[static_cast<std::size_t>(which)];
}

// calls alltoallv calls on comm, blocking and nonblocking in turn, each checked against the MPI's
// own on a communicator the library never saw. NULL buffers off the device ranks.
void exchange(MPI_Comm comm, MPI_Comm unseen, const std::string& label) {
    std::vector<int> counts, displs;
    const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
    for (int j = 0; j < size - 1; ++j) {
        const int neighbor = j < rank ? j : j + 1;
        counts.push_back(on_device() && neighbor % 2 == 0 ? 1 : 0);
        displs.push_back(j);
    }
    std::vector<int>& send = device_buffer(0);
    std::vector<int>& recv = device_buffer(1);
    for (int j = 0; j < size - 1; ++j) send[static_cast<std::size_t>(j)] = 100 * rank + j;
    std::vector<int> host_send(send), expected(64, -1);
    int* expected_at = on_device() ? expected.data() : nullptr;
    ASSERT_EQ(PMPI_Neighbor_alltoallv(on_device() ? host_send.data() : nullptr, counts.data(), displs.data(), MPI_INT,
                                      expected_at, counts.data(), displs.data(), MPI_INT, unseen),
              MPI_SUCCESS);
    const int* send_at = on_device() ? send.data() : nullptr;
    int* recv_at = on_device() ? recv.data() : nullptr;
    for (int call = 0; call < calls; ++call) {
        recv.assign(recv.size(), -1);
        const bool nonblocking = call % 2 == 1;
        if (nonblocking) {
            MPI_Request request = MPI_REQUEST_NULL;
            ASSERT_EQ(MPI_Ineighbor_alltoallv(send_at, counts.data(), displs.data(), MPI_INT, recv_at, counts.data(),
                                              displs.data(), MPI_INT, comm, &request),
                      MPI_SUCCESS);
            ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
        } else {
            ASSERT_EQ(MPI_Neighbor_alltoallv(send_at, counts.data(), displs.data(), MPI_INT, recv_at, counts.data(),
                                             displs.data(), MPI_INT, comm),
                      MPI_SUCCESS);
        }
        if (on_device()) {
            ASSERT_EQ(recv, expected) << label << ", call " << call;
        }
    }
}

Comm unseen_complete_graph() {
    const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
    std::vector<int> others;
    for (int r = 0; r < size; ++r)
        if (r != rank) others.push_back(r);
    MPI_Comm comm = MPI_COMM_NULL;
    PMPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(others.size()), others.data(), MPI_UNWEIGHTED,
                                    static_cast<int>(others.size()), others.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                    &comm);
    return Comm(comm);
}

// Auto mode's calls before Phase 1 all go to the MPI and count toward it alike, device memory or
// not, and Phase 1's opening agrees that some process passed device memory: it plans nothing.
TEST(MixedDeviceMemory, device_memory_first_passed_after_creation_is_agreed_before_phase_1) {
    ASSERT_TRUE(expect_library_loaded());
    const Comm unseen = unseen_complete_graph();
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, complete_digraph(size_of(MPI_COMM_WORLD)),
                                        {.hints = {{"nbrcomb_mode", "auto"}, {"nbrcomb_theta", "1"}}});
    device_buffer(0);  // marked now, after the communicator was made
    exchange(comm, unseen, "auto, marked after creation");
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    EXPECT_EQ(stats.calls, 0u) << "the library ran a call itself";
    EXPECT_EQ(stats.native_calls, static_cast<unsigned long long>(calls));
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

// Where a process uses a GPU when a communicator is made, the MPI takes every call, in every mode.
class EveryMode : public ::testing::TestWithParam<ModeCase> {};

TEST_P(EveryMode, a_communicator_made_where_a_process_uses_a_gpu_leaves_every_call_to_the_mpi) {
    ASSERT_TRUE(expect_library_loaded());
    device_buffer(0);
    const Comm unseen = unseen_complete_graph();
    const Comm comm =
        create_dist_graph(MPI_COMM_WORLD, complete_digraph(size_of(MPI_COMM_WORLD)), {.hints = GetParam().hints});
    exchange(comm, unseen, GetParam().name);
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    EXPECT_EQ(stats.calls, 0u) << "the library ran a call itself";
    EXPECT_EQ(stats.native_calls, static_cast<unsigned long long>(calls));
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

INSTANTIATE_TEST_SUITE_P(MixedDeviceMemory, EveryMode, ::testing::ValuesIn(all_modes()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
