// The correctness guard after the measurement: one more call of every experiment, whose receive
// buffer must hold, byte for byte, what the MPI standard prescribes for the communicator's
// topology as it reports it: the block the k-th u->v edge carries lands in the k-th u of v's
// sources (MPI-4.0), also for repeated edges and self-loops; on a Cartesian topology send block
// s meets receive block s^1. Checking against the topology rather than against native MPI keeps a
// native library that orders repeated edges otherwise (MPICH 4.0's neighbor alltoall) from
// being taken for an error of libnbrcomb; native deviations are reported apart.
#pragma once

#include "nbrbench/neighbor_exchange.h"
#include "nbrbench/sweep.h"

#include <cstddef>

namespace nbrcomb::bench {

struct ValidationSummary {
    std::size_t library_mismatches = 0;  // experiments whose calls the library ran, with wrong data
    std::size_t native_deviations = 0;   // experiments native MPI ran, with other data than the standard's
};

// What one more call of a neighborhood collective on comm must deliver: for each receive block,
// its source and the sender's block that fills it (MPI_PROC_NULL: the block stays untouched).
// Collective over comm.
class ExpectedDelivery {
public:
    explicit ExpectedDelivery(MPI_Comm comm);
    // Runs exchange once on a scrambled receive buffer; whether it received what it must.
    bool holds_for(NeighborExchange& exchange) const;

private:
    std::vector<int> sources_;
    std::vector<int> sender_blocks_;
};

// Sets records[e].valid on rank 0, says on standard error which experiments fail, and returns the
// counts (on every rank). Collective over control.
ValidationSummary validate(const Options& options, const std::vector<TopologyCommunicators>& communicators,
                           const std::vector<Experiment>& experiments, std::vector<ExperimentRecord>& records,
                           MPI_Comm control);

}  // namespace nbrcomb::bench
