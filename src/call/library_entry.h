// Where every neighborhood collective shim, of the int forms and the large-count forms, enters
// the library's core; no exception gets past it.
#pragma once

#include "schedule/mpi_features.h"
#include "src/call/neighbor_collective.h"
#include "src/communicator/progress_engine.h"
#include "src/progress/progressing_wait.h"
#include "src/route/prepare_call.h"

namespace nbrcomb::detail {

// The library's way for a call that is not settled native.
int enter_library_blocking(const CallArgs& args, NativeCall native);
int enter_library_nonblocking(const CallArgs& args, MPI_Request* request, NativeStart native);

// A call settled native (route/prepare_call.h) goes to the MPI from here, past nothing else of
// the library. Templates, so that each shim's native function is called directly.
template <class Native>
int enter_blocking(const CallArgs& args, Native native) {
    if (const SettledNative settled = settled_native(args, Form::blocking)) {
        finish_before_blocking();  // the MPI's own collective blocks
        const int err = native(args);
        count_settled_native(settled, args, Form::blocking, err);
        return err;
    }
    return enter_library_blocking(args, native);
}

template <class Native>
int enter_nonblocking(const CallArgs& args, MPI_Request* request, Native native) {
    progress_operations();
    if (const SettledNative settled = settled_native(args, Form::nonblocking)) {
        const int err = native(args, request);
        count_settled_native(settled, args, Form::nonblocking, err);
        return err;
    }
    return enter_library_nonblocking(args, request, native);
}
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
int enter_persistent(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native);
#endif

}  // namespace nbrcomb::detail
