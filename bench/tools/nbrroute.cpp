// nbrroute: what the library adds to the calls it leaves to the MPI, its native route. Two
// communicators of one graph in one job: one made through MPI_ (the library adopts it and, with
// its default settings, decides small calls on a small graph native), one through PMPI_ (the
// library never sees it), called through PMPI_ as a program without the library would, on the
// same buffers. Blocks of back-to-back calls alternate between the two, in pairs run one right
// after the other; per collective and form, each side's median block time per call, the time the
// library adds (the median over pairs of the library's block less the native one: the machine's
// drift over a launch, which moves both blocks of a pair alike, cancels) and a verdict from the
// rank-sum test over the blocks (bench/stats). Run it with libnbrcomb preloaded or linked:
//   mpiexec -n 2 env LD_PRELOAD=libnbrcomb.so nbrroute [--degree D] [--calls N] [--blocks B] [--bytes S]
//                                                      [--settle-ms T] [--only OPERATION]
// Rows: every neighborhood collective blocking, nonblocking with MPI_Wait and with an MPI_Test
// loop, persistent (MPI-4) with MPI_Start and MPI_Wait; and point-to-point with MPI_Waitall, whose
// requests the library does not own (its interception of the request calls).
#include "common/command_line.h"
#include "common/neighbor_call.h"
#include "common/ring_exchange.h"
#include "stats/run_statistics.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace nbrcomb::calls;
using nbrcomb::bench::compare_runs;
using nbrcomb::bench::median;
using nbrcomb::bench::ring_neighbors;
using Exchange = nbrcomb::bench::RingExchange;

// Calls a side before a row's blocks: past auto mode's first decisions on a small graph.
constexpr int warm_up_calls = 5000;

struct Options {
    int degree = 2, calls = 1000, blocks = 101, bytes = 4, settle_ms = 1000;
    std::string only;  // one row's operation, or every row
};

constexpr const char* usage =
    "usage: nbrroute [--degree D] [--calls N] [--blocks B] [--bytes S] [--settle-ms T] [--only OPERATION]\n"
    "  --degree D  neighbors each process lists each way, an even number (2)\n"
    "  --calls N   calls back to back in a block (1000)\n"
    "  --blocks B  blocks a side per row, alternating with the other side's (101)\n"
    "  --bytes S   bytes per block of a call (4)\n"
    "  --settle-ms T  milliseconds of calls to the MPI before the first row (1000)\n"
    "  --only OPERATION  one row, named as the output names it, e.g. \"allgather blocking\"\n";

Options parse(int argc, char** argv) {
    const nbrcomb::bench::CommandLine line("nbrroute", usage);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help") line.help();
        if (i + 1 == argc) line.fail(flag + " needs a value");
        if (flag == "--only") {
            options.only = argv[++i];
            continue;
        }
        const int value = line.positive(flag, argv[++i]);
        if (flag == "--degree") options.degree = value;
        else if (flag == "--calls") options.calls = value;
        else if (flag == "--blocks") options.blocks = value;
        else if (flag == "--bytes") options.bytes = value;
        else if (flag == "--settle-ms") options.settle_ms = value;
        else line.fail("unknown option " + flag);
    }
    if (options.degree % 2 != 0) line.fail("--degree must be even");
    if (options.blocks < 3) line.fail("--blocks must be 3 or more");
    return options;
}

// One side of the comparison: its communicator, the path its calls take and the arguments of
// every collective over the communicator, on the buffers both sides share.
struct Side {
    MPI_Comm comm;
    Path path;
    NeighborArguments<> args;
};

int wait(Path path, MPI_Request* request) {
    return path == Path::library ? MPI_Wait(request, MPI_STATUS_IGNORE) : PMPI_Wait(request, MPI_STATUS_IGNORE);
}

int test_until_done(Path path, MPI_Request* request) {
    int done = 0;
    while (!done)
        if (const int err = path == Path::library ? MPI_Test(request, &done, MPI_STATUS_IGNORE)
                                                  : PMPI_Test(request, &done, MPI_STATUS_IGNORE);
            err != MPI_SUCCESS)
            return err;
    return MPI_SUCCESS;
}

// One row's operation, issued once on a side.
enum class Completion { none, wait, test, start_wait, point_to_point };

struct Row {
    std::string name;
    Collective collective;
    Form form;
    Completion completion;
};

std::vector<Row> rows() {
    std::vector<Row> all;
    for (const Collective collective : all_collectives) {
        const std::string name = collective_name(collective);
        all.push_back({name + " blocking", collective, Form::blocking, Completion::none});
        all.push_back({name + " nonblocking+wait", collective, Form::nonblocking, Completion::wait});
        all.push_back({name + " nonblocking+test", collective, Form::nonblocking, Completion::test});
        if (has_persistent_collectives)
            all.push_back({name + " persistent start+wait", collective, Form::persistent, Completion::start_wait});
    }
    all.push_back({"isend/irecv+waitall", Collective::alltoall, Form::nonblocking, Completion::point_to_point});
    return all;
}

