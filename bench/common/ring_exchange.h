// A ring of neighbors and the arguments of every neighborhood collective over it, one block of the
// same bytes per neighbor: what nbrroute and nbrthreads call over and over.
#pragma once

#include "common/neighbor_call.h"

#include <mpi.h>

#include <vector>

namespace nbrcomb::bench {

// degree neighbors each way, ranks r +- 1 .. r +- degree / 2: repeated where the ring is shorter
// than the degree. degree is even.
inline std::vector<int> ring_neighbors(int rank, int size, int degree) {
    std::vector<int> neighbors;
    for (int step = 1; step <= degree / 2; ++step) {
        neighbors.push_back((rank + step) % size);
        neighbors.push_back((rank - step % size + size) % size);
    }
    return neighbors;
}

// The buffers and arguments of every collective over comm, bytes per block as MPI_BYTE.
struct RingExchange {
    std::vector<char> send, recv;
    std::vector<int> counts, displs;
    std::vector<MPI_Aint> byte_displs;
    std::vector<MPI_Datatype> types;
    calls::NeighborArguments<> args;

    RingExchange(MPI_Comm comm, int degree, int bytes)
        : send(static_cast<std::size_t>(degree * bytes), 1), recv(send.size()),
          counts(static_cast<std::size_t>(degree), bytes), types(static_cast<std::size_t>(degree), MPI_BYTE) {
        for (int i = 0; i < degree; ++i) {
            displs.push_back(i * bytes);
            byte_displs.push_back(i * bytes);
        }
        args = {.sendbuf = send.data(), .sendcount = bytes, .sendcounts = counts.data(), .sdispls = displs.data(),
                .byte_sdispls = byte_displs.data(), .sendtype = MPI_BYTE, .sendtypes = types.data(),
                .recvbuf = recv.data(), .recvcount = bytes, .recvcounts = counts.data(), .displs = displs.data(),
                .rdispls = displs.data(), .byte_rdispls = byte_displs.data(), .recvtype = MPI_BYTE,
                .recvtypes = types.data(), .comm = comm};
    }
    RingExchange(const RingExchange&) = delete;  // args points into the buffers
    RingExchange& operator=(const RingExchange&) = delete;
};

}  // namespace nbrcomb::bench
