// An MPI application whose halo exchange is an MPI neighborhood collective, run twice in one
// launch over the same graph: on a communicator a preloaded libnbrcomb manages, and on one made
// through PMPI_, which it never sees. It is linked with MPI only, so it also runs without the
// library (then both sides are native MPI). Rank 0 prints key=value lines: both sides' checksums,
// messages per call and latencies, and the verdict of a rank-sum test between them.
#include "checksum.h"
#include "common/library_stats.h"
#include "common/matrix_market.h"
#include "nbrbench/method.h"
#include "options.h"
#include "spmv.h"
#include "stencil.h"
#include "stats/run_statistics.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace halo_job {
namespace {

using namespace nbrcomb::common;
using nbrcomb::bench::compare_runs;
using nbrcomb::bench::Comparison;

struct Input {
    Options options;
    std::string matrix_name;
    CooMatrix matrix;
};

// Everything that can fail without communicating.
Input read_input(int argc, char** argv) {
    Input input{parse_options(argc, argv), {}, {}};
    if (input.options.help || input.options.kernel != Kernel::spmv) return input;
    const std::string path = resolve_matrix_path(input.options.matrix);
    input.matrix_name = std::filesystem::path(path).filename().string();
    input.matrix = read_matrix_market(path);
    if (input.matrix.rows != input.matrix.cols)
        throw std::invalid_argument(path + " is " + std::to_string(input.matrix.rows) + " x " +
                                    std::to_string(input.matrix.cols) + ": power iteration needs a square matrix");
    return input;
}

// Messages and bytes this process sent per collective call: the library's counters when it runs
// the communicator, otherwise what native MPI sends.
struct Traffic {
    double messages;
    double bytes;
};

// Calls the library left to native MPI (auto mode) send native MPI's one message per out-edge.
Traffic traffic(const Workload& workload, const std::optional<LibraryStats>& library) {
    if (library && library->stats && library->stats->calls + library->stats->native_calls > 0) {
        const nbrcomb_stats& stats = *library->stats;
        const auto native_calls = static_cast<double>(stats.native_calls);
        const double calls = static_cast<double>(stats.calls) + native_calls;
        return {static_cast<double>(stats.messages_sent + stats.native_call_messages) / calls,
                (static_cast<double>(stats.bytes_sent) +
                 native_calls * static_cast<double>(workload.native_bytes_per_call())) /
                    calls};
    }
    return {static_cast<double>(workload.native_messages_per_call()),
            static_cast<double>(workload.native_bytes_per_call())};
}

// One side of the comparison: its own copy of the problem, on its own communicator of the graph.
struct Side {
    const char* name;  // its keys' suffix
    std::unique_ptr<Workload> workload;
    // Rank 0's: each run's median call, and the fastest call; a call lasts until its slowest
    // process is done.
    std::vector<double> run_medians{};
    double fastest = std::numeric_limits<double>::infinity();
};

// calls timed calls of side as nbrbench times them (after a dissemination barrier over world, the
// local update untimed); rank 0 keeps their median, outliers dropped.
void time_run(Side& side, int calls, MPI_Comm world) {
    Workload& workload = *side.workload;
    std::vector<double> seconds = nbrcomb::bench::time_repetitions(
        0, calls, world, [&workload] { workload.exchange(); }, [&workload] { workload.update(); });
    int rank = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : seconds.data(), seconds.data(), calls, MPI_DOUBLE, MPI_MAX, 0, world);
    if (rank != 0) return;
    side.fastest = std::min(side.fastest, *std::ranges::min_element(seconds));
    side.run_medians.push_back(nbrcomb::bench::median(nbrcomb::bench::drop_outliers(std::move(seconds))));
}

// Rank 0's figures of one side; collective over world.
struct Figures {
    double messages = 0.0, messages_max = 0.0, bytes = 0.0;  // per call and rank
    std::uint64_t checksum = 0;
};

Figures figures(const Side& side, const std::optional<LibraryStats>& library, MPI_Comm world) {
    int processes = 0;
    MPI_Comm_size(world, &processes);
    const Traffic mine = traffic(*side.workload, library);
    const double sent[2] = {mine.messages, mine.bytes};
    double sum[2] = {0.0, 0.0};
    Figures result;
    MPI_Reduce(sent, sum, 2, MPI_DOUBLE, MPI_SUM, 0, world);
    MPI_Reduce(&mine.messages, &result.messages_max, 1, MPI_DOUBLE, MPI_MAX, 0, world);
    result.messages = sum[0] / processes;
    result.bytes = sum[1] / processes;
    // In the order of the side's ranks, which are the parts' order also when they were reordered.
    result.checksum = gathered_fnv1a(side.workload->values(), side.workload->comm(), 0);
    return result;
}

// The library side's run medians against native's, the same test both ways: faster or slower
// where significant and 3 % apart by run_statistics.h's thresholds, a tie otherwise.
struct Verdict {
    const char* name;
    double ratio;     // library / native, of the medians of the run medians
    double p_faster;  // one-sided: the library side's times tend to be smaller
    double p_slower;
};

Verdict judge(const Side& native, const Side& library) {
    const Comparison slower = compare_runs(library.run_medians, native.run_medians);
    const Comparison faster = compare_runs(native.run_medians, library.run_medians);
    return {faster.slower ? "faster" : slower.slower ? "slower" : "tie", slower.ratio, faster.p_slower,
            slower.p_slower};
}