// Sends one block to every neighbor and receives one from each, completed by MPI_Waitall.
int point_to_point(const Side& side, const std::vector<int>& neighbors, int bytes) {
    std::vector<MPI_Request> requests(2 * neighbors.size());
    const bool library = side.path == Path::library;
    for (std::size_t i = 0; i < neighbors.size(); ++i) {
        char* recv = static_cast<char*>(side.args.recvbuf) + i * static_cast<std::size_t>(bytes);
        const char* send = static_cast<const char*>(side.args.sendbuf) + i * static_cast<std::size_t>(bytes);
        // A neighbor listed as rank + step receives from rank - step: tag by the pair's index.
        const int tag = static_cast<int>(i ^ 1U);
        if (library) {
            MPI_Irecv(recv, bytes, MPI_BYTE, neighbors[i], tag, side.comm, &requests[2 * i]);
            MPI_Isend(send, bytes, MPI_BYTE, neighbors[i], static_cast<int>(i), side.comm, &requests[2 * i + 1]);
        } else {
            PMPI_Irecv(recv, bytes, MPI_BYTE, neighbors[i], tag, side.comm, &requests[2 * i]);
            PMPI_Isend(send, bytes, MPI_BYTE, neighbors[i], static_cast<int>(i), side.comm, &requests[2 * i + 1]);
        }
    }
    const int count = static_cast<int>(requests.size());
    return library ? MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE)
                   : PMPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE);
}

// Seconds per call of a block of calls back to back.
double time_block(const Row& row, const Side& side, const std::vector<int>& neighbors, int calls, int bytes) {
    MPI_Request request = MPI_REQUEST_NULL;
    if (row.completion == Completion::start_wait) side.args.call(side.path, row.collective, Form::persistent, &request);
    PMPI_Barrier(side.comm);
    const double start = PMPI_Wtime();
    for (int call = 0; call < calls; ++call) {
        int err = MPI_SUCCESS;
        switch (row.completion) {
        case Completion::none: err = side.args.call(side.path, row.collective, Form::blocking); break;
        case Completion::wait:
            err = side.args.call(side.path, row.collective, Form::nonblocking, &request);
            if (err == MPI_SUCCESS) err = wait(side.path, &request);
            break;
        case Completion::test:
            err = side.args.call(side.path, row.collective, Form::nonblocking, &request);
            if (err == MPI_SUCCESS) err = test_until_done(side.path, &request);
            break;
        case Completion::start_wait:
            err = side.path == Path::library ? MPI_Start(&request) : PMPI_Start(&request);
            if (err == MPI_SUCCESS) err = wait(side.path, &request);
            break;
        case Completion::point_to_point: err = point_to_point(side, neighbors, bytes); break;
        }
        if (err != MPI_SUCCESS) {
            std::fprintf(stderr, "nbrroute: %s failed (%d)\n", row.name.c_str(), err);
            PMPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    const double seconds = (PMPI_Wtime() - start) / calls;
    if (row.completion == Completion::start_wait) {
        if (side.path == Path::library) MPI_Request_free(&request);
        else PMPI_Request_free(&request);
    }
    // Every process's block lasts as long as the slowest's.
    double slowest = 0;
    PMPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

// A launch's first second or so runs slower, while the launcher's and the MPI's own threads
// settle on the cores, and would fall on the first row alone: calls to the MPI until every
// process has spent milliseconds here.
void settle(int milliseconds) {
    const double start = PMPI_Wtime();
    for (int going = 1; going;) {
        going = PMPI_Wtime() - start < milliseconds * 1e-3;
        PMPI_Allreduce(MPI_IN_PLACE, &going, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    }
}

const char* verdict(const std::vector<double>& library, const std::vector<double>& native) {
    if (compare_runs(library, native).slower) return "slower";
    if (compare_runs(native, library).slower) return "faster";
    return "tie";
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const Options options = parse(argc, argv);
    int rank = 0, size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    const std::vector<int> neighbors = ring_neighbors(rank, size, options.degree);
    const int degree = static_cast<int>(neighbors.size());
    MPI_Comm adopted = MPI_COMM_NULL, unseen = MPI_COMM_NULL;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbors.data(), MPI_UNWEIGHTED, degree, neighbors.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &adopted);
    PMPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbors.data(), MPI_UNWEIGHTED, degree, neighbors.data(),
                                    MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &unseen);
    const Exchange exchange(adopted, degree, options.bytes);
    Side library{adopted, Path::library, exchange.args}, native{unseen, Path::native, exchange.args};
    native.args.comm = unseen;
    if (rank == 0)
        std::printf("# nbrroute: %d ranks, degree %d, %d B blocks, %d blocks of %d calls a side\n"
                    "operation,native_ns,library_ns,added_ns,ratio,verdict\n",
                    size, degree, options.bytes, options.blocks, options.calls);
    settle(options.settle_ms);
    for (const Row& row : rows()) {
        if (!options.only.empty() && row.name != options.only) continue;
        // A first block of each warms both up and lets auto mode's first calls pass.
        for (const Side* side : {&library, &native}) time_block(row, *side, neighbors, warm_up_calls, options.bytes);
        std::vector<double> on_library, on_native, added;
        for (int block = 0; block < options.blocks; ++block) {
            const bool library_first = block % 2 == 0;
            const double first = time_block(row, library_first ? library : native, neighbors, options.calls, options.bytes);
            const double second = time_block(row, library_first ? native : library, neighbors, options.calls, options.bytes);
            on_library.push_back((library_first ? first : second) * 1e9);
            on_native.push_back((library_first ? second : first) * 1e9);
            added.push_back(on_library.back() - on_native.back());
        }
        const double library_ns = median(on_library), native_ns = median(on_native);
        if (rank == 0)
            std::printf("%s,%.1f,%.1f,%.1f,%.3f,%s\n", row.name.c_str(), native_ns, library_ns, median(added),
                        library_ns / native_ns, verdict(on_library, on_native));
    }
    PMPI_Comm_free(&unseen);
    MPI_Comm_free(&adopted);
    MPI_Finalize();
    return 0;
}
