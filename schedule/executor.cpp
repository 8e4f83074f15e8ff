#include "schedule/executor.h"

#include "schedule/local_copy.h"

#include <vector>

namespace nbrcomb::detail {

namespace {

template <class Pointer>
Pointer address(const CallBuffers& buffers, const BufferRef& ref) {
    std::byte* base = nullptr;
    switch (ref.space) {
    case Space::send: base = const_cast<std::byte*>(static_cast<const std::byte*>(buffers.send)); break;
    case Space::recv: base = static_cast<std::byte*>(buffers.recv); break;
    case Space::temp: base = buffers.temp; break;
    }
    return static_cast<Pointer>(base + ref.offset);
}

// After a failed post, the requests already posted must not outlive the call.
void abandon(std::vector<MPI_Request>& requests) {
    for (MPI_Request& request : requests) {
        if (request == MPI_REQUEST_NULL) continue;
        PMPI_Cancel(&request);
        PMPI_Request_free(&request);
    }
}

}  // namespace

int execute(const Schedule& schedule, const CallBuffers& buffers, MPI_Comm comm, int tag) {
    std::vector<MPI_Request> requests;
    for (const Round& round : schedule.rounds) {
        requests.clear();
        int err = MPI_SUCCESS;
        for (const Op& op : round.ops) {
            if (const auto* recv = std::get_if<RecvOp>(&op)) {
                requests.emplace_back();
                err = PMPI_Irecv(address<void*>(buffers, recv->data.at), recv->data.count, recv->data.type,
                                 recv->peer, tag, comm, &requests.back());
            } else if (const auto* send = std::get_if<SendOp>(&op)) {
                requests.emplace_back();
                err = PMPI_Isend(address<const void*>(buffers, send->data.at), send->data.count, send->data.type,
                                 send->peer, tag, comm, &requests.back());
            } else {
                const auto& copy = std::get<CopyOp>(op);
                err = copy_block(address<const void*>(buffers, copy.from.at), copy.from,
                                 address<void*>(buffers, copy.to.at), copy.to);
            }
            if (err != MPI_SUCCESS) {
                abandon(requests);
                return err;
            }
        }
        err = PMPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        if (err != MPI_SUCCESS) return err;
    }
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
