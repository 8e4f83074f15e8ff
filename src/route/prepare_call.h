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

// The native route: a call of a shape that auto mode decided native before, at none of its tuner's
// checkpoints, on host memory, where the MPI's own collective is right; any call where Phase 1
// found nothing to combine or this process has no edge; and every call on a communicator the
// library does not manage. Such a call goes to the MPI past
// everything else of the library, the MPI checking its arguments (but NULL buffers, which take the
// full way): a few loads and compares, where prepare() takes the shape's whole record and the
// trial's callbacks. Empty for every other call, which prepare() takes.
struct SettledNative {
    bool settled = false;
    TopoState* state = nullptr;  // null: a communicator the library does not manage
    AutoTuner* tuner = nullptr;  // whose checkpoint counts the call
    std::size_t out_edges = 0;   // the messages the call sends
    explicit operator bool() const { return settled; }
};
SettledNative settled_native(const CallArgs& args, Form form);

// Counts a call settled native once the MPI returned err for it, as prepare() counts every call
// that passes its checks: a call whose arguments check_call refuses counts nowhere, one the MPI
// failed later (a truncated message) counts, as it does on the processes whose part of it
// succeeded. The checks run only after an error (passes_checks).
bool passes_checks(const SettledNative& settled, const CallArgs& args);
inline void count_settled_native(const SettledNative& settled, const CallArgs& args, Form form, int err) {
    if (settled.state == nullptr || (err != MPI_SUCCESS && !passes_checks(settled, args))) return;
    if (settled.tuner != nullptr) settled.tuner->count_native(args.collective, form);
    settled.state->stats.count_native_call(settled.out_edges);
}

// MPI_SUCCESS with call.state set when the library runs the call; MPI_SUCCESS with it null
// when native MPI must; otherwise the error the call fails with (already raised).
int prepare(const CallArgs& args, Form form, PreparedCall& call);

// Auto mode: both ways of a persistent collective, and what routes its starts.
PersistentTuning persistent_tuning(const CallArgs& args, TopoState& state);

}  // namespace nbrcomb::detail
