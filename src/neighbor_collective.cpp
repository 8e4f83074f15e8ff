#include "src/neighbor_collective.h"

#include "schedule/mpi_features.h"
#include "src/call_routing.h"
#include "src/collective_request.h"
#include "src/error_handler.h"
#include "src/log.h"
#include "src/persistent_collective.h"
#include "src/progress_engine.h"
#include "src/progressing_wait.h"
#include "src/statistics.h"
#include "src/validate.h"

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

// What native MPI sends for the call: the schedule knows; with reorder=1 also the bytes between
// nodes with the old and the new ranks, which needs the blocks.
NativeTraffic native_traffic(const Schedule& schedule, const CallArgs& args, const Topology& topology) {
    NativeTraffic traffic{.messages = schedule.native_messages,
                          .bytes = schedule.native_bytes,
                          .internode_messages = schedule.native_internode_messages,
                          .internode_bytes = schedule.native_internode_bytes};
    if (topology.internode_before.empty()) return traffic;
    const std::vector<Block> send_blocks = edge_blocks(args.send, topology, Space::send);
    for (std::size_t j = 0; j < send_blocks.size(); ++j) {
        const std::size_t bytes = send_blocks[j].bytes;
        if (topology.internode_before[j]) traffic.internode_bytes_before += bytes;
        if (topology.internode_after[j]) traffic.internode_bytes_after += bytes;
    }
    return traffic;
}

// What native MPI sends between nodes for a call of these blocks, counted once per schedule.
void count_native_internode(const std::vector<Block>& send_blocks, const Topology& topology, Schedule& schedule) {
    const NodeMap nodes{topology.node_of, topology.graph.rank};
    for (std::size_t j = 0; j < send_blocks.size(); ++j)
        if (nodes.crosses_to(topology.graph.destinations[j])) {
            ++schedule.native_internode_messages;
            schedule.native_internode_bytes += send_blocks[j].bytes;
        }
}

// The schedule of the call on its route: from the cache, which a repeated call finds without
// allocating, or built (Phase 2).
std::shared_ptr<const Schedule> cached_schedule(const CallArgs& args, TopoState& state, const Choice& choice) {
    const Topology& topology = *state.topology;
    const bool combined = choice.route == Route::combined;
    thread_local ScheduleKey key;
    key.clear();
    key.push_back(combined ? 1 : 0);
    key.push_back(static_cast<std::intptr_t>(choice.cutoff));
    append_call_key(args, topology.indegree(), topology.outdegree(), key);
    if (std::shared_ptr<const Schedule> found = state.schedules.find(key)) return found;

    const double start = PMPI_Wtime();
    const std::vector<Block> send_blocks = edge_blocks(args.send, topology, Space::send);
    const std::vector<Block> recv_blocks = edge_blocks(args.recv, topology, Space::recv);
    const CallBlocks blocks{send_blocks, recv_blocks, args.send.layout == Layout::same, choice.cutoff};
    Schedule schedule = (combined ? topology.combined_plan() : *topology.direct).schedule(topology.graph, blocks);
    count_native_internode(send_blocks, topology, schedule);
    std::shared_ptr<const Schedule> built = state.schedules.insert(key, std::move(schedule));
    ++state.stats.schedules_built;
    state.stats.schedule_seconds += PMPI_Wtime() - start;
    log_schedule(args.collective, *built);
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

// MPI_SUCCESS with call.state set when the library runs the call; MPI_SUCCESS with it null
// when native MPI must; otherwise the error the call fails with (already raised).
int prepare(const CallArgs& args, Form form, PreparedCall& call) {
    if (args.comm == MPI_COMM_NULL) return MPI_SUCCESS;
    const std::shared_ptr<TopoState>* shared = find_shared_state(args.comm);
    if (shared == nullptr) return MPI_SUCCESS;
    TopoState& state = **shared;
    if (state.awaiting_setup) return MPI_SUCCESS;
    const Choice choice = route_call(args.comm, state, args, form);
    const Topology& topology = *state.topology;
    const bool reliable = native_reliable(args.collective, form, topology);
    // Where the MPI's own collective is missing or wrong, the native side is the library's one
    // message per edge.
    call.route = !reliable && choice.route == Route::native ? Route::reference : choice.route;
    call.cutoff = choice.cutoff;
    call.ticket = choice.ticket;
    if (call.timed()) call.local_class = size_class(largest_block(args, topology.indegree(), topology.outdegree()));
    if (reliable && runs_natively(call, form)) {
        count_native_call(state.stats, topology.graph.destinations.size());
        return MPI_SUCCESS;
    }
    if (const int err = validate_call(args, topology.indegree(), topology.outdegree()); err != MPI_SUCCESS)
        return raise_error(args.comm, err);
    try {
        if (const int err = ensure_private_comm(args.comm, state); err != MPI_SUCCESS) return raise_error(args.comm, err);
        call.schedule = cached_schedule(args, state, choice);
        call.native = native_traffic(*call.schedule, args, topology);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s; running it natively", collective_name(args.collective),
            failure.what());
        call.route = Route::native;
        return MPI_SUCCESS;
    }
    call.state = *shared;
    return MPI_SUCCESS;
}

