#include "schedule/mpi_features.h"
#include "src/call/library_entry.h"

#include "src/base/error_handler.h"
#include "src/base/log.h"

#include <exception>

namespace nbrcomb::detail {

namespace {

// An exception after communication started cannot fall back to native: it becomes an
// MPI_ERR_INTERN through the communicator's error handler.
template <class Run>
int guarded(const CallArgs& args, Run run) {
    try {
        return run();
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s", collective_name(args.collective), failure.what());
        return raise_error(args.comm, MPI_ERR_INTERN);
    }
}

}  // namespace

int enter_library_blocking(const CallArgs& args, NativeCall native) {
    return guarded(args, [&] { return run_neighbor_collective(args, native); });
}

int enter_library_nonblocking(const CallArgs& args, MPI_Request* request, NativeStart native) {
    return guarded(args, [&] { return start_neighbor_collective(args, request, native); });
}

#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
int enter_persistent(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native) {
    return guarded(args, [&] { return init_neighbor_collective(args, info, request, native); });
}
#endif

}  // namespace nbrcomb::detail
