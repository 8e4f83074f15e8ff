#include "schedule/probed_receive.h"

#include "schedule/mpi_features.h"

namespace nbrcomb::detail {

int ProbedMessage::bytes() const {
    int count = 0;
    PMPI_Get_count(&status, MPI_BYTE, &count);
    return count;
}

int probe_message(int peer, int tag, MPI_Comm comm, bool wait, ProbedMessage& message, bool& found) {
    message.peer = peer;
    message.tag = tag;
    message.comm = comm;
    int flag = 1;
    int err = MPI_SUCCESS;
    if constexpr (mpi_has_matched_probe)
        err = wait ? PMPI_Mprobe(peer, tag, comm, &message.handle, &message.status)
                   : PMPI_Improbe(peer, tag, comm, &flag, &message.handle, &message.status);
    else
        err = wait ? PMPI_Probe(peer, tag, comm, &message.status) : PMPI_Iprobe(peer, tag, comm, &flag, &message.status);
    found = flag != 0;
    return err;
}

int receive_message(ProbedMessage& message, void* buffer, MPI_Request* request) {
    if constexpr (mpi_has_matched_probe) return PMPI_Imrecv(buffer, message.bytes(), MPI_BYTE, &message.handle, request);
    return PMPI_Irecv(buffer, message.bytes(), MPI_BYTE, message.peer, message.tag, message.comm, request);
}

}  // namespace nbrcomb::detail
