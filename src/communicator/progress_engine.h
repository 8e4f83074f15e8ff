// The library's operations in flight and what moves them on. A multi-round schedule posts a
// round only once the one before has completed, so a nonblocking or persistent operation needs
// someone to look at it: like LibNBC, every completion call the application makes (and every
// library call) advances every operation in flight. With none in flight, a completion call
// costs one atomic load before it goes to the MPI.
#pragma once

#include "src/base/call_flags.h"

#include "schedule/executor.h"
#include "src/base/statistics.h"
#include "src/communicator/topo_state.h"

#include <atomic>
#include <functional>
#include <memory>
#include <span>

namespace nbrcomb::detail {

// Where the processes of state's communicator run, as far as its Phase 1 asked.
inline NodeMap node_map(const TopoState& state) {
    return {state.topology->node_of, state.topology->graph.rank};
}

// One execution of a schedule for one call.
struct Operation {
    Operation(std::shared_ptr<TopoState> state, std::shared_ptr<const Schedule> schedule, const CallBuffers& buffers,
              int first_tag, Reuse reuse = Reuse::once)
        : state(std::move(state)),
          reuse(reuse),
          execution(std::move(schedule), buffers, this->state->private_comm, first_tag, reuse, node_map(*this->state)) {}

    std::shared_ptr<TopoState> state;  // the communicator's state outlives the operation
    Reuse reuse;
    Execution execution;
    NativeTraffic native;
    // What the application waits on, MPI_REQUEST_NULL for a blocking call.
    MPI_Request handle = MPI_REQUEST_NULL;
    // The application freed handle before the end; it is freed once complete.
    bool handle_released = false;
    // Called once the execution has ended, with MPI_SUCCESS or its error.
    std::function<void(int err)> on_complete;
};

// An operation for one call of state's communicator: an ended one of its pool, with its
// memory, or a new one. It returns to the pool when it ends.
std::shared_ptr<Operation> acquire_operation(std::shared_ptr<TopoState> state, std::shared_ptr<const Schedule> schedule,
                                             const CallBuffers& buffers, int first_tag);

// Whether any operation is in flight: one atomic load, inlined into every completion call.
inline bool operations_in_flight() { return call_flags.operations_in_flight.load(std::memory_order_relaxed) != 0; }

// Posts op's first round and keeps op in flight until it ends in a later progress call. Returns
// the error of posting (op has then ended, its on_complete called). A persistent collective
// starts the same operation again once it has ended.
int start_operation(std::shared_ptr<Operation> op);

// Runs op, a blocking call's, to its end in the calling thread, advancing every operation in
// flight meanwhile; returns its error.
int run_operation(std::shared_ptr<Operation> op);

// Between two polls of a wait: under MPI_THREAD_MULTIPLE, yields the processor to the other
// threads, one of which may be the one to advance what this one waits for.
void let_other_threads_run();

// Advances every operation in flight as far as it goes without blocking; with none, one atomic
// load, inlined.
void advance_operations();
inline void progress_operations() {
    if (operations_in_flight()) advance_operations();
}

// When the only operation in flight is one of awaited (the requests a Wait or Waitall waits
// for), runs it to its end, blocking in the MPI rather than polling, and returns true.
bool finish_sole_operation(std::span<const MPI_Request> awaited);

// MPI_Request_free of the request of an operation in flight: freed once it is complete, since
// MPIs differ on freeing a generalized request that is not (MPICH releases its state at once).
// False when no operation in flight has that request.
bool release_when_complete(MPI_Request request);

// Runs every operation in flight to its end (at MPI_Finalize, for requests already freed).
void drain_operations();

}  // namespace nbrcomb::detail
