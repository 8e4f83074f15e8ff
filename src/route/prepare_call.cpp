#include "src/route/prepare_call.h"

#include "schedule/datatype_holds.h"
#include "schedule/mpi_features.h"
#include "src/base/device_memory.h"
#include "src/base/error_handler.h"
#include "src/base/log.h"
#include "src/route/choose_route.h"
#include "src/route/validate.h"
#include "src/setup/adopt_topology.h"

#include <exception>
#include <sstream>

namespace nbrcomb::detail {

namespace {


void log_schedule(Collective collective, const Schedule& schedule) {
    if (!log_enabled(LogLevel::debug)) return;
    std::ostringstream listing;
    print(listing, schedule);
    log(LogLevel::debug, "neighbor_%s %s", collective_name(collective), listing.str().c_str());
}

// The blocks of topology's edges on one side of the call, in edge order; the blocks of
// MPI_PROC_NULL neighbors, which have no edge, left out.
std::vector<Block> edge_blocks(const SideArgs& side, const Topology& topology, Space space) {
    const bool send = space == Space::send;
    std::vector<Block> blocks = side_blocks(side, send ? topology.outdegree() : topology.indegree(), space);
    if (!topology.blocks) return blocks;
    std::vector<Block> of_edges;
    for (const int block : send ? topology.blocks->of_destination : topology.blocks->of_source)
        of_edges.push_back(blocks[static_cast<std::size_t>(block)]);
    return of_edges;
}

// The blocks of both sides of a call, their datatypes held for as long as a schedule built from
// them lives (schedule/datatype_holds.h).
struct HeldBlocks {
    std::vector<Block> send, recv;
    std::shared_ptr<DatatypeHolds> datatypes;

