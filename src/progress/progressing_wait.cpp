#include "src/progress/progressing_wait.h"

#include "schedule/mpi_features.h"
#include "src/progress/mpi_progress_hook.h"
#include <atomic>

namespace nbrcomb::detail {

namespace {

std::atomic<const OperationsInFlight*> handed_over{nullptr};

// The engine's operations, if it has run one and has one in flight now.
const OperationsInFlight* in_flight() {
    const OperationsInFlight* engine = handed_over.load(std::memory_order_acquire);
    return engine != nullptr && engine->any() ? engine : nullptr;
}

}  // namespace

void hand_over_operations(const OperationsInFlight* engine) { handed_over.store(engine, std::memory_order_release); }

int wait_all_progressing(int count, MPI_Request requests[]) {
    for (;;) {
        const OperationsInFlight* engine = in_flight();
        if (engine == nullptr) return PMPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
        engine->advance();
        int done = 0;
        if (const int err = PMPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE); err != MPI_SUCCESS || done)
            return err;
    }
}

void run_operations_in_flight() {
    if (const OperationsInFlight* engine = in_flight()) engine->run_all();
}

int allreduce_progressing(void* values, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    // Where a nonblocking allreduce costs every process a message to every other (SMPI), the
    // blocking one, which leaves the library's operations in flight waiting until it returns.
    if constexpr (!mpi_has_scalable_nonblocking_collectives)
        return PMPI_Allreduce(MPI_IN_PLACE, values, count, type, op, comm);
    MPI_Request request = MPI_REQUEST_NULL;
    if (const int err = PMPI_Iallreduce(MPI_IN_PLACE, values, count, type, op, comm, &request); err != MPI_SUCCESS)
        return err;
    return wait_all_progressing(1, &request);
}

}  // namespace nbrcomb::detail
