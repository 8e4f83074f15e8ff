#include "src/route/persistent_collective.h"

#include "src/base/error_handler.h"
#include "src/base/log.h"
#include "src/route/choose_route.h"

#include <atomic>
#include <map>
#include <mutex>

namespace nbrcomb::detail {

namespace {

struct Persistent {
    std::shared_ptr<Operation> op;  // built at init, started again by every MPI_Start
    // Auto mode: the other way, and where the starts go.
    std::shared_ptr<Operation> reference;
    std::optional<PersistentTuning> tuning;
    int op_candidate = 0;              // whose schedule op runs
    std::size_t op_cutoff = SIZE_MAX;  // op's schedule sends blocks above this directly
    TrialTicket ticket;                // of the running start
    double started = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    int first_tag = 0;
    int completion_tag = 0;
    MPI_Request handle = MPI_REQUEST_NULL;
    bool active = false;
    bool freed = false;  // by the application while active
};

struct Registry {
    std::mutex mutex;
    std::map<MPI_Request, Persistent> requests;
    MPI_Comm self = MPI_COMM_NULL;  // carries the zero-byte completion messages
    int next_completion_tag = 0;
    std::map<MPI_Request, PersistentFailure> failures;
};

Registry& registry() {
    static Registry instance;
    return instance;
}

void forget(Registry& state, std::map<MPI_Request, Persistent>::iterator it) {
    it->second.op->state->release_tag(it->second.first_tag);
    state.failures.erase(it->first);
    call_flags.persistent_failures.store(state.failures.size());
    state.requests.erase(it);
    call_flags.persistent_collectives.store(state.requests.size());
}

// Called by the engine when an execution has ended: the zero-byte send completes the request.
void complete(MPI_Request handle, int err) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    const auto it = state.requests.find(handle);
    Persistent& persistent = it->second;
    persistent.active = false;
    if (persistent.ticket.shape >= 0)
        persistent.op->state->decisions.tuner()->record(persistent.ticket, persistent.tuning->local_class,
                                            PMPI_Wtime() - persistent.started);
    if (err != MPI_SUCCESS && !persistent.freed) {
        state.failures[handle] = {err, persistent.comm};
        call_flags.persistent_failures.store(state.failures.size());
    }
    PMPI_Send(nullptr, 0, MPI_BYTE, 0, persistent.completion_tag, state.self);
    if (!persistent.freed) return;
    if (err != MPI_SUCCESS) log(LogLevel::warning, "a freed persistent neighborhood collective failed (MPI error %d)", err);
    PMPI_Wait(&persistent.handle, MPI_STATUS_IGNORE);
    PMPI_Request_free(&persistent.handle);
    forget(state, it);
}

// One way of running the request: both ways run on its tags and complete its handle (one start
// is active at a time).
std::shared_ptr<Operation> restartable_operation(std::shared_ptr<TopoState> state,
                                                 std::shared_ptr<const Schedule> schedule, const CallBuffers& buffers,
                                                 const NativeTraffic& native, const Persistent& persistent) {
    auto op = std::make_shared<Operation>(std::move(state), std::move(schedule), buffers, persistent.first_tag,
                                          Reuse::restartable);
    op->native = native;
    op->handle = persistent.handle;
    op->on_complete = [handle = persistent.handle](int err) { complete(handle, err); };
    return op;
}

// The operation a start of an auto-mode request runs, as choice routes it; the combining
// schedule is rebuilt when a trial or a decision names another candidate or cutoff.
std::shared_ptr<Operation> operation_for(Persistent& persistent, const Choice& choice) {
    if (choice.route != Route::combined) return persistent.reference;
    if (choice.candidate != persistent.op_candidate || choice.cutoff != persistent.op_cutoff) {
        persistent.op = restartable_operation(persistent.op->state,
                                              persistent.tuning->combined_for(choice.candidate, choice.cutoff),
                                              persistent.op->execution.buffers(), persistent.op->native, persistent);
        persistent.op_candidate = choice.candidate;
        persistent.op_cutoff = choice.cutoff;
    }
    return persistent.op;
}

}  // namespace

