#include "src/neighbor_collective.h"

#include "schedule/executor.h"
#include "schedule/schedule_builder.h"
#include "src/log.h"
#include "src/topo_state.h"
#include "src/validate.h"

#include <exception>
#include <sstream>

namespace nbrcomb::detail {

namespace {

int raise(MPI_Comm comm, int err) {
    PMPI_Comm_call_errhandler(comm, err);
    return err;
}

void account(TopoState& state, const Schedule& schedule, const Traffic& traffic, const std::vector<Block>& send_blocks) {
    nbrcomb_stats& stats = state.stats;
    ++stats.calls;
    stats.messages_sent += traffic.messages;
    stats.bytes_sent += traffic.bytes;
    stats.native_messages += send_blocks.size();
    for (const Block& block : send_blocks) stats.native_bytes += block.bytes;
    stats.rounds += schedule.rounds.size();
}

void log_schedule(Collective collective, const Schedule& schedule) {
    if (!log_enabled(LogLevel::debug)) return;
    std::ostringstream listing;
    print(listing, schedule);
    log(LogLevel::debug, "neighbor_%s %s", collective_name(collective), listing.str().c_str());
}

}  // namespace

int run_neighbor_collective(const CallArgs& args, NativeCall native) {
    if (args.comm == MPI_COMM_NULL) return native(args);
    TopoState* state = find_state(args.comm);
    if (state == nullptr) return native(args);
    const Topology& topology = *state->topology;
    if (const int err = validate_call(args, topology.indegree(), topology.outdegree()); err != MPI_SUCCESS)
        return raise(args.comm, err);

    const Schedule* schedule = nullptr;
    std::vector<Block> send_blocks;
    try {
        if (const int err = ensure_private_comm(args.comm, *state); err != MPI_SUCCESS) return raise(args.comm, err);
        send_blocks = side_blocks(args.send, topology.outdegree(), Space::send);
        const std::vector<Block> recv_blocks = side_blocks(args.recv, topology.indegree(), Space::recv);
        ScheduleKey key = schedule_key(static_cast<int>(args.collective), send_blocks, recv_blocks);
        schedule = state->schedules.find(key);
        if (schedule == nullptr) {
            const bool same_send_block = args.send.layout == Layout::same;
            schedule = &state->schedules.insert(
                std::move(key), build_schedule(topology.graph, topology.pattern, {send_blocks, recv_blocks, same_send_block}));
            log_schedule(args.collective, *schedule);
        }
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s; running it natively", collective_name(args.collective),
            failure.what());
        return native(args);
    }

    Traffic traffic;
    const int err = execute(*schedule, {args.sendbuf, args.recvbuf}, state->private_comm, state->next_tag(), traffic);
    if (err != MPI_SUCCESS) return raise(args.comm, err);
    account(*state, *schedule, traffic, send_blocks);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
