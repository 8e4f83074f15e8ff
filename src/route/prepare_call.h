// How the library takes one neighborhood collective call before running it: Phase 1 when due,
// the route, the checks of its arguments, and its schedule from the cache or built (Phase 2).
#pragma once

#include "schedule/mpi_features.h"
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
// checkpoints, where the MPI's own collective is right; any call where Phase 1 found nothing to
// combine or this process has no edge; and every call on a communicator the library does not
// manage. Such a call goes to the MPI past everything else of the library, the MPI checking its
// arguments (but NULL buffers, which take the full way): a few loads and compares, where
// prepare() takes the shape's whole record and the trial's callbacks.
struct SettledNative {
    bool settled = false;
    TopoState* state = nullptr;  // null: a communicator the library does not manage
    AutoTuner* tuner = nullptr;  // whose checkpoint counted the call, for the statistics too
    std::size_t out_edges = 0;   // the messages the call sends, where there is no tuner
    explicit operator bool() const { return settled; }
};

inline std::uint8_t form_bit(Form form) { return static_cast<std::uint8_t>(1U << static_cast<int>(form)); }

// The call's native route, counted toward the tuner and the statistics as prepare() counts a
// call, before the MPI is called, while the lines the route read are still in the cache; empty
// for every other call, which prepare() takes. Inline, so that a shim on the native route builds
// no CallArgs, only reads the few arguments used here.
[[gnu::always_inline]] inline SettledNative take_native_route(const CallArgs& args, Form form) {
    const RememberedState* found = remembered(args.comm);
    if (found == nullptr) return {.settled = true};
    const NativeRoute& route = found->route;
    if ((route.forms & form_bit(form)) == 0) return {};
    if (route.tuner != nullptr) route.tuner->prefetch_native(args.collective, form);
    if (!mpi_right_on_alltoallw && args.collective == Collective::alltoallw) return {};
    // The MPI checks the arguments as check_call does, but for NULL buffers, on which Open MPI's
    // own collectives crash. Device memory needs no check here: such a call goes to the MPI anyway.
    if (args.sendbuf == nullptr || args.recvbuf == nullptr) return {};
    if (route.every_shape_native) {
        found->state->stats.count_native_call(route.out_edges);
        return {true, found->state, nullptr, route.out_edges};
    }
    int shape_class = -1;
    if (route.shape_by_block && uniform_blocks(args.collective)) {
        // MPI_DATATYPE_NULL has no size to ask for; the full way fails the call on its
        // communicator. Compared only past the remembered size: the handle is a load of its own.
        if (!size_remembered(args.send.type) && args.send.type == MPI_DATATYPE_NULL) return {};
        shape_class = size_class(static_cast<std::size_t>(args.send.count) * type_size(args.send.type));
    }
    if (!route.tuner->decided_native(args.collective, form, shape_class)) return {};
    route.tuner->count_native(args.collective, form);
    return {true, found->state, route.tuner, route.out_edges};
}

// A call the native route took that the MPI failed: counted back where check_call refuses its
// arguments, as such a call counts nowhere on the full way; one the MPI failed later (a truncated
// message) stays counted, as on the processes whose part of it succeeded.
void native_route_failed(const SettledNative& settled, const CallArgs& args, Form form);

// MPI_SUCCESS with call.state set when the library runs the call; MPI_SUCCESS with it null
// when native MPI must; otherwise the error the call fails with (already raised).
int prepare(const CallArgs& args, Form form, PreparedCall& call);

// Auto mode: both ways of a persistent collective, and what routes its starts.
PersistentTuning persistent_tuning(const CallArgs& args, TopoState& state);

}  // namespace nbrcomb::detail
