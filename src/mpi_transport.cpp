#include "src/mpi_transport.h"

#include "schedule/probed_receive.h"
#include "src/progress_engine.h"
#include "src/progressing_wait.h"

#include <vector>

namespace nbrcomb::detail {

namespace {

void check(int err) {
    if (err != MPI_SUCCESS) throw TransportError(err);
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm, int first_tag) : comm_(comm), first_tag_(first_tag) {
    PMPI_Comm_rank(comm, &rank_);
    PMPI_Comm_size(comm, &size_);
}

// Sends are posted first, then each expected message is probed for its size and received,
// so the exchange never needs to know message lengths in advance. Waiting advances the
// library's other operations (progressing_wait.h).
bool MpiTransport::start(Exchange& exchange) {
    std::vector<MPI_Request> sends(exchange.sends().size(), MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < sends.size(); ++i) {
        const Outgoing& send = exchange.sends()[i];
        // As bytes, the way the receiver takes a message whose size only the probe tells.
        check(PMPI_Isend(send.payload->data(), static_cast<int>(send.payload->size() * sizeof(int)), MPI_BYTE,
                         send.peer, first_tag_ + static_cast<int>(send.channel), comm_, &sends[i]));
    }
    auto& received = exchange.received();
    received.clear();
    for (const Expected& expected : exchange.expected()) {
        ProbedMessage message;
        const int tag = first_tag_ + static_cast<int>(expected.channel);
        for (bool found = false; !found;) {
            check(probe_message(expected.peer, tag, comm_, !operations_in_flight(), message, found));
            if (!found) progress_operations();
        }
        std::vector<int> values(static_cast<std::size_t>(message.bytes()) / sizeof(int));
        MPI_Request request = MPI_REQUEST_NULL;
        check(receive_message(message, values.data(), &request));
        check(PMPI_Wait(&request, MPI_STATUS_IGNORE));
        received.push_back(make_payload(std::move(values)));
    }
    check(wait_all_progressing(static_cast<int>(sends.size()), sends.data()));
    return true;
}

}  // namespace nbrcomb::detail
