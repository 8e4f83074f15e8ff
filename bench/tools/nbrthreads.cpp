// nbrthreads: the collectives under MPI_THREAD_MULTIPLE, through the library beside the MPI alone
// in one job. Each of --threads threads per process has a topology communicator of its own (a
// ring of --degree neighbors), made through MPI_ (the library adopts it, in the mode the
// environment or NBRCOMB_MODE sets) and another through PMPI_ (the library never sees it), and calls
// every collective --calls times, blocking and nonblocking with MPI_Wait, all threads at once.
// Rounds alternate between the two sides; per side the median round, the ratio and a verdict
// from the rank-sum test over the rounds (bench/stats). Run it with libnbrcomb preloaded or linked:
//   mpiexec -n 4 env LD_PRELOAD=libnbrcomb.so NBRCOMB_MODE=pairs nbrthreads [--threads T] [--calls N]
#include "common/command_line.h"
#include "common/neighbor_call.h"
#include "common/ring_exchange.h"
#include "stats/run_statistics.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace nbrcomb::calls;
using nbrcomb::bench::compare_runs;
using nbrcomb::bench::median;
using nbrcomb::bench::ring_neighbors;
using nbrcomb::bench::RingExchange;

struct Options {
    int threads = 4, calls = 1000, degree = 2, rounds = 5;
};

constexpr const char* usage =
    "usage: nbrthreads [--threads T] [--calls N] [--degree D] [--rounds R]\n"
    "  --threads T  threads per process, each on communicators of its own (4)\n"
    "  --calls N    calls of every collective and form per thread and round (1000)\n"
    "  --degree D   neighbors each process lists each way, an even number (2)\n"
    "  --rounds R   rounds a side, alternating with the other side's (5)\n";

Options parse(int argc, char** argv) {
    const nbrcomb::bench::CommandLine line("nbrthreads", usage);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help") line.help();
        if (i + 1 == argc) line.fail(flag + " needs a value");
        const int value = line.positive(flag, argv[++i]);
        if (flag == "--threads") options.threads = value;
        else if (flag == "--calls") options.calls = value;
        else if (flag == "--degree") options.degree = value;
        else if (flag == "--rounds") options.rounds = value;
        else line.fail("unknown option " + flag);
    }
    if (options.degree % 2 != 0) line.fail("--degree must be even");
    return options;
}

// One thread's communicator on one side: the path its calls take, and one int's bytes a block.
struct Exchange {
    Path path;
    RingExchange ring;

    Exchange(MPI_Comm comm, Path path, int degree) : path(path), ring(comm, degree, sizeof(int)) {}

    // Every collective, blocking and nonblocking, calls times; false on an error.
    bool run(int calls) const {
        for (const Collective collective : all_collectives) {
            for (int call = 0; call < calls; ++call) {
                if (ring.args.call(path, collective, Form::blocking) != MPI_SUCCESS) return false;
                MPI_Request request = MPI_REQUEST_NULL;
                if (ring.args.call(path, collective, Form::nonblocking, &request) != MPI_SUCCESS) return false;
                const int err = path == Path::library ? MPI_Wait(&request, MPI_STATUS_IGNORE)
                                                      : PMPI_Wait(&request, MPI_STATUS_IGNORE);
                if (err != MPI_SUCCESS) return false;
            }
        }
        return true;
    }
};

// Seconds of one round of every thread of a side, the slowest process's.
double time_round(const std::deque<Exchange>& side, int calls) {
    PMPI_Barrier(MPI_COMM_WORLD);
    const double start = PMPI_Wtime();
    std::vector<std::thread> threads;
    std::vector<char> ok(side.size(), 0);
    for (std::size_t t = 0; t < side.size(); ++t)
        threads.emplace_back([&, t] { ok[t] = side[t].run(calls) ? 1 : 0; });
    for (std::thread& thread : threads) thread.join();
    const double seconds = PMPI_Wtime() - start;
    for (const char each : ok) {
        if (each == 0) {
            std::fprintf(stderr, "nbrthreads: a call failed\n");
            PMPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    double slowest = 0;
    PMPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

}  // namespace

int main(int argc, char** argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    const Options options = parse(argc, argv);
    int rank = 0, size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0) std::fprintf(stderr, "nbrthreads: the MPI does not provide MPI_THREAD_MULTIPLE\n");
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    const std::vector<int> neighbors = ring_neighbors(rank, size, options.degree);
    const int degree = static_cast<int>(neighbors.size());
    std::vector<MPI_Comm> comms;
    std::deque<Exchange> library, native;  // which never moves an Exchange, whose arguments point into it
    for (int t = 0; t < options.threads; ++t) {
        MPI_Comm adopted = MPI_COMM_NULL, unseen = MPI_COMM_NULL;
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbors.data(), MPI_UNWEIGHTED, degree,
                                       neighbors.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &adopted);
        PMPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbors.data(), MPI_UNWEIGHTED, degree,
                                        neighbors.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &unseen);
        comms.push_back(adopted);
        comms.push_back(unseen);
        library.emplace_back(adopted, Path::library, degree);
        native.emplace_back(unseen, Path::native, degree);
    }
    if (rank == 0)
        std::printf("# nbrthreads: %d ranks x %d threads, degree %d, %d calls of every collective and form per "
                    "thread and round, %d rounds a side\nside,median_s,ratio,verdict\n",
                    size, options.threads, degree, options.calls, options.rounds);
    std::vector<double> on_library, on_native;
    // A first round of each warms both up (and lets auto mode's first calls pass).
    for (int round = -1; round < options.rounds; ++round) {
        const bool library_first = round % 2 == 0;
        const double first = time_round(library_first ? library : native, options.calls);
        const double second = time_round(library_first ? native : library, options.calls);
        if (round < 0) continue;
        (library_first ? on_library : on_native).push_back(first);
        (library_first ? on_native : on_library).push_back(second);
    }
    if (rank == 0) {
        const double library_s = median(on_library), native_s = median(on_native);
        const char* verdict = compare_runs(on_library, on_native).slower   ? "slower"
                              : compare_runs(on_native, on_library).slower ? "faster"
                                                                           : "tie";
        std::printf("native,%.3f,1.000,\nlibrary,%.3f,%.3f,%s\n", native_s, library_s, library_s / native_s, verdict);
    }
    for (MPI_Comm& comm : comms) MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
