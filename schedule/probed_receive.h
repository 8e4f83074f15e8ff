// Receiving a message whose size only its sender knows: probe for it, then receive it into a
// buffer of its size. With a matched probe (MPI-3) the receive takes exactly the message the
// probe found. An MPI without one probes and then receives by source and tag, which takes the
// same message: on the library's private communicator nothing else receives from that source on
// that tag meanwhile (each operation and Phase 1 step has tags of its own).
#pragma once

#include <mpi.h>

namespace nbrcomb::detail {

struct ProbedMessage {
    int peer = MPI_ANY_SOURCE;
    int tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Message handle = MPI_MESSAGE_NULL;
    MPI_Status status{};

    int bytes() const;
};

// Looks for a message from peer with tag on comm, waiting for it when wait is true; found says
// whether there is one (always, when waiting).
int probe_message(int peer, int tag, MPI_Comm comm, bool wait, ProbedMessage& message, bool& found);

// Receives the message found into buffer, which holds message.bytes() bytes.
int receive_message(ProbedMessage& message, void* buffer, MPI_Request* request);

}  // namespace nbrcomb::detail
