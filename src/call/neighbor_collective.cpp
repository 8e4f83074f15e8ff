#include "src/call/neighbor_collective.h"

#include "src/base/error_handler.h"
#include "src/base/log.h"
#include "src/call/generalized_request.h"
#include "src/communicator/progress_engine.h"
#include "src/progress/progressing_wait.h"
#include "src/route/persistent_collective.h"
#include "src/route/prepare_call.h"

#include <exception>

namespace nbrcomb::detail {

namespace {

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
    state->decisions.tuner()->record(call.ticket, call.local_class, PMPI_Wtime() - start);
    return err;
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
    PreparedCall call;
    if (const int err = prepare(args, Form::nonblocking, call); err != MPI_SUCCESS) return err;
    if (call.state == nullptr) return native(args, request);
    if (request == nullptr) return raise_error(args.comm, MPI_ERR_REQUEST);
    std::shared_ptr<Operation> op = make_operation(call, args, call.state->next_tag());
    op->on_complete = start_generalized_request(request);
    if (!op->on_complete) return raise_error(args.comm, MPI_ERR_INTERN);
    if (call.timed())
        op->on_complete = [complete = std::move(op->on_complete), tuner = call.state->decisions.tuner(),
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
    if (call.state->created.config.mode == NBRCOMB_MODE_AUTO && call.route == Route::combined) {
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
