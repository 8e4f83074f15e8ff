#include "nbrbench/sweep.h"

#include "common/library_stats.h"
#include "nbrbench/method.h"
#include "nbrbench/neighbor_exchange.h"
#include "stats/run_statistics.h"

#include <cstddef>
#include <limits>
#include <optional>

namespace nbrcomb::bench {

namespace {

// Marks a library figure a rank does not have; the library manages a communicator on all of its
// ranks or on none.
constexpr double no_figure = std::numeric_limits<double>::lowest();

std::optional<nbrcomb_stats> library_snapshot(MPI_Comm comm) {
    const auto library = nbrcomb::common::library_stats(comm);
    return library ? library->stats : std::nullopt;
}

// One execution of one experiment; rank 0 adds it to record.
void execute(const Experiment& experiment, const VariantCommunicator& communicator, const topology::EdgeBlocks& blocks,
             const Options& options, MPI_Comm control, ExperimentRecord& record) {
    const MPI_Comm comm = communicator.comm;
    const bool reordering = communicator.reordering.has_value();
    NeighborExchange exchange(comm, experiment.collective, experiment.form, experiment.bytes, calls::Path::library,
                              Scope::neighborhood, blocks);
    const auto before = library_snapshot(comm);
    const auto run = [&exchange] { exchange.run(); };
    // The warm-up calls, where auto mode's Phase 1 and trial run, apart: the figures per call are
    // the timed calls'.
    time_repetitions(options.warmup, 0, control, run);
    const auto settled = library_snapshot(comm);
    // The repetitions' times, then the library's figures, all reduced to their maximum at once.
    std::vector<double> maxima = time_repetitions(0, options.repetitions, control, run);
    const auto repetitions = maxima.size();
    maxima.resize(repetitions + library_column_count, no_figure);
    const auto after = library_snapshot(comm);

    // Messages, bytes, the share of calls the library ran itself, and the bytes between nodes with
    // the old and the new ranks, per timed call: summed over the ranks. Calls the library left to
    // native MPI (auto mode) send native MPI's one message per out-edge.
    const double out_degree = static_cast<double>(exchange.out_degree());
    const double native_bytes = exchange.bytes_per_call();
    double sums[9] = {out_degree, native_bytes, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    if (before && settled && after) {
        for (int c = 0; c < library_column_count; ++c)
            maxima[repetitions + static_cast<std::size_t>(c)] = library_columns[c].per_rank(*before, *after);
        const auto library_calls = static_cast<double>(after->calls - settled->calls);
        const auto native_calls = static_cast<double>(after->native_calls - settled->native_calls);
        if (const double calls = library_calls + native_calls; calls > 0) {
            sums[0] = (static_cast<double>(after->messages_sent - settled->messages_sent) +
                       static_cast<double>(after->native_call_messages - settled->native_call_messages)) /
                      calls;
            sums[1] = (static_cast<double>(after->bytes_sent - settled->bytes_sent) +
                       native_calls * native_bytes) /
                      calls;
            sums[2] = library_calls / calls;
        }
        if (library_calls > 0) {
            sums[3] = static_cast<double>(after->internode_bytes_before - settled->internode_bytes_before) /
                      library_calls;
            sums[4] = static_cast<double>(after->internode_bytes_after - settled->internode_bytes_after) /
                      library_calls;
            const unsigned long long nbrcomb_stats::*internode[] = {
                &nbrcomb_stats::internode_messages, &nbrcomb_stats::internode_bytes,
                &nbrcomb_stats::native_internode_messages, &nbrcomb_stats::native_internode_bytes};
            for (std::size_t i = 0; i < std::size(internode); ++i)
                sums[5 + i] = static_cast<double>((*after).*internode[i] - (*settled).*internode[i]) / library_calls;
        }
    }

    int rank = 0, processes = 0;
    MPI_Comm_rank(control, &rank);
    MPI_Comm_size(control, &processes);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : maxima.data(), maxima.data(), static_cast<int>(maxima.size()), MPI_DOUBLE,
               MPI_MAX, 0, control);
    // Whether the library ran calls on some rank: then its figures between nodes count.
    int library_ran = before && after && after->calls > before->calls ? 1 : 0;
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : sums, sums, 9, MPI_DOUBLE, MPI_SUM, 0, control);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : &library_ran, &library_ran, 1, MPI_INT, MPI_MAX, 0, control);
    if (rank != 0) return;

    const std::vector<double> seconds(maxima.begin(), maxima.begin() + static_cast<std::ptrdiff_t>(repetitions));
    record.run_medians.push_back(median(drop_outliers(seconds)));
    for (int c = 0; c < library_column_count; ++c)
        if (const double value = maxima[repetitions + static_cast<std::size_t>(c)]; value != no_figure)
            record.library_values[static_cast<std::size_t>(c)].push_back(value);
    record.messages_per_call = sums[0] / processes;
    record.bytes_per_call = sums[1] / processes;
    record.intercepted = sums[2] / processes;
    if (reordering) {
        record.internode_bytes_before = sums[3] / processes;
        record.internode_bytes_after = sums[4] / processes;
    }
    if (library_ran) {
        record.internode_messages = sums[5] / processes;
        record.internode_bytes = sums[6] / processes;
        record.native_internode_messages = sums[7] / processes;
        record.native_internode_bytes = sums[8] / processes;
    }
}

}  // namespace

std::vector<ExperimentRecord> run_sweep(const Options& options,
                                        const std::vector<TopologyCommunicators>& communicators,
                                        const std::vector<Experiment>& experiments, MPI_Comm control) {
    std::vector<ExperimentRecord> records(experiments.size());
    ExperimentRecord untimed;
    run_in_random_order(options.settle, options.runs, experiments.size(), options.seed, control,
                        [&](std::size_t e, bool timed) {
                            const Experiment& experiment = experiments[e];
                            const TopologyCommunicators& topology = communicators[experiment.topology];
                            execute(experiment, topology.variants[experiment.variant], topology.blocks, options,
                                    control, timed ? records[e] : untimed);
                        });
    return records;
}

}  // namespace nbrcomb::bench
