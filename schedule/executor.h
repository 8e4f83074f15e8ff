// Runs a Schedule on the MPI's nonblocking point-to-point layer.
#pragma once

#include "schedule/schedule.h"

namespace nbrcomb::detail {

// The buffers a schedule's BufferRefs are relative to.
struct CallBuffers {
    const void* send;
    void* recv;
};

// What an execution sent.
struct Traffic {
    std::size_t messages = 0;
    std::size_t bytes = 0;
};

// Runs every round to completion on comm; the operation's messages use tags
// first_tag .. first_tag + tags_per_operation - 1. Returns MPI_SUCCESS or the first MPI error
// code; on error, requests already posted are cancelled and freed so nothing is left behind.
int execute(const Schedule& schedule, const CallBuffers& buffers, MPI_Comm comm, int first_tag, Traffic& traffic);

}  // namespace nbrcomb::detail
