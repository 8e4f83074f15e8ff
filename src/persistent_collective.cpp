#include "src/persistent_collective.h"

#include "src/log.h"

#include <atomic>
#include <map>
#include <mutex>

namespace nbrcomb::detail {

namespace {

struct Persistent {
    std::shared_ptr<Operation> op;  // built at init, started again by every MPI_Start
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
    std::atomic<std::size_t> count{0};
    MPI_Comm self = MPI_COMM_NULL;  // carries the zero-byte completion messages
    int next_completion_tag = 0;
    std::map<MPI_Request, PersistentFailure> failures;
    std::atomic<std::size_t> failure_count{0};
};

Registry& registry() {
    static Registry instance;
    return instance;
}

void forget(Registry& state, std::map<MPI_Request, Persistent>::iterator it) {
    it->second.op->state->release_tag(it->second.first_tag);
    state.failures.erase(it->first);
    state.failure_count.store(state.failures.size());
    state.requests.erase(it);
    state.count.store(state.requests.size());
}

// Called by the engine when an execution has ended: the zero-byte send completes the request.
void complete(MPI_Request handle, int err) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    const auto it = state.requests.find(handle);
    Persistent& persistent = it->second;
    persistent.active = false;
    if (err != MPI_SUCCESS && !persistent.freed) {
        state.failures[handle] = {err, persistent.comm};
        state.failure_count.store(state.failures.size());
    }
    PMPI_Send(nullptr, 0, MPI_BYTE, 0, persistent.completion_tag, state.self);
    if (!persistent.freed) return;
    if (err != MPI_SUCCESS) log(LogLevel::warning, "a freed persistent neighborhood collective failed (MPI error %d)", err);
    PMPI_Wait(&persistent.handle, MPI_STATUS_IGNORE);
    PMPI_Request_free(&persistent.handle);
    forget(state, it);
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
    persistent.op = std::make_shared<Operation>(call.state, call.schedule, call.buffers, persistent.first_tag,
                                                Reuse::restartable);
    persistent.op->native = call.native;
    persistent.op->handle = persistent.handle;
    persistent.op->on_complete = [handle = persistent.handle](int err) { complete(handle, err); };
    *request = persistent.handle;
    state.requests.emplace(persistent.handle, std::move(persistent));
    state.count.store(state.requests.size());
    return MPI_SUCCESS;
}

bool persistent_failures_kept() { return registry().failure_count.load(std::memory_order_relaxed) != 0; }

PersistentFailure take_persistent_failure(MPI_Request request) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    const auto it = state.failures.find(request);
    if (it == state.failures.end()) return {};
    const PersistentFailure failure = it->second;
    state.failures.erase(it);
    state.failure_count.store(state.failures.size());
    return failure;
}

bool persistent_collectives_exist() { return registry().count.load(std::memory_order_relaxed) != 0; }

bool is_persistent_collective(MPI_Request request) {
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    return state.requests.contains(request);
}

std::optional<int> start_if_persistent_collective(MPI_Request request) {
    Registry& state = registry();
    std::shared_ptr<Operation> op;
    {
        std::lock_guard lock(state.mutex);
        const auto it = state.requests.find(request);
        if (it == state.requests.end()) return std::nullopt;
        Persistent& persistent = it->second;
        if (persistent.active) {  // erroneous, as for any persistent request
            PMPI_Comm_call_errhandler(persistent.comm, MPI_ERR_REQUEST);
            return MPI_ERR_REQUEST;
        }
        if (const int err = PMPI_Start(&persistent.handle); err != MPI_SUCCESS) return err;
        persistent.active = true;
        op = persistent.op;
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
