#include "nbrbench/dissemination_barrier.h"

namespace nbrcomb::bench {

void dissemination_barrier(MPI_Comm comm) {
    constexpr int tag = 0;
    int rank = 0, processes = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &processes);
    // After round i a process has heard, directly or not, from the 2^(i+1) - 1 processes before it.
    for (int distance = 1; distance < processes; distance *= 2)
        MPI_Sendrecv(nullptr, 0, MPI_BYTE, (rank + distance) % processes, tag, nullptr, 0, MPI_BYTE,
                     (rank - distance + processes) % processes, tag, comm, MPI_STATUS_IGNORE);
}

}  // namespace nbrcomb::bench