int init_persistent_collective(PersistentCall call, MPI_Request* request) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    if (state.self == MPI_COMM_NULL)
        if (const int err = PMPI_Comm_dup(MPI_COMM_SELF, &state.self); err != MPI_SUCCESS) return err;
    Persistent persistent;
    persistent.comm = call.comm;
    persistent.completion_tag = state.next_completion_tag;
    if (const int err = PMPI_Recv_init(nullptr, 0, MPI_BYTE, 0, persistent.completion_tag, state.self,
                                       &persistent.handle);
        err != MPI_SUCCESS)
        return err;
    // Tags are many (MPI_TAG_UB >= 32767); a wrap-around would need that many alive at once.
    state.next_completion_tag = (state.next_completion_tag + 1) % 32768;
    persistent.first_tag = call.state->reserve_tag();
    persistent.op = restartable_operation(call.state, call.schedule, call.buffers, call.native, persistent);
    persistent.op_cutoff = call.cutoff;
    if (call.tuning)
        persistent.reference =
            restartable_operation(call.state, call.tuning->reference, call.buffers, call.native, persistent);
    persistent.tuning = std::move(call.tuning);
    *request = persistent.handle;
    state.requests.emplace(persistent.handle, std::move(persistent));
    call_flags.persistent_collectives.store(state.requests.size());
    return MPI_SUCCESS;
}

PersistentFailure take_persistent_failure(MPI_Request request) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    const auto it = state.failures.find(request);
    if (it == state.failures.end()) return {};
    const PersistentFailure failure = it->second;
    state.failures.erase(it);
    call_flags.persistent_failures.store(state.failures.size());
    return failure;
}

bool is_persistent_collective(MPI_Request request) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    return state.requests.contains(request);
}

std::optional<int> start_if_persistent_collective(MPI_Request request) {
    Registry& state = registry();
    // Routing may agree a trial's decision with the other processes and progress operations
    // meanwhile, which complete requests of this registry: it runs unlocked.
    std::optional<Choice> choice;
    {
        std::unique_lock lock(state.mutex);
        const auto it = state.requests.find(request);
        if (it == state.requests.end()) return std::nullopt;
        Persistent& persistent = it->second;
        if (persistent.active) {  // erroneous, as for any persistent request
            return raise_error(persistent.comm, MPI_ERR_REQUEST);
        }
        if (persistent.tuning) {
            const PersistentTuning tuning = *persistent.tuning;
            TopoState& topo = *persistent.op->state;
            lock.unlock();
            choice = route_start(topo, tuning.collective, tuning.size_class, tuning.typical_block);
        }
    }
    std::shared_ptr<Operation> op;
    {
        std::lock_guard lock(state.mutex);
        Persistent& persistent = state.requests.at(request);
        if (const int err = PMPI_Start(&persistent.handle); err != MPI_SUCCESS) return err;
        persistent.active = true;
        persistent.ticket = choice ? choice->ticket : TrialTicket{};
        persistent.started = PMPI_Wtime();
        op = choice ? operation_for(persistent, *choice) : persistent.op;
        op->execution.restart();
    }
    // Unlocked: an operation that ends at once completes the request from in here. A failure
    // to post is reported by the completion call, as for a later round's.
    start_operation(std::move(op));
    return MPI_SUCCESS;
}

std::optional<int> free_if_persistent_collective(MPI_Request* request) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    const auto it = state.requests.find(*request);
    if (it == state.requests.end()) return std::nullopt;
    *request = MPI_REQUEST_NULL;
    Persistent& persistent = it->second;
    if (persistent.active) {
        persistent.freed = true;
        return MPI_SUCCESS;
    }
    const int err = PMPI_Request_free(&persistent.handle);
    forget(state, it);
    return err;
}

}  // namespace nbrcomb::detail
