#include "src/communicator/progress_engine.h"

#include "src/base/statistics.h"
#include "src/progress/mpi_progress_hook.h"
#include "src/progress/progressing_wait.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace nbrcomb::detail {

namespace {

struct Engine {
    std::mutex mutex;
    std::vector<std::shared_ptr<Operation>> operations;  // in flight
};

Engine& engine() {
    static Engine instance;
    return instance;
}

// Whether this thread holds the engine: the MPI calls back into progress (mpi_progress_hook.h)
// from inside the MPI calls made while it does, and must then find nothing to do.
thread_local bool holding_engine = false;

// The engine's lock, marking this thread as holding it.
class EngineLock {
public:
    explicit EngineLock(Engine& state) : lock_(state.mutex) { holding_engine = true; }
    EngineLock(Engine& state, std::try_to_lock_t) : lock_(state.mutex, std::try_to_lock) {
        if (lock_.owns_lock()) holding_engine = true;
    }
    ~EngineLock() {
        if (lock_.owns_lock()) holding_engine = false;
    }
    EngineLock(const EngineLock&) = delete;
    EngineLock& operator=(const EngineLock&) = delete;
    bool owns_lock() const { return lock_.owns_lock(); }

private:
    std::unique_lock<std::mutex> lock_;
};

// Called by the MPI's progress engine where it allows (mpi_progress_hook.h).
int advance_from_mpi() {
    progress_operations();
    return 0;
}

// Under MPI_THREAD_MULTIPLE another thread may need an operation advanced while this one would
// block in the MPI, so then nothing blocks while holding the engine.
bool may_block_in_mpi() {
    static const bool single_caller = [] {
        int level = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&level);
        return level != MPI_THREAD_MULTIPLE;
    }();
    return single_caller;
}

void account(Operation& op) {
    count_library_call(*op.state->stats.lock(), op.execution.traffic(), op.native, op.execution.rounds());
}

// A once-operation that ended goes back to its communicator's pool; the pool does not hold the
// communicator's state, which holds the pool.
void recycle(const std::shared_ptr<Operation>& op) {
    if (op->reuse != Reuse::once) return;
    const std::shared_ptr<TopoState> owner = std::move(op->state);
    op->on_complete = nullptr;
    op->handle = MPI_REQUEST_NULL;
    op->handle_released = false;
    std::lock_guard lock(owner->operations.mutex);
    if (owner->operations.idle.size() < OperationPool::capacity) owner->operations.idle.push_back(op);
}

void finish(const std::shared_ptr<Operation>& op, int err) {
    if (err == MPI_SUCCESS) account(*op);
    if (op->on_complete) op->on_complete(err);
    if (op->handle_released) PMPI_Request_free(&op->handle);
    recycle(op);
}

// Advances every operation without blocking and removes those that ended. Caller holds the lock.
void progress_locked(Engine& state) {
    std::erase_if(state.operations, [](const std::shared_ptr<Operation>& op) {
        const int err = op->execution.advance(Advance::test);
        if (err == MPI_SUCCESS && !op->execution.done()) return false;
        finish(op, err);
        return true;
    });
    call_flags.operations_in_flight.store(state.operations.size());
}

}  // namespace

std::shared_ptr<Operation> acquire_operation(std::shared_ptr<TopoState> state, std::shared_ptr<const Schedule> schedule,
                                             const CallBuffers& buffers, int first_tag) {
    std::shared_ptr<Operation> op;
    {
        std::lock_guard lock(state->operations.mutex);
        if (!state->operations.idle.empty()) {
            op = std::move(state->operations.idle.back());
            state->operations.idle.pop_back();
        }
    }
    if (op == nullptr) return std::make_shared<Operation>(std::move(state), std::move(schedule), buffers, first_tag);
    op->state = std::move(state);
    op->execution.reuse_for(std::move(schedule), buffers, first_tag, node_map(*op->state));
    op->native = {};
    return op;
}

int start_operation(std::shared_ptr<Operation> op) {
    static constexpr OperationsInFlight entry_points{operations_in_flight, progress_operations, drain_operations};
    static const bool handed_over = (hand_over_operations(&entry_points), true);  // once, not per call
    (void)handed_over;
    hook_into_mpi_progress(advance_from_mpi);
    Engine& state = engine();
    EngineLock lock(state);
    if (const int err = op->execution.advance(Advance::test); err != MPI_SUCCESS || op->execution.done()) {
        finish(op, err);
        return err;
    }
    state.operations.push_back(std::move(op));
    call_flags.operations_in_flight.store(state.operations.size());
    return MPI_SUCCESS;
}

int run_operation(std::shared_ptr<Operation> op) {
    // The calling thread runs its own operation apart from the engine, which keeps those that
    // other threads and later calls wait on, so that operations on other communicators wait on no
    // lock of it. It blocks in the MPI where the MPI advances the engine's operations meanwhile
    // (mpi_progress_hook.h), or where none is in flight and no other thread calls the MPI; else it
    // polls, advancing them between its tests, and lets other threads run between polls.
    hook_into_mpi_progress(advance_from_mpi);
    progress_operations();
    int err = MPI_SUCCESS;
    if (mpi_progresses_library() || (may_block_in_mpi() && !operations_in_flight())) {
        err = op->execution.advance(Advance::wait);
    } else {
        while ((err = op->execution.advance(Advance::test)) == MPI_SUCCESS && !op->execution.done()) {
            progress_operations();
            let_other_threads_run();
        }
    }
    finish(op, err);
    return err;
}

void let_other_threads_run() {
    if (!may_block_in_mpi()) std::this_thread::yield();
}

void advance_operations() {
    if (holding_engine) return;
    Engine& state = engine();
    EngineLock lock(state, std::try_to_lock);
    if (lock.owns_lock()) progress_locked(state);  // otherwise another thread is at it
}

bool finish_sole_operation(std::span<const MPI_Request> awaited) {
    if (!may_block_in_mpi()) return false;
    Engine& state = engine();
    EngineLock lock(state);
    if (state.operations.size() != 1) return false;
    const std::shared_ptr<Operation> op = state.operations.front();
    if (op->handle == MPI_REQUEST_NULL || std::ranges::find(awaited, op->handle) == awaited.end()) return false;
    finish(op, op->execution.advance(Advance::wait));
    state.operations.clear();
    call_flags.operations_in_flight.store(0);
    return true;
}

bool release_when_complete(MPI_Request request) {
    Engine& state = engine();
    EngineLock lock(state);
    const auto it = std::ranges::find(state.operations, request, [](const auto& op) { return op->handle; });
    if (it == state.operations.end()) return false;
    (*it)->handle_released = true;
    return true;
}

void drain_operations() {
    while (operations_in_flight()) progress_operations();
}

}  // namespace nbrcomb::detail
