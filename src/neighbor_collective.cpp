#include "src/neighbor_collective.h"

#include "schedule/schedule_builder.h"
#include "src/collective_request.h"
#include "src/log.h"
#include "src/persistent_collective.h"
#include "src/progress_engine.h"
#include "src/validate.h"

#include <exception>
#include <sstream>

namespace nbrcomb::detail {

namespace {

int raise(MPI_Comm comm, int err) {
    PMPI_Comm_call_errhandler(comm, err);
    return err;
}

void log_schedule(Collective collective, const Schedule& schedule) {
    if (!log_enabled(LogLevel::debug)) return;
    std::ostringstream listing;
    print(listing, schedule);
    log(LogLevel::debug, "neighbor_%s %s", collective_name(collective), listing.str().c_str());
}

// A call the library runs: its communicator's state, its schedule, and what native MPI would
// send for it.
struct PreparedCall {
    std::shared_ptr<TopoState> state;  // null: the call goes to native MPI
    std::shared_ptr<const Schedule> schedule;
    NativeTraffic native;
};

// One message per out-edge; with reorder=1, the bytes of those between nodes.
NativeTraffic native_traffic(const std::vector<Block>& send_blocks, const Topology& topology) {
    NativeTraffic traffic{.messages = send_blocks.size()};
    const bool reordering = !topology.internode_before.empty();
    for (std::size_t j = 0; j < send_blocks.size(); ++j) {
        const std::size_t bytes = send_blocks[j].bytes;
        traffic.bytes += bytes;
        if (reordering && topology.internode_before[j]) traffic.internode_bytes_before += bytes;
        if (reordering && topology.internode_after[j]) traffic.internode_bytes_after += bytes;
    }
    return traffic;
}

std::shared_ptr<const Schedule> cached_schedule(const CallArgs& args, TopoState& state,
                                                const std::vector<Block>& send_blocks) {
    const Topology& topology = *state.topology;
    const std::vector<Block> recv_blocks = side_blocks(args.recv, topology.indegree(), Space::recv);
    ScheduleKey key = schedule_key(static_cast<int>(args.collective), send_blocks, recv_blocks);
    if (std::shared_ptr<const Schedule> found = state.schedules.find(key)) return found;
    const double start = PMPI_Wtime();
    const bool same_send_block = args.send.layout == Layout::same;
    std::shared_ptr<const Schedule> built = state.schedules.insert(
        std::move(key), build_schedule(topology.graph, topology.pattern, {send_blocks, recv_blocks, same_send_block}));
    ++state.stats.schedules_built;
    state.stats.schedule_seconds += PMPI_Wtime() - start;
    log_schedule(args.collective, *built);
    return built;
}

// MPI_SUCCESS with call.state set when the library runs the call; MPI_SUCCESS with it null
// when native MPI must; otherwise the error the call fails with (already raised).
int prepare(const CallArgs& args, PreparedCall& call) {
    if (args.comm == MPI_COMM_NULL) return MPI_SUCCESS;
    std::shared_ptr<TopoState> state = share_state(args.comm);
    if (state == nullptr) return MPI_SUCCESS;
    const Topology& topology = *state->topology;
    if (const int err = validate_call(args, topology.indegree(), topology.outdegree()); err != MPI_SUCCESS)
        return raise(args.comm, err);
    try {
        if (const int err = ensure_private_comm(args.comm, *state); err != MPI_SUCCESS) return raise(args.comm, err);
        const std::vector<Block> send_blocks = side_blocks(args.send, topology.outdegree(), Space::send);
        call.schedule = cached_schedule(args, *state, send_blocks);
        call.native = native_traffic(send_blocks, topology);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s; running it natively", collective_name(args.collective),
            failure.what());
        return MPI_SUCCESS;
    }
    call.state = std::move(state);
    return MPI_SUCCESS;
}

std::shared_ptr<Operation> make_operation(PreparedCall& call, const CallArgs& args, int first_tag) {
    auto op = acquire_operation(call.state, call.schedule, CallBuffers{args.sendbuf, args.recvbuf}, first_tag);
    op->native = call.native;
    return op;
}

}  // namespace

int run_neighbor_collective(const CallArgs& args, NativeCall native) {
    PreparedCall call;
    if (const int err = prepare(args, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) return native(args);
    const int first_tag = call.state->next_tag();
    if (const int err = run_operation(make_operation(call, args, first_tag)); err != MPI_SUCCESS)
        return raise(args.comm, err);
    return MPI_SUCCESS;
}

int start_neighbor_collective(const CallArgs& args, MPI_Request* request, NativeStart native) {
    progress_operations();
    PreparedCall call;
    if (const int err = prepare(args, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) return native(args, request);
    if (request == nullptr) return raise(args.comm, MPI_ERR_REQUEST);
    std::shared_ptr<Operation> op = make_operation(call, args, call.state->next_tag());
    op->on_complete = start_collective_request(request);
    if (!op->on_complete) return raise(args.comm, MPI_ERR_INTERN);
    op->handle = *request;
    // A failure to post is reported when the request completes, as for a later round's.
    start_operation(std::move(op));
    return MPI_SUCCESS;
}

int init_neighbor_collective(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native) {
    PreparedCall call;
    if (const int err = prepare(args, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) return native(args, info, request);
    if (request == nullptr) return raise(args.comm, MPI_ERR_REQUEST);
    PersistentCall persistent{call.state, call.schedule, {args.sendbuf, args.recvbuf}, call.native, args.comm};
    if (const int err = init_persistent_collective(std::move(persistent), request); err != MPI_SUCCESS)
        return raise(args.comm, err);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