// Returns the exit status: 1 when the sides' results differ.
int run(std::array<Side, 2>& sides, const Options& options, MPI_Comm world) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &processes);
    const Side& native = sides[0];
    const Side& library = sides[1];

    for (Side& side : sides)
        nbrcomb::bench::time_repetitions(
            options.warmup, 0, world, [&side] { side.workload->exchange(); }, [&side] { side.workload->update(); });
    // Each side goes first in every other run, so the machine's drift and what one side leaves in
    // the caches fall on both alike.
    for (int r = 0; r < options.runs; ++r) {
        const int calls = options.iterations * (r + 1) / options.runs - options.iterations * r / options.runs;
        time_run(sides[static_cast<std::size_t>(r % 2)], calls, world);
        time_run(sides[static_cast<std::size_t>(1 - r % 2)], calls, world);
    }

    const std::optional<LibraryStats> loaded = library_stats(library.workload->comm());
    const std::array<Figures, 2> shown = {figures(native, library_stats(native.workload->comm()), world),
                                          figures(library, loaded, world)};
    const std::uint64_t out_degree = native.workload->native_messages_per_call();
    std::uint64_t edges = 0;
    MPI_Reduce(&out_degree, &edges, 1, MPI_UINT64_T, MPI_SUM, 0, world);
    const auto reordering = reordering_summary(loaded ? loaded->stats : std::nullopt, library.workload->comm());
    int differ = shown[0].checksum != shown[1].checksum ? 1 : 0;
    MPI_Bcast(&differ, 1, MPI_INT, 0, world);
    if (rank != 0) return differ;

    const bool managed = loaded && loaded->stats;
    std::printf("%s", native.workload->describe().c_str());
    std::printf("ranks=%d\nruns=%d\niterations=%d\nwarmup=%d\ncalls=%d\nedges=%" PRIu64 "\n", processes,
                options.runs, options.iterations, options.warmup, options.warmup + options.iterations, edges);
    std::printf("library=%s\n", loaded ? ("nbrcomb-" + loaded->version).c_str() : "none");
    if (!loaded) std::fprintf(stderr, "nbrcomb_halo_job: the library is not loaded: both sides are native MPI\n");
    // Auto mode chooses per call shape: say so rather than name the pattern's mode.
    const bool automatic = managed && loaded->stats->requested_mode == NBRCOMB_MODE_AUTO;
    std::printf("library_mode=%s\n", managed ? mode_name(automatic ? NBRCOMB_MODE_AUTO : loaded->stats->mode)
                                              : loaded ? "unmanaged" : "none");
    // The library side's calls on rank 0: those the library ran, and those it left to native MPI.
    std::printf("library_calls=%llu\nlibrary_native_calls=%llu\n", managed ? loaded->stats->calls : 0ULL,
                managed ? loaded->stats->native_calls : 0ULL);
    for (std::size_t s = 0; s < sides.size(); ++s)
        std::printf("messages_per_call_per_rank_%s=%.3f\nmessages_per_call_per_rank_max_%s=%.3f\n"
                    "bytes_per_call_per_rank_%s=%.1f\n",
                    sides[s].name, shown[s].messages, sides[s].name, shown[s].messages_max, sides[s].name,
                    shown[s].bytes);
    std::printf("reorder=%d\n", options.reorder ? 1 : 0);
    if (reordering) {
        std::printf("reordered=%d\nedge_weight_between_nodes_before=%.0f\nedge_weight_between_nodes_after=%.0f\n",
                    reordering->reordered ? 1 : 0, reordering->edge_cut_before, reordering->edge_cut_after);
        std::printf("bytes_between_nodes_per_call_per_rank_before=%.1f\n"
                    "bytes_between_nodes_per_call_per_rank_after=%.1f\n",
                    reordering->internode_bytes_before / processes, reordering->internode_bytes_after / processes);
    }
    for (const Side& side : sides)
        std::printf("latency_median_us_%s=%.2f\nlatency_min_us_%s=%.2f\n", side.name,
                    nbrcomb::bench::median(side.run_medians) * 1e6, side.name, side.fastest * 1e6);
    const Verdict verdict = judge(native, library);
    std::printf("ratio=%.3f\np_faster=%.3g\np_slower=%.3g\nverdict=%s\n", verdict.ratio, verdict.p_faster,
                verdict.p_slower, verdict.name);
    for (std::size_t s = 0; s < sides.size(); ++s)
        std::printf("checksum_%s=0x%016" PRIx64 "\n", sides[s].name, shown[s].checksum);
    if (differ) std::fprintf(stderr, "nbrcomb_halo_job: the library side's result differs from native MPI's\n");
    return differ;
}

int main_with_mpi(int argc, char** argv) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);

    std::optional<Input> input;
    std::string error;
    try {
        input = read_input(argc, argv);
    } catch (const std::exception& e) {
        error = e.what();
    }
    // Agree on local failures before the first collective, and let one process say why.
    int first_failed = error.empty() ? processes : rank;
    MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first_failed < processes) {
        if (rank == first_failed) std::fprintf(stderr, "%s: %s (see --help)\n", argv[0], error.c_str());
        return 2;
    }
    if (input->options.help) {
        if (rank == 0) std::printf("%s", usage(argv[0]).c_str());
        return 0;
    }

    const Options& options = input->options;
    const auto make = [&](Path path) {
        return options.kernel == Kernel::spmv
                   ? make_spmv(input->matrix, input->matrix_name, options.reorder, path, MPI_COMM_WORLD)
                   : make_stencil(options.block, options.reorder, path, MPI_COMM_WORLD);
    };
    std::array<Side, 2> sides{Side{"native", make(Path::native)}, Side{"library", make(Path::library)}};
    return run(sides, options, MPI_COMM_WORLD);
}

} // namespace
} // namespace halo_job

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int status = halo_job::main_with_mpi(argc, argv);
    MPI_Finalize();
    return status;
}