    HeldBlocks(const CallArgs& args, const Topology& topology)
        : send(edge_blocks(args.send, topology, Space::send)), recv(edge_blocks(args.recv, topology, Space::recv)),
          datatypes(std::make_shared<DatatypeHolds>()) {
        datatypes->hold(send);
        datatypes->hold(recv);
    }
};

// What native MPI sends for a call of these blocks, one message per out-edge: in all, between
// nodes where the library knows them, and with reorder=1 the bytes between nodes with the old
// and the new ranks.
NativeTraffic native_traffic(const std::vector<Block>& send_blocks, const Topology& topology) {
    NativeTraffic traffic{.messages = send_blocks.size()};
    const NodeMap nodes{topology.node_of, topology.graph.rank};
    for (std::size_t j = 0; j < send_blocks.size(); ++j) {
        const std::size_t bytes = send_blocks[j].bytes;
        traffic.bytes += bytes;
        if (nodes.crosses_to(topology.graph.destinations[j])) {
            ++traffic.internode_messages;
            traffic.internode_bytes += bytes;
        }
        if (topology.internode_before.empty()) continue;
        if (topology.internode_before[j]) traffic.internode_bytes_before += bytes;
        if (topology.internode_after[j]) traffic.internode_bytes_after += bytes;
    }
    return traffic;
}

// The schedule of the call on its route and what native MPI sends for it: from the cache, which
// a repeated call finds without allocating, or built (Phase 2).
std::shared_ptr<const PlannedCall> cached_call(const CallArgs& args, TopoState& state, const Choice& choice) {
    const Topology& topology = *state.topology;
    const bool combined = choice.route == Route::combined;
    thread_local CallKey key;
    key.clear();
    key.push_back(combined ? 1 + choice.candidate : 0);
    key.push_back(static_cast<std::intptr_t>(choice.cutoff));
    append_call_key(args, topology.indegree(), topology.outdegree(), key);
    if (std::shared_ptr<const PlannedCall> found = state.schedules.find(key)) return found;

    const double start = PMPI_Wtime();
    const HeldBlocks held(args, topology);
    const CallBlocks blocks{held.send, held.recv, args.send.layout == Layout::same, choice.cutoff,
                            uniform_blocks(args.collective)};
    const Plan& plan = combined ? topology.combined_plan(choice.candidate) : *topology.direct;
    Schedule schedule = plan.schedule(topology.graph, blocks);
    schedule.datatypes = held.datatypes;
    std::shared_ptr<const PlannedCall> built =
        state.schedules.insert(key, {std::move(schedule), native_traffic(held.send, topology)});
    ++state.stats.lock()->schedules_built;
    state.stats.lock()->schedule_seconds += PMPI_Wtime() - start;
    log_schedule(args.collective, built->schedule);
    return built;
}

// Whether the MPI's own collective gives the call's results: an MPI without neighborhood
// collectives has none, MPICH 4.0 gets alltoallw, repeated edges and Cartesian neighbors twice
// wrong, and Open MPI 4.1's nonblocking ones Cartesian neighbors twice.
bool native_reliable(Collective collective, Form form, const Topology& topology) {
    if constexpr (!mpi_has_topologies) return false;
    if (form == Form::nonblocking && topology.native_nonblocking_unreliable) return false;
    return !topology.native_unreliable && (mpi_right_on_alltoallw || collective != Collective::alltoallw);
}

// Whether the MPI's own collective runs the call: natively routed, or a blocking trial's
// reference, which is the MPI itself.
bool runs_natively(const PreparedCall& call, Form form) {
    return call.route == Route::native || (call.route == Route::reference && form == Form::blocking);
}

// Whether the communicator's calls of this form may be settled native: auto mode past Phase 1,
// or any mode where a process uses a GPU; set up, where the MPI's own collective is right for the
// form (but alltoallw, which take_native_route sees to).
bool native_route_opens(Form form, const TopoState& state) {
    if (form == Form::persistent || state.awaiting_setup) return false;
    const bool decides = state.created.config.mode == NBRCOMB_MODE_AUTO && !state.decisions.phase1_pending();
    return (decides || state.created.gpu_somewhere) && native_reliable(Collective::allgather, form, *state.topology);
}

// The route's facts are written once, before its first form opens, and never change after;
// the forms are published last (native_route_forms, release), so that another thread's copy of
// the route (find_shared_state) that sees a form open sees the facts too.
void open_native_route(Form form, TopoState& state) {
    const std::uint8_t open = state.native_route_forms.load(std::memory_order_acquire);
    if ((open & form_bit(form)) != 0) return;
    if (open == 0) {
        NativeRoute& route = state.native_route;
        const Topology& topology = *state.topology;
        route.every_shape_native = state.created.idle || state.created.gpu_somewhere || !state.decisions.has_candidate();
        route.shape_by_block = !topology.relays_across_components;
        route.out_edges = static_cast<std::uint32_t>(topology.graph.destinations.size());
        route.tuner = state.decisions.tuner();
    }
    state.native_route_forms.fetch_or(form_bit(form), std::memory_order_release);
}

}  // namespace

void native_route_failed(const SettledNative& settled, const CallArgs& args, Form form) {
    if (settled.state == nullptr) return;
    const Topology& topology = *settled.state->topology;
    if (check_call(args, topology.indegree(), topology.outdegree()) == MPI_SUCCESS) return;
    if (settled.tuner != nullptr) settled.tuner->count_native(args.collective, form, -1);
    else settled.state->stats.count_native_call(settled.out_edges, -1);
}

int prepare(const CallArgs& args, Form form, PreparedCall& call) {
    if (args.comm == MPI_COMM_NULL) return MPI_SUCCESS;
    const std::shared_ptr<TopoState>* shared = find_shared_state(args.comm);
    if (shared == nullptr) return MPI_SUCCESS;
    TopoState& state = **shared;
    if (state.awaiting_setup) return MPI_SUCCESS;
    // First, whichever way the call runs: an erroneous call changes nothing here.
    if (const int err = check_call(args, state.topology->indegree(), state.topology->outdegree()); err != MPI_SUCCESS)
        return raise_error(args.comm, err);
    // The library's schedules copy and pack on the host; a GPU-aware MPI moves device memory itself.
    // Processes agree on it (where one uses a GPU at creation, every call is the MPI's; in auto mode
    // a call on device memory before Phase 1 counts toward it like any other, and its opening
    // agrees it); elsewhere every process of a call is taken to pass device memory alike.
    const bool on_device = mpi_has_topologies && (is_device_memory(args.sendbuf) || is_device_memory(args.recvbuf));
    if (state.decisions.phase1_pending()) {
        const std::optional<std::size_t> uniform = uniform_block_bytes(args);
        const Topology& topology = *state.topology;
        run_phase1_when_due(args.comm, state, args.collective, form, uniform ? size_class(*uniform) : -1,
                            uniform ? *uniform : largest_block(args, topology.indegree(), topology.outdegree()),
                            on_device);
    }
    // The form's native route opens where it may; this thread's copy follows (another thread may
    // have opened it, or this one remembered the state before it opened).
    if (native_route_opens(form, state)) open_native_route(form, state);
    refresh_remembered_route(state);
    // A call on device memory counts toward the tuner's checkpoints, and joins one's agreement,
    // as the others of its call do, whichever way theirs runs.
    const Choice choice = route_call(state, args, form);
    if (on_device) {
        state.count_device_call();
        return MPI_SUCCESS;
    }
    const Topology& topology = *state.topology;
    const bool reliable = native_reliable(args.collective, form, topology);
    // Where the MPI's own collective is missing or wrong, the native side is the library's one
    // message per edge.
    call.route = !reliable && choice.route == Route::native ? Route::reference : choice.route;
    call.cutoff = choice.cutoff;
    call.ticket = choice.ticket;
    if (call.timed()) call.local_class = size_class(largest_block(args, topology.indegree(), topology.outdegree()));
    if (reliable && runs_natively(call, form)) {
        state.count_native_call();
        return MPI_SUCCESS;
    }
    if (const int err = check_library_call(args, topology.indegree(), topology.outdegree()); err != MPI_SUCCESS)
        return raise_error(args.comm, err);
    try {
        if (const int err = ensure_private_comm(args.comm, state); err != MPI_SUCCESS) return raise_error(args.comm, err);
        std::shared_ptr<const PlannedCall> planned = cached_call(args, state, choice);
        call.native = planned->native;
        const Schedule* schedule = &planned->schedule;
        call.schedule = std::shared_ptr<const Schedule>(std::move(planned), schedule);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s; running it natively", collective_name(args.collective),
            failure.what());
        call.route = Route::native;
        return MPI_SUCCESS;
    }
    call.state = *shared;
    return MPI_SUCCESS;
}

PersistentTuning persistent_tuning(const CallArgs& args, TopoState& state) {
    const std::shared_ptr<const Topology> topology = state.topology;
    auto held = std::make_shared<const HeldBlocks>(args, *topology);
    const bool same = args.send.layout == Layout::same;
    const bool uniform = uniform_blocks(args.collective);
    const std::shared_ptr<const PlannedCall> reference = cached_call(args, state, {Route::reference, 0, SIZE_MAX, {}});
    const std::size_t largest = largest_block(args, topology->indegree(), topology->outdegree());
    return {std::shared_ptr<const Schedule>(reference, &reference->schedule),
            [topology, held = std::move(held), same, uniform](int candidate, std::size_t cutoff) {
                Schedule schedule = topology->combined_plan(candidate).schedule(
                    topology->graph, {held->send, held->recv, same, cutoff, uniform});
                schedule.datatypes = held->datatypes;
                return std::make_shared<const Schedule>(std::move(schedule));
            },
            args.collective, shape_class(args, *topology), size_class(largest),
            mean_block(args, topology->indegree(), topology->outdegree())};
}

}  // namespace nbrcomb::detail
