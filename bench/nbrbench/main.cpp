// nbrbench: the MPI neighborhood collectives on the topologies of papers 000 and 002, natively
// and as libnbrcomb runs them, measured by the method of paper 004. It links MPI only and finds
// the library at run time, so the same binary measures native MPI alone or, with the library
// preloaded or linked, every variant side by side: each on its own communicator of the same
// topology, made with the library's MPI_Info hints, all experiments interleaved in random order.
#include "common/library_stats.h"
#include "nbrbench/csv_report.h"
#include "nbrbench/guideline_campaign.h"
#include "nbrbench/validation.h"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>

namespace nbrcomb::bench {

namespace {

// Says which MPI and which library are measured, for the record.
void describe_setup(const std::optional<nbrcomb::common::LibraryStats>& library, int processes) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    const std::string mpi(version, static_cast<std::size_t>(length));
    std::fprintf(stderr, "nbrbench: %d ranks, %s\n", processes, mpi.substr(0, mpi.find('\n')).c_str());
    if (library)
        std::fprintf(stderr, "nbrbench: libnbrcomb %s\n", library->version.c_str());
    else
        std::fprintf(stderr, "nbrbench: libnbrcomb is not loaded; measuring native MPI only\n");
}

int main_with_mpi(int argc, char** argv) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &processes);

    std::optional<Options> options;
    std::string error;
    try {
        options = parse_options(argc, argv);
    } catch (const std::exception& e) {
        error = e.what();
    }
    // Agree on local failures (an unreadable matrix) before the first collective, and let one
    // process say why.
    int first_failed = error.empty() ? processes : rank;
    MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first_failed < processes) {
        if (rank == first_failed) std::fprintf(stderr, "nbrbench: %s (see --help)\n", error.c_str());
        return 2;
    }
    if (options->help) {
        if (rank == 0)
            std::printf("%s%s%s", usage().c_str(), csv_columns_help().c_str(), guideline_columns_help().c_str());
        return 0;
    }

    // The benchmark's own traffic (barriers, reductions) stays off the measured communicators.
    MPI_Comm control = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &control);
    const auto library = nbrcomb::common::library_stats(control);
    if (rank == 0) describe_setup(library, processes);

    ValidationSummary validation;
    if (options->guidelines) {
        // Opened before the campaign, which takes minutes: a run whose measurements cannot be kept ends here.
        std::FILE* measurements = nullptr;
        int writable = 1;
        if (rank == 0 && !options->measurements.empty() &&
            !(measurements = std::fopen(options->measurements.c_str(), "w"))) {
            std::fprintf(stderr, "nbrbench: cannot write %s\n", options->measurements.c_str());
            writable = 0;
        }
        MPI_Bcast(&writable, 1, MPI_INT, 0, control);
        if (!writable) {
            MPI_Comm_free(&control);
            return 2;
        }
        const Campaign campaign = run_guideline_campaign(*options, library.has_value(), control);
        if (rank == 0) print_guideline_report(campaign.setups, processes, options->repetitions);
        if (measurements) {
            write_measurements(measurements, campaign.setups, processes, options->repetitions);
            std::fclose(measurements);
        }
        validation = {campaign.library_mismatches, campaign.native_deviations};
    } else {
        auto communicators = create_communicators(*options, library.has_value(), control);
        const auto experiments = plan_experiments(*options, communicators);
        auto records = run_sweep(*options, communicators, experiments, control);
        validation = validate(*options, communicators, experiments, records, control);
        if (rank == 0) print_csv(*options, communicators, experiments, records, processes);
        free_communicators(communicators);
    }
    if (rank == 0 && validation.native_deviations > 0)
        std::fprintf(stderr,
                     "nbrbench: native MPI received other data than the standard prescribes in %zu "
                     "experiment(s)\n",
                     validation.native_deviations);
    if (rank == 0 && validation.library_mismatches > 0)
        std::fprintf(stderr, "nbrbench: MISMATCH: the library delivered wrong data in %zu experiment(s)\n",
                     validation.library_mismatches);

    MPI_Comm_free(&control);
    return validation.library_mismatches == 0 ? 0 : 1;
}

}  // namespace

}  // namespace nbrcomb::bench

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int status = nbrcomb::bench::main_with_mpi(argc, argv);
    MPI_Finalize();
    return status;
}