std::shared_ptr<Operation> make_operation(PreparedCall& call, const CallArgs& args, int first_tag) {
    auto op = acquire_operation(call.state, call.schedule, CallBuffers{args.sendbuf, args.recvbuf}, first_tag);
    op->native = call.native;
    return op;
}

// Runs call's blocking part, timing it when the trial asks.
template <class Run>
int timed(const PreparedCall& call, TopoState* state, Run run) {
    if (!call.timed()) return run();
    const double start = PMPI_Wtime();
    const int err = run();
    state->tuner->record(call.ticket, call.local_class, PMPI_Wtime() - start);
    return err;
}

// Auto mode: both ways of a persistent collective, and what routes its starts.
PersistentTuning persistent_tuning(const CallArgs& args, TopoState& state) {
    const std::shared_ptr<const Topology> topology = state.topology;
    auto send = edge_blocks(args.send, *topology, Space::send);
    auto recv = edge_blocks(args.recv, *topology, Space::recv);
    const bool same = args.send.layout == Layout::same;
    return {cached_schedule(args, state, {Route::reference, SIZE_MAX, {}}),
            [topology, send = std::move(send), recv = std::move(recv), same](std::size_t cutoff) {
                return std::make_shared<const Schedule>(
                    topology->combined_plan().schedule(topology->graph, {send, recv, same, cutoff}));
            },
            args.collective, shape_class(args), size_class(largest_block(args, topology->indegree(), topology->outdegree()))};
}

}  // namespace

int run_neighbor_collective(const CallArgs& args, NativeCall native) {
    PreparedCall call;
    if (const int err = prepare(args, Form::blocking, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) finish_before_blocking();  // the MPI's own collective blocks
    if (call.route == Route::native) return native(args);
    if (call.state == nullptr) return timed(call, find_state(args.comm), [&] { return native(args); });
    return timed(call, call.state.get(), [&]() -> int {
        const int first_tag = call.state->next_tag();
        if (const int err = run_operation(make_operation(call, args, first_tag)); err != MPI_SUCCESS)
            return raise_error(args.comm, err);
        return MPI_SUCCESS;
    });
}

int start_neighbor_collective(const CallArgs& args, MPI_Request* request, NativeStart native) {
    progress_operations();
    PreparedCall call;
    if (const int err = prepare(args, Form::nonblocking, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) return native(args, request);
    if (request == nullptr) return raise_error(args.comm, MPI_ERR_REQUEST);
    std::shared_ptr<Operation> op = make_operation(call, args, call.state->next_tag());
    op->on_complete = start_collective_request(request);
    if (!op->on_complete) return raise_error(args.comm, MPI_ERR_INTERN);
    if (call.timed())
        op->on_complete = [complete = std::move(op->on_complete), tuner = call.state->tuner.get(),
                           ticket = call.ticket, local_class = call.local_class, start = PMPI_Wtime()](int err) {
            tuner->record(ticket, local_class, PMPI_Wtime() - start);
            complete(err);
        };
    op->handle = *request;
    // A failure to post is reported when the request completes, as for a later round's.
    start_operation(std::move(op));
    return MPI_SUCCESS;
}

int init_neighbor_collective(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native) {
    PreparedCall call;
    if (const int err = prepare(args, Form::persistent, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) return native(args, info, request);
    if (request == nullptr) return raise_error(args.comm, MPI_ERR_REQUEST);
    PersistentCall persistent{call.state,  call.schedule, call.cutoff, {args.sendbuf, args.recvbuf},
                              call.native, args.comm,     {}};
    // Auto mode tries combining where it is a candidate; elsewhere the call was routed for good.
    if (call.state->config.mode == NBRCOMB_MODE_AUTO && call.route == Route::combined) {
        try {
            persistent.tuning = persistent_tuning(args, *call.state);
        } catch (const std::exception& failure) {
            log(LogLevel::warning, "neighbor_%s_init: %s; running it natively", collective_name(args.collective),
                failure.what());
            return native(args, info, request);
        }
    }
    if (const int err = init_persistent_collective(std::move(persistent), request); err != MPI_SUCCESS)
        return raise_error(args.comm, err);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
