// A bitwise fingerprint of a vector distributed over the processes of a communicator.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace halo_job {

// FNV-1a (64 bit) of the bytes of all processes' parts concatenated in rank order; the result
// is meaningful on root only.
std::uint64_t gathered_fnv1a(const std::vector<double>& local, MPI_Comm comm, int root);

} // namespace halo_job
