#include "src/call/generalized_request.h"

namespace nbrcomb::detail {

namespace {

struct Outcome {
    int error = MPI_SUCCESS;
};

int query(void* extra_state, MPI_Status* status) {
    const int err = static_cast<const Outcome*>(extra_state)->error;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = err;
    return err;
}

int release(void* extra_state) {
    delete static_cast<Outcome*>(extra_state);
    return MPI_SUCCESS;
}

// A collective cannot be cancelled (MPI 3.1 §5.12); it completes normally.
int ignore_cancel(void*, int) { return MPI_SUCCESS; }

}  // namespace

std::function<void(int err)> start_generalized_request(MPI_Request* request) {
    auto* outcome = new Outcome;
    if (const int err = PMPI_Grequest_start(query, release, ignore_cancel, outcome, request); err != MPI_SUCCESS) {
        delete outcome;
        return nullptr;
    }
    return [outcome, handle = *request](int err) {
        outcome->error = err;
        MPI_Request completed = handle;
        PMPI_Grequest_complete(completed);
    };
}

}  // namespace nbrcomb::detail
