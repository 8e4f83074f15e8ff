#include "src/setup/delivery_probe.h"

#include "schedule/executor.h"

#include <map>

namespace nbrcomb::detail {

namespace {

// repeats[i]: how many of peers[0..i) equal peers[i]: which of the edges between the same two
// processes edge i is, which MPI pairs with the same repeat at the other end.
std::vector<int> repeats(const std::vector<int>& peers) {
    std::map<int, int> seen;
    std::vector<int> repeat;
    for (const int peer : peers) repeat.push_back(seen[peer]++);
    return repeat;
}

Block int_block(Space space, std::size_t first, int count) {
    return {{space, static_cast<std::ptrdiff_t>(first * sizeof(int))}, count, MPI_INT, count * sizeof(int)};
}

// Runs one call of the plan on these blocks; its error, or MPI_SUCCESS.
int run_call(const Plan& plan, const LocalGraph& graph, const CallBlocks& blocks, const std::vector<int>& send,
             std::vector<int>& recv, MPI_Comm comm, int first_tag) {
    auto schedule = std::make_shared<const Schedule>(plan.schedule(graph, blocks));
    Execution execution(std::move(schedule), {send.data(), recv.data()}, comm, first_tag);
    return execution.advance(Advance::wait);
}

}  // namespace

std::vector<std::string> probe_deliveries(const Plan& plan, const LocalGraph& graph, MPI_Comm comm,
                                          const int (&first_tags)[2]) {
    std::vector<std::string> problems;
    const std::vector<int> out_repeat = repeats(graph.destinations), in_repeat = repeats(graph.sources);
    const std::size_t in = graph.sources.size(), out = graph.destinations.size();

    std::vector<int> send, recv(2 * in, -1);
    std::vector<Block> send_blocks, recv_blocks, same_blocks(out, int_block(Space::send, 0, 1));
    for (std::size_t j = 0; j < out; ++j) {
        send_blocks.push_back(int_block(Space::send, send.size(), 2));
        send.insert(send.end(), {graph.rank, out_repeat[j]});
    }
    for (std::size_t i = 0; i < in; ++i) recv_blocks.push_back(int_block(Space::recv, 2 * i, 2));
    // Both calls run whatever the first gives, so that no neighbor waits for a message never sent.
    const CallBlocks alltoall_blocks{send_blocks, recv_blocks, false, SIZE_MAX, true};
    const int alltoall = run_call(plan, graph, alltoall_blocks, send, recv, comm, first_tags[0]);
    if (alltoall != MPI_SUCCESS) problems.push_back("the probe alltoall failed with MPI error " + std::to_string(alltoall));
    for (std::size_t i = 0; i < in && alltoall == MPI_SUCCESS; ++i)
        if (recv[2 * i] != graph.sources[i] || recv[2 * i + 1] != in_repeat[i])
            problems.push_back("alltoall: in-edge " + std::to_string(i) + " from " + std::to_string(graph.sources[i]) +
                               " (repeat " + std::to_string(in_repeat[i]) + ") got the block of " +
                               std::to_string(recv[2 * i]) + " (repeat " + std::to_string(recv[2 * i + 1]) + ")");

    const std::vector<int> mine{graph.rank};
    std::vector<int> gathered(in, -1);
    recv_blocks.clear();
    for (std::size_t i = 0; i < in; ++i) recv_blocks.push_back(int_block(Space::recv, i, 1));
    const CallBlocks allgather_blocks{same_blocks, recv_blocks, true, SIZE_MAX, true};
    const int allgather = run_call(plan, graph, allgather_blocks, mine, gathered, comm, first_tags[1]);
    if (allgather != MPI_SUCCESS)
        problems.push_back("the probe allgather failed with MPI error " + std::to_string(allgather));
    for (std::size_t i = 0; i < in && allgather == MPI_SUCCESS; ++i)
        if (gathered[i] != graph.sources[i])
            problems.push_back("allgather: in-edge " + std::to_string(i) + " from " + std::to_string(graph.sources[i]) +
                               " got the block of " + std::to_string(gathered[i]));
    return problems;
}

}  // namespace nbrcomb::detail
