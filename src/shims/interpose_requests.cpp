// The request calls the library intercepts, so that its nonblocking and persistent operations
// advance while the application waits and their requests behave like any other. With no
// library operation in flight and no library persistent request, each goes straight to the MPI
// after a load of one line (base/call_flags.h), and returns from there.
#include "src/base/error_handler.h"
#include "src/communicator/progress_engine.h"
#include "src/progress/mpi_progress_hook.h"
#include "src/route/persistent_collective.h"
#include "src/shims/export.h"

#include <span>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// Blocks until test says done: in the MPI once no library operation is in flight, or where the
// MPI advances them itself (mpi_progress_hook.h); else by advancing them and testing in turn. When
// the only one in flight is awaited, it runs to its end blocking in the MPI, which is cheaper than
// polling.
template <class Test, class Wait>
int wait_until(std::span<const MPI_Request> awaited, bool may_finish_sole, Test test, Wait wait) {
    for (;;) {
        if (!operations_in_flight() || mpi_progresses_library()) return wait();
        if (may_finish_sole && finish_sole_operation(awaited)) continue;
        progress_operations();
        int done = 0;
        if (const int err = test(done); err != MPI_SUCCESS || done) return err;
        let_other_threads_run();
    }
}

// Whether a wait goes straight to the MPI, nothing of the library's to do before or after it: no
// library persistent request, whose failure it would return, and no library operation in flight
// or the MPI advances them itself. A test, which advances them itself, needs none in flight.
[[gnu::always_inline]] inline bool straight_to_mpi_wait() {
    return !persistent_collectives_exist() && (!operations_in_flight() || mpi_progresses_library());
}
[[gnu::always_inline]] inline bool straight_to_mpi_test() { return !persistent_collectives_exist() && !operations_in_flight(); }

std::span<const MPI_Request> span_of(const MPI_Request* requests, int count) {
    return {requests, count > 0 ? static_cast<std::size_t>(count) : 0};
}

// A library persistent request whose execution failed completes like any other; the
// completion call that completed it returns the error instead (a persistent request keeps its
// handle, so it can be found after the call). err is what the MPI returned.
int with_failure(int err, MPI_Request request, MPI_Status* status) {
    if (err != MPI_SUCCESS || !persistent_failures_kept()) return err;
    const PersistentFailure failure = take_persistent_failure(request);
    if (failure.error == MPI_SUCCESS) return err;
    if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = failure.error;
    return raise_error(failure.comm, failure.error);
}

// The same for the count completed entries of an array (the first count, or those indices
// lists): MPI_ERR_IN_STATUS with every such status's MPI_ERROR set, if one failed.
int with_failures(int err, const MPI_Request* requests, int count, const int* indices, MPI_Status* statuses) {
    if (err != MPI_SUCCESS || !persistent_failures_kept()) return err;
    std::vector<int> errors;
    MPI_Comm comm = MPI_COMM_NULL;
    for (int k = 0; k < count; ++k) {
        const PersistentFailure failure = take_persistent_failure(requests[indices ? indices[k] : k]);
        errors.push_back(failure.error);
        if (failure.error != MPI_SUCCESS) comm = failure.comm;
    }
    if (comm == MPI_COMM_NULL) return err;
    if (statuses != MPI_STATUSES_IGNORE)
        for (int k = 0; k < count; ++k) statuses[k].MPI_ERROR = errors[static_cast<std::size_t>(k)];
    return raise_error(comm, MPI_ERR_IN_STATUS);
}

}  // namespace

NBRCOMB_EXPORT int MPI_Wait(MPI_Request* request, MPI_Status* status) {
    if (straight_to_mpi_wait()) return PMPI_Wait(request, status);
    const int err = wait_until(
        span_of(request, 1), true, [&](int& done) { return PMPI_Test(request, &done, status); },
        [&] { return PMPI_Wait(request, status); });
    return with_failure(err, *request, status);
}

NBRCOMB_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
    if (straight_to_mpi_wait()) return PMPI_Waitall(count, requests, statuses);
    const int err = wait_until(
        span_of(requests, count), true, [&](int& done) { return PMPI_Testall(count, requests, &done, statuses); },
        [&] { return PMPI_Waitall(count, requests, statuses); });
    return with_failures(err, requests, count, nullptr, statuses);
}

