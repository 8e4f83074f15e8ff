#include "src/neighbor_collective.h"

#include "schedule/direct_builder.h"
#include "schedule/executor.h"
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

void account(TopoState& state, const Schedule& schedule, const std::vector<Block>& send_blocks) {
    nbrcomb_stats& stats = state.stats;
    ++stats.calls;
    stats.messages_sent += schedule.messages;
    stats.bytes_sent += schedule.bytes_sent;
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

    Schedule schedule;
    std::vector<Block> send_blocks;
    try {
        if (const int err = ensure_private_comm(args.comm, *state); err != MPI_SUCCESS) return raise(args.comm, err);
        send_blocks = side_blocks(args.send, topology.outdegree(), Space::send);
        const std::vector<Block> recv_blocks = side_blocks(args.recv, topology.indegree(), Space::recv);
        schedule = build_direct_schedule(topology.rank, topology.sources, topology.destinations, send_blocks,
                                         recv_blocks);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s; running it natively", collective_name(args.collective),
            failure.what());
        return native(args);
    }
    log_schedule(args.collective, schedule);

    const int err = execute(schedule, {args.sendbuf, args.recvbuf, nullptr}, state->private_comm, state->next_tag());
    if (err != MPI_SUCCESS) return raise(args.comm, err);
    account(*state, schedule, send_blocks);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
