// Waiting in the library without stalling its other operations. A call that blocks inside the
// library (Phase 1 in an auto-mode call, the agreement on a trial's decision, a constructor's
// exchanges) may be waited for by a process that itself waits for one of this process's
// multi-round operations on another communicator; those must go on meanwhile, or both wait
// forever.
#pragma once

#include "src/base/call_flags.h"
#include "src/progress/mpi_progress_hook.h"

#include <mpi.h>

namespace nbrcomb::detail {

// The library's operations in flight, which the engine above (communicator/progress_engine.h)
// runs: it hands its entry points over when it starts its first operation, since this room sits
// below the communicators whose operations they are. Until then there is none to advance.
struct OperationsInFlight {
    bool (*any)();       // whether one is in flight
    void (*advance)();   // advances each as far as it goes without blocking
    void (*run_all)();   // runs each to its end
};
void hand_over_operations(const OperationsInFlight* engine);

// Completes count requests, advancing the library's operations in flight until they are.
int wait_all_progressing(int count, MPI_Request requests[]);

// Runs every operation in flight to its end.
void run_operations_in_flight();

// Before a blocking MPI call: where the MPI does not advance the library's operations by itself
// (mpi_progress_hook.h), runs those in flight to their end, since a process waiting for one of
// them may first need this one's next round. The blocking call itself must stay as it is: a
// nonblocking collective never matches a blocking one another process makes.
inline void finish_before_blocking() {
    if (!mpi_progresses_library() && call_flags.operations_in_flight.load(std::memory_order_relaxed) != 0)
        run_operations_in_flight();
}

// MPI_Allreduce in place on comm, progressing as wait_all_progressing does (not under SMPI:
// schedule/mpi_features.h).
int allreduce_progressing(void* values, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);

}  // namespace nbrcomb::detail
