// How the library takes one neighborhood collective call before running it: Phase 1 when due,
// the route, the checks of its arguments, and its schedule from the cache or built (Phase 2).
#pragma once

#include "src/base/statistics.h"
#include "src/communicator/topo_state.h"
#include "src/decision/auto_tuner.h"
#include "src/route/call_args.h"
#include "src/route/persistent_collective.h"

#include <memory>

namespace nbrcomb::detail {

// A call as the library takes it: its route; for a timed trial call where its time goes; and
// when the library runs it, the communicator's state, the schedule, and what native MPI would
// send for it.
struct PreparedCall {
    Route route = Route::native;
    std::size_t cutoff = SIZE_MAX;
    TrialTicket ticket;
    int local_class = 0;  // of a timed call's largest block here
    std::shared_ptr<TopoState> state;
    std::shared_ptr<const Schedule> schedule;
    NativeTraffic native;

    bool timed() const { return ticket.shape >= 0; }
};

// MPI_SUCCESS with call.state set when the library runs the call; MPI_SUCCESS with it null
// when native MPI must; otherwise the error the call fails with (already raised).
int prepare(const CallArgs& args, Form form, PreparedCall& call);

// Auto mode: both ways of a persistent collective, and what routes its starts.
PersistentTuning persistent_tuning(const CallArgs& args, TopoState& state);

}  // namespace nbrcomb::detail
