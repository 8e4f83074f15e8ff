// The measurement (paper 004, Alg. 1 and §3.2): in every run all experiments in a new random
// order, each one some untimed calls and then timed repetitions, a dissemination barrier before
// each, the time of a repetition being that of the slowest rank.
#pragma once

#include "nbrbench/experiments.h"
#include "nbrbench/library_columns.h"

#include <array>
#include <optional>
#include <vector>

namespace nbrcomb::bench {

// What rank 0 knows of one experiment after the sweep.
struct ExperimentRecord {
    std::vector<double> run_medians;  // seconds: per run, the median of the repetitions left by Tukey's fences
    // Per run, the slowest rank's figure; empty when the library keeps no statistics for the communicator.
    std::array<std::vector<double>, library_column_count> library_values;
    // Per call and rank, averaged over the ranks (the last run): the library's counters where it
    // ran the calls, otherwise native MPI's one message per out-edge.
    double messages_per_call = 0.0;
    double bytes_per_call = 0.0;
    double intercepted = 0.0;  // share of the ranks on which the library ran the calls
    // Where the library reordered the ranks: bytes native MPI sends between (emulated) nodes per
    // call and rank, averaged over the ranks (the last run), with the old and with the new ranks.
    std::optional<double> internode_bytes_before, internode_bytes_after;
    // Where the library ran calls and knows the nodes: what it sent between nodes per call and
    // rank, and what native MPI sends there for the same calls, averaged over the ranks.
    std::optional<double> internode_messages, internode_bytes, native_internode_messages, native_internode_bytes;
    std::optional<bool> valid;  // see validate(); empty where it does not check
};

// Collective over control, a communicator of the same processes as the topologies'.
std::vector<ExperimentRecord> run_sweep(const Options& options,
                                        const std::vector<TopologyCommunicators>& communicators,
                                        const std::vector<Experiment>& experiments, MPI_Comm control);

}  // namespace nbrcomb::bench
