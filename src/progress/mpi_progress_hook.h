// The library's operations in flight must advance whenever the MPI progresses, also while the
// application blocks in a call the library does not intercept (MPI_Barrier, a collective on
// another communicator, a constructor): native nonblocking collectives do, and a program may rely
// on it. Where the MPI lets a library add to its progress engine, found at run time so the
// library loads on any MPI, the library's progress is registered there:
// - Open MPI: opal_progress_register (libopen-pal), which its own LibNBC uses; the callback runs
//   in every pass of the MPI's progress loop, from inside any blocking call.
// - MPICH 4.0 has no public way: its progress hooks are internal symbols, and the poll function
//   of an MPIX generalized request is only called when that request is tested or waited for
//   (MPIX_Async_start, which would do, comes with MPICH 4.3). There, as under SMPI, operations
//   advance only when the application calls the library (README, "Nonblocking and persistent
//   operations").
#pragma once

#include "src/base/call_flags.h"

#include <atomic>

namespace nbrcomb::detail {

// Has the MPI call advance from its progress engine, once per process, where it can
// (mpi_progresses_library says whether it does). advance must return at once when called again
// from inside itself (the MPI calls it from within the MPI calls advance makes).
void hook_into_mpi_progress(int (*advance)());

// Whether the MPI calls it now: read before every blocking call the library leaves to the MPI.
inline bool mpi_progresses_library() { return call_flags.mpi_progress_hooked.load(std::memory_order_relaxed); }

// Undoes it, before MPI_Finalize.
void unhook_from_mpi_progress();

}  // namespace nbrcomb::detail
