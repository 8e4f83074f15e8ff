// One process's share of an iterative computation whose only halo traffic is one MPI
// neighborhood collective per iteration.
#pragma once

#include "common/neighbor_call.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace halo_job {

// Where a workload's topology constructor and collective go: MPI_*, which a preloaded library
// intercepts, or PMPI_*, native MPI's own, so the library never sees the communicator.
using nbrcomb::calls::Path;

class Workload {
public:
    virtual ~Workload() = default;

    // The distributed-graph communicator the collective runs on.
    virtual MPI_Comm comm() const = 0;
    // The neighborhood collective of one iteration, and nothing else (it is what gets timed).
    virtual void exchange() = 0;
    // The local computation that consumes the exchanged values and prepares the next send buffer.
    virtual void update() = 0;
    // This process's part of the result; concatenated in rank order they form the global result.
    virtual std::vector<double> values() const = 0;
    // What native MPI sends per call from this process: one message per out-edge.
    virtual std::uint64_t native_messages_per_call() const = 0;
    virtual std::uint64_t native_bytes_per_call() const = 0;
    // Rank 0's description of the problem, as key=value lines.
    virtual std::string describe() const = 0;
};

} // namespace halo_job