// Any one may complete first, so no operation is run to its end here.
NBRCOMB_EXPORT int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
    if (straight_to_mpi_wait()) return PMPI_Waitany(count, requests, index, status);
    const int err = wait_until(
        span_of(requests, count), false,
        [&](int& done) { return PMPI_Testany(count, requests, index, &done, status); },
        [&] { return PMPI_Waitany(count, requests, index, status); });
    return *index == MPI_UNDEFINED ? err : with_failure(err, requests[*index], status);
}

NBRCOMB_EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                                MPI_Status statuses[]) {
    if (straight_to_mpi_wait()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    const int err = wait_until(
        span_of(requests, incount), false,
        [&](int& done) {
            const int tested = PMPI_Testsome(incount, requests, outcount, indices, statuses);
            done = *outcount != 0;  // MPI_UNDEFINED when no request was active
            return tested;
        },
        [&] { return PMPI_Waitsome(incount, requests, outcount, indices, statuses); });
    return *outcount == MPI_UNDEFINED ? err : with_failures(err, requests, *outcount, indices, statuses);
}

NBRCOMB_EXPORT int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
    if (straight_to_mpi_test()) return PMPI_Test(request, flag, status);
    progress_operations();
    const int err = PMPI_Test(request, flag, status);
    return *flag ? with_failure(err, *request, status) : err;
}

NBRCOMB_EXPORT int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
    if (straight_to_mpi_test()) return PMPI_Testall(count, requests, flag, statuses);
    progress_operations();
    const int err = PMPI_Testall(count, requests, flag, statuses);
    return *flag ? with_failures(err, requests, count, nullptr, statuses) : err;
}

NBRCOMB_EXPORT int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
    if (straight_to_mpi_test()) return PMPI_Testany(count, requests, index, flag, status);
    progress_operations();
    const int err = PMPI_Testany(count, requests, index, flag, status);
    return *flag && *index != MPI_UNDEFINED ? with_failure(err, requests[*index], status) : err;
}

NBRCOMB_EXPORT int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                                MPI_Status statuses[]) {
    if (straight_to_mpi_test()) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    progress_operations();
    const int err = PMPI_Testsome(incount, requests, outcount, indices, statuses);
    return *outcount == MPI_UNDEFINED ? err : with_failures(err, requests, *outcount, indices, statuses);
}

NBRCOMB_EXPORT int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
    progress_operations();
    return PMPI_Request_get_status(request, flag, status);
}

NBRCOMB_EXPORT int MPI_Request_free(MPI_Request* request) {
    if (request == nullptr) return PMPI_Request_free(request);
    if (persistent_collectives_exist())
        if (const std::optional<int> freed = free_if_persistent_collective(request)) return *freed;
    if (operations_in_flight() && release_when_complete(*request)) {
        *request = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    return PMPI_Request_free(request);
}

// A collective cannot be cancelled (MPI 3.1 §5.12); a library persistent collective completes
// normally, like the generalized requests of nonblocking ones.
NBRCOMB_EXPORT int MPI_Cancel(MPI_Request* request) {
    if (persistent_collectives_exist() && request != nullptr && is_persistent_collective(*request))
        return MPI_SUCCESS;
    return PMPI_Cancel(request);
}

NBRCOMB_EXPORT int MPI_Start(MPI_Request* request) {
    progress_operations();
    if (persistent_collectives_exist() && request != nullptr)
        if (const std::optional<int> started = start_if_persistent_collective(*request)) return *started;
    return PMPI_Start(request);
}

NBRCOMB_EXPORT int MPI_Startall(int count, MPI_Request requests[]) {
    progress_operations();
    if (!persistent_collectives_exist() || requests == nullptr) return PMPI_Startall(count, requests);
    for (int i = 0; i < count; ++i) {
        const std::optional<int> started = start_if_persistent_collective(requests[i]);
        const int err = started ? *started : PMPI_Start(&requests[i]);
        if (err != MPI_SUCCESS) return err;
    }
    return MPI_SUCCESS;
}
