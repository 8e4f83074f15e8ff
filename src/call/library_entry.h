// Where every neighborhood collective shim, of the int forms and the large-count forms, enters
// the library's core; no exception gets past it.
#pragma once

#include "schedule/mpi_features.h"
#include "src/call/neighbor_collective.h"
#include "src/communicator/progress_engine.h"
#include "src/progress/progressing_wait.h"
#include "src/route/prepare_call.h"

namespace nbrcomb::detail {

// The library's way for a call that is not on the native route.
int enter_library_blocking(const CallArgs& args, NativeCall native);
int enter_library_nonblocking(const CallArgs& args, MPI_Request* request, NativeStart native);

// The same with the MPI's function as the shim gives it (call_mpi: a callable with the caller's
// own arguments), reached by the core through the arguments (native_args). Taken by value and
// never inlined: a shim on the native route builds neither.
template <class CallMpi>
[[gnu::noinline, gnu::cold]] int library_blocking(CallArgs args, CallMpi call_mpi) {
    args.native_args = &call_mpi;
    return enter_library_blocking(args, [](const CallArgs& a) { return (*static_cast<const CallMpi*>(a.native_args))(); });
}

template <class CallMpi>
[[gnu::noinline, gnu::cold]] int library_nonblocking(CallArgs args, MPI_Request* request, CallMpi call_mpi) {
    args.native_args = &call_mpi;
    return enter_library_nonblocking(args, request, [](const CallArgs& a, MPI_Request* r) {
        return (*static_cast<const CallMpi*>(a.native_args))(r);
    });
}

// A shim's way in: make_args() gives the call's arguments as the core takes them, call_mpi calls
// the MPI's function with the caller's own. A call on the native route (route/prepare_call.h)
// goes to the MPI from here, past nothing else of the library; every other call takes the core's
// way with fresh arguments. Templates inlined into each shim, so that the native route reads
// only the few arguments it tests, and calls the MPI directly.
template <class MakeArgs, class CallMpi>
int enter_blocking(const MakeArgs& make_args, const CallMpi& call_mpi) {
    if (const SettledNative settled = take_native_route(make_args(), Form::blocking)) {
        finish_before_blocking();  // the MPI's own collective blocks
        const int err = call_mpi();
        if (err != MPI_SUCCESS) [[unlikely]]
            native_route_failed(settled, make_args(), Form::blocking);
        return err;
    }
    return library_blocking(make_args(), call_mpi);
}

template <class MakeArgs, class CallMpi>
int enter_nonblocking(const MakeArgs& make_args, MPI_Request* request, const CallMpi& call_mpi) {
    progress_operations();
    if (const SettledNative settled = take_native_route(make_args(), Form::nonblocking)) {
        const int err = call_mpi(request);
        if (err != MPI_SUCCESS) [[unlikely]]
            native_route_failed(settled, make_args(), Form::nonblocking);
        return err;
    }
    return library_nonblocking(make_args(), request, call_mpi);
}
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
int enter_persistent(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native);
#endif

}  // namespace nbrcomb::detail
