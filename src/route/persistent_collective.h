// Persistent neighborhood collectives (MPI-4 MPI_Neighbor_*_init, paper 000 §VI "persistent"):
// the schedule is built once at init and every MPI_Start runs it again on the same tags. The
// MPI_Request the application holds is a persistent zero-byte receive on a private duplicate of
// MPI_COMM_SELF, started with the operation and completed by a zero-byte send when the
// operation ends: the MPI itself then sees it start, complete and turn inactive, in any array
// of requests.
#pragma once

#include "src/base/call_flags.h"

#include "src/communicator/progress_engine.h"
#include "src/decision/auto_tuner.h"

#include <atomic>
#include <functional>
#include <optional>

namespace nbrcomb::detail {

// Auto mode: each start of a persistent collective takes the route its shape's trial and
// decision give (choose_route.h), so the request holds both ways.
struct PersistentTuning {
    std::shared_ptr<const Schedule> reference;  // one message per edge: the native side
    // A candidate's combining schedule for the blocks of the call, with the cutoff a decision sets.
    std::function<std::shared_ptr<const Schedule>(int candidate, std::size_t cutoff)> combined_for;
    Collective collective;
    int size_class;             // of the shape, as route_start takes it
    int local_class;            // of the largest block here, for the trial's timings
    std::size_t typical_block;  // mean_block here
};

// What every start of one persistent collective runs.
struct PersistentCall {
    std::shared_ptr<TopoState> state;
    std::shared_ptr<const Schedule> schedule;  // the mode's; in auto mode, the first candidate's
    std::size_t cutoff;                        // schedule's: larger blocks go directly
    CallBuffers buffers;
    NativeTraffic native;
    MPI_Comm comm;  // the application's, whose error handler hears of failed executions
    std::optional<PersistentTuning> tuning;  // auto mode
};

// Creates the request in *request; it runs nothing until started.
int init_persistent_collective(PersistentCall call, MPI_Request* request);

// Whether any library persistent request exists: one atomic load, inlined into every request call.
inline bool persistent_collectives_exist() { return call_flags.persistent_collectives.load(std::memory_order_relaxed) != 0; }

bool is_persistent_collective(MPI_Request request);

// Starts request if it is a library persistent collective and returns the error; nullopt for
// any other request.
std::optional<int> start_if_persistent_collective(MPI_Request request);

// An execution that failed completes its request all the same; the error is kept for the
// completion call that completes it, which must return it (MPI_ERROR of its status).
struct PersistentFailure {
    int error = MPI_SUCCESS;
    MPI_Comm comm = MPI_COMM_NULL;  // whose error handler hears of it
};
// Whether any failure is kept: one atomic load, inlined into every completion call.
inline bool persistent_failures_kept() { return call_flags.persistent_failures.load(std::memory_order_relaxed) != 0; }
// The failure kept for request, now forgotten; error MPI_SUCCESS if none.
PersistentFailure take_persistent_failure(MPI_Request request);

// Frees *request if it is a library persistent collective (an active one once it has
// completed) and sets it to MPI_REQUEST_NULL; nullopt for any other request.
std::optional<int> free_if_persistent_collective(MPI_Request* request);

}  // namespace nbrcomb::detail
