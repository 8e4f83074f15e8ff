// An MPI application whose halo exchange is an MPI neighborhood collective. It is linked with MPI
// only, so the same binary runs natively and with libnbrcomb preloaded; rank 0 prints key=value
// lines that compare across the two runs (checksum, messages per call, latency).
#include "checksum.h"
#include "common/library_stats.h"
#include "common/matrix_market.h"
#include "options.h"
#include "spmv.h"
#include "stencil.h"

#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace halo_job {
namespace {

using namespace nbrcomb::common;

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

double median(std::vector<double> values) {
    std::ranges::sort(values);
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
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

void run(Workload& workload, const Options& options) {
    const MPI_Comm comm = workload.comm();
    int rank = 0, processes = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &processes);

    std::vector<double> seconds(static_cast<std::size_t>(options.iterations));
    const int calls = options.warmup + options.iterations;
    for (int it = 0; it < calls; ++it) {
        // Processes enter together, so a call's time is its own and not the skew of the last update.
        MPI_Barrier(comm);
        const double start = MPI_Wtime();
        workload.exchange();
        const double elapsed = MPI_Wtime() - start;
        if (it >= options.warmup) seconds[static_cast<std::size_t>(it - options.warmup)] = elapsed;
        workload.update();
    }
    // A call lasts until its slowest process is done.
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : seconds.data(), seconds.data(), options.iterations, MPI_DOUBLE, MPI_MAX, 0,
               comm);

    const std::optional<LibraryStats> library = library_stats(comm);
    const Traffic mine = traffic(workload, library);
    const double sent[2] = {mine.messages, mine.bytes};
    double sum[2] = {0.0, 0.0};
    double max_messages = 0.0;
    MPI_Reduce(sent, sum, 2, MPI_DOUBLE, MPI_SUM, 0, comm);
    MPI_Reduce(&mine.messages, &max_messages, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    const std::uint64_t out_degree = workload.native_messages_per_call();
    std::uint64_t edges = 0;
    MPI_Reduce(&out_degree, &edges, 1, MPI_UINT64_T, MPI_SUM, 0, comm);
    const auto reordering = reordering_summary(library ? library->stats : std::nullopt, comm);

    // In the order of comm's ranks, which are the parts' order also when they were reordered.
    const std::uint64_t checksum = gathered_fnv1a(workload.values(), comm, 0);
    if (rank != 0) return;

    const bool managed = library && library->stats;
    std::printf("%s", workload.describe().c_str());
    std::printf("ranks=%d\niterations=%d\nwarmup=%d\ncalls=%d\nedges=%" PRIu64 "\n", processes, options.iterations,
                options.warmup, calls, edges);
    std::printf("library=%s\n", library ? ("nbrcomb-" + library->version).c_str() : "none");
    // Auto mode chooses per call shape: say so rather than name the pattern's mode.
    const bool automatic = managed && library->stats->requested_mode == NBRCOMB_MODE_AUTO;
    std::printf("library_mode=%s\n", managed ? mode_name(automatic ? NBRCOMB_MODE_AUTO : library->stats->mode)
                                              : library ? "unmanaged" : "none");
    std::printf("library_calls=%llu\nlibrary_native_calls=%llu\n", managed ? library->stats->calls : 0ULL,
                managed ? library->stats->native_calls : 0ULL);
    std::printf("messages_per_call_per_rank=%.3f\nmessages_per_call_per_rank_max=%.3f\n", sum[0] / processes,
                max_messages);
    std::printf("bytes_per_call_per_rank=%.1f\n", sum[1] / processes);
    std::printf("reorder=%d\n", options.reorder ? 1 : 0);
    if (reordering) {
        std::printf("reordered=%d\nedge_weight_between_nodes_before=%.0f\nedge_weight_between_nodes_after=%.0f\n",
                    reordering->reordered ? 1 : 0, reordering->edge_cut_before, reordering->edge_cut_after);
        std::printf("bytes_between_nodes_per_call_per_rank_before=%.1f\n"
                    "bytes_between_nodes_per_call_per_rank_after=%.1f\n",
                    reordering->internode_bytes_before / processes, reordering->internode_bytes_after / processes);
    }
    std::printf("latency_median_us=%.2f\nlatency_min_us=%.2f\n", median(seconds) * 1e6,
                *std::ranges::min_element(seconds) * 1e6);
    std::printf("checksum=0x%016" PRIx64 "\n", checksum);
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

    const std::unique_ptr<Workload> workload =
        input->options.kernel == Kernel::spmv
            ? make_spmv(input->matrix, input->matrix_name, input->options.reorder, MPI_COMM_WORLD)
            : make_stencil(input->options.block, input->options.reorder, MPI_COMM_WORLD);
    run(*workload, input->options);
    return 0;
}

} // namespace
} // namespace halo_job

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int status = halo_job::main_with_mpi(argc, argv);
    MPI_Finalize();
    return status;
}
