// The barrier between two timed repetitions (paper 004, §3.1): written by hand as a dissemination
// barrier, so every MPI library synchronizes the same way and the comparison across libraries
// does not depend on their MPI_Barrier.
#pragma once

#include <mpi.h>

namespace nbrcomb::bench {

// ceil(log2 p) rounds of empty messages on comm; returns when every process has entered.
void dissemination_barrier(MPI_Comm comm);

}  // namespace nbrcomb::bench
