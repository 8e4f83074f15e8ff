// Calls on device memory go to the MPI's own collective, in a mode where the library would run
// them itself, and the statistics count them so; the same calls on host memory stay with the
// library. The device memory is host memory that the stand-in CUDA driver (tests/device/)
// reports as device memory: its folder is on LD_LIBRARY_PATH (CMakeLists.txt).
#include "all_ranks.h"
#include "differential.h"
#include "topologies.h"
#include "tests/device/standin.h"

#include <gtest/gtest.h>

#include <vector>

using namespace nbrcomb::test;

namespace {

// Marked for good, so these buffers live as long as the process: no host buffer may later be
// allocated where the stand-in reports device memory.
std::vector<int>& device_buffer(int which) {
    static std::vector<std::vector<int>> buffers(2, std::vector<int>(64));
    return buffers[static_cast<std::size_t>(which)];
}

bool mark_as_device(const std::vector<int>& buffer) {
    return standin_mark_device(buffer.data(), buffer.size() * sizeof(int));
}

// Blocking and nonblocking alltoall of one int per edge from send into recv; its error class.
int alltoall(MPI_Comm comm, const std::vector<int>& send, std::vector<int>& recv, bool nonblocking) {
    if (!nonblocking) return MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm);
    MPI_Request request = MPI_REQUEST_NULL;
    if (const int err = MPI_Ineighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm, &request))
        return err;
    return MPI_Wait(&request, MPI_STATUS_IGNORE);
}

TEST(DeviceMemory, calls_on_device_buffers_go_to_the_mpi_and_are_counted) {
    ASSERT_TRUE(expect_library_loaded());
    const int size = size_of(MPI_COMM_WORLD);
    ASSERT_LE(size, 64);
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, complete_digraph(size), {.hints = pairs_hints});
    std::vector<int>& device_send = device_buffer(0);
    std::vector<int>& device_recv = device_buffer(1);
    ASSERT_TRUE(mark_as_device(device_send) && mark_as_device(device_recv))
        << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";
    for (int i = 0; i < size; ++i) device_send[static_cast<std::size_t>(i)] = 100 * rank_of(MPI_COMM_WORLD) + i;
    std::vector<int> host_send(device_send), host_recv(64, -1), expected(64, -1);
    PMPI_Neighbor_alltoall(host_send.data(), 1, MPI_INT, expected.data(), 1, MPI_INT, comm);

    nbrcomb_stats before{}, after{};
    ASSERT_EQ(comm_stats(comm, before), MPI_SUCCESS);
    for (const bool nonblocking : {false, true}) {
        device_recv.assign(device_recv.size(), -1);
        EXPECT_EQ(alltoall(comm, device_send, device_recv, nonblocking), MPI_SUCCESS);
        EXPECT_EQ(device_recv, expected) << (nonblocking ? "nonblocking" : "blocking") << " on device memory";
    }
    EXPECT_EQ(alltoall(comm, host_send, host_recv, false), MPI_SUCCESS);
    EXPECT_EQ(host_recv, expected) << "on host memory";
    ASSERT_EQ(comm_stats(comm, after), MPI_SUCCESS);
    EXPECT_EQ(after.device_calls - before.device_calls, 2u);
    EXPECT_EQ(after.native_calls - before.native_calls, 2u);
    EXPECT_EQ(after.calls - before.calls, 1u) << "the call on host memory is the library's";
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

}  // namespace
