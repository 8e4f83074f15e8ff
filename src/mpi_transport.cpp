#include "src/mpi_transport.h"

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
        check(PMPI_Isend(send.payload->data(), static_cast<int>(send.payload->size()), MPI_INT, send.peer,
                         first_tag_ + static_cast<int>(send.channel), comm_, &sends[i]));
    }
    auto& received = exchange.received();
    received.clear();
    for (const Expected& expected : exchange.expected()) {
        MPI_Message message = MPI_MESSAGE_NULL;
        MPI_Status status;
        const int tag = first_tag_ + static_cast<int>(expected.channel);
        for (int found = 0; !found;) {
            if (!operations_in_flight()) {
                check(PMPI_Mprobe(expected.peer, tag, comm_, &message, &status));
                break;
            }
            check(PMPI_Improbe(expected.peer, tag, comm_, &found, &message, &status));
            if (!found) progress_operations();
        }
        int count = 0;
        check(PMPI_Get_count(&status, MPI_INT, &count));
        std::vector<int> values(static_cast<std::size_t>(count));
        check(PMPI_Mrecv(values.data(), count, MPI_INT, &message, MPI_STATUS_IGNORE));
        received.push_back(make_payload(std::move(values)));
    }
    check(wait_all_progressing(static_cast<int>(sends.size()), sends.data()));
    return true;
}

}  // namespace nbrcomb::detail
