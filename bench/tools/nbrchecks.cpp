// What the library adds to every neighborhood collective it intercepts on a communicator it
// manages, before the call goes either way: the argument checks (src/route/validate.h: check_call)
// and the device-memory test of both buffers (src/base/device_memory.h). Each is timed side by side
// with the same loop doing nothing but passing the arguments on, in alternating runs; the
// medians of the runs and their difference are printed per collective, in nanoseconds per call.
//   mpiexec -n 1 nbrchecks [calls per run, default 10000000] [runs, default 9]
#include "src/base/device_memory.h"
#include "src/call/shim_arguments.h"
#include "src/route/validate.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// Keeps the compiler from hoisting work out of the timed loops or dropping it.
template <class T>
void escape(T& value) {
    asm volatile("" : : "g"(&value) : "memory");
}

double seconds_per_call(const std::function<int()>& body, long calls) {
    const double start = MPI_Wtime();
    int sink = 0;
    for (long i = 0; i < calls; ++i) sink += body();
    escape(sink);
    return (MPI_Wtime() - start) / static_cast<double>(calls);
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Case {
    std::string name;
    CallArgs args;
};

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const long calls = argc > 1 ? std::atol(argv[1]) : 10'000'000;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 9;
    constexpr int degree = 8;
    std::vector<int> send(4 * degree, 1), recv(4 * degree, 0), counts(degree, 1), displs(degree);
    std::vector<MPI_Aint> byte_displs(degree);
    std::vector<MPI_Datatype> types(degree, MPI_INT);
    for (int i = 0; i < degree; ++i) {
        displs[static_cast<std::size_t>(i)] = i;
        byte_displs[static_cast<std::size_t>(i)] = static_cast<MPI_Aint>(i * sizeof(int));
    }
    const std::vector<Case> cases{
        {"allgather", allgather_args(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, MPI_COMM_WORLD)},
        {"alltoall", alltoall_args(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, MPI_COMM_WORLD)},
        {"alltoallv", alltoallv_args(send.data(), counts.data(), displs.data(), MPI_INT, recv.data(), counts.data(),
                                     displs.data(), MPI_INT, MPI_COMM_WORLD)},
        {"alltoallw", alltoallw_args(send.data(), counts.data(), byte_displs.data(), types.data(), recv.data(),
                                     counts.data(), byte_displs.data(), types.data(), MPI_COMM_WORLD)},
    };
    std::printf("per-call cost on %d edges in and out, %ld calls per run, median of %d alternating runs (ns)\n",
                degree, calls, runs);
    std::printf("%-10s %10s %10s %10s %10s %10s\n", "collective", "nothing", "checks", "+checks", "device", "+device");
    for (Case c : cases) {
        CallArgs* args = &c.args;
        std::vector<double> nothing, checked, device;
        for (int run = 0; run < runs; ++run) {
            nothing.push_back(seconds_per_call([&] { escape(args); return args->send.count; }, calls));
            checked.push_back(seconds_per_call([&] { escape(args); return check_call(*args, degree, degree); }, calls));
            device.push_back(seconds_per_call(
                [&] {
                    escape(args);
                    return static_cast<int>(is_device_memory(args->sendbuf) || is_device_memory(args->recvbuf));
                },
                calls));
        }
        const double base = median(nothing) * 1e9, check = median(checked) * 1e9, dev = median(device) * 1e9;
        std::printf("%-10s %10.2f %10.2f %10.2f %10.2f %10.2f\n", c.name.c_str(), base, check, check - base, dev,
                    dev - base);
    }
    std::printf("device runtime: %s\n", device_runtime_name() ? device_runtime_name() : "none");
    MPI_Finalize();
    return 0;
}
