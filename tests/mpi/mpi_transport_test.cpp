// The pattern algorithms' transport over MPI delivers every payload whole and in the order the
// receiver expects it: empty, short, exactly the first part's size, one value over it and long;
// two messages from one peer on one channel in one exchange; and exchanges back to back.
#include "src/setup/mpi_transport.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

namespace {

using namespace nbrcomb::detail;

constexpr int first_tag = 500;
const std::vector<std::size_t> lengths = {0, 1, 255, 256, 1000, 3};

// The values of the i-th message from one process to another.
std::vector<int> payload_values(int from, int to, std::size_t i) {
    std::vector<int> values(lengths[i % lengths.size()] + i / lengths.size());
    for (std::size_t v = 0; v < values.size(); ++v)
        values[v] = from * 1000003 + to * 1009 + static_cast<int>(i * 101 + v);
    return values;
}

TEST(MpiTransport, delivers_every_length_in_the_expected_order) {
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MpiTransport transport(MPI_COMM_WORLD, first_tag);
    const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
    constexpr std::size_t messages = 14;  // every length, more than once, on two channels
    for (int round = 0; round < 3; ++round) {
        std::vector<Outgoing> sends;
        std::vector<Expected> expected;
        for (std::size_t i = 0; i < messages; ++i) {
            const Channel channel = static_cast<Channel>(i % 2);
            sends.push_back({next, channel, make_payload(payload_values(rank, next, i + round))});
            expected.push_back({previous, channel});
        }
        Exchange exchange = transport.exchange(std::move(sends), std::move(expected));
        ASSERT_TRUE(exchange.await_ready());
        const std::vector<Payload> received = exchange.await_resume();
        ASSERT_EQ(received.size(), messages);
        for (std::size_t i = 0; i < messages; ++i)
            EXPECT_EQ(*received[i], payload_values(previous, rank, i + round)) << "message " << i << ", round " << round;
    }
}

}  // namespace
