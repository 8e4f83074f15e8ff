// Runs a Schedule on the MPI's nonblocking point-to-point layer.
#pragma once

#include "schedule/schedule.h"

namespace nbrcomb::detail {

// The buffers a schedule's BufferRefs are relative to.
struct CallBuffers {
    const void* send;
    void* recv;
    std::byte* temp;
};

// Runs every round to completion on comm, all messages with the given tag. Returns
// MPI_SUCCESS or the first MPI error code; on error, requests already posted are completed
// or cancelled before returning so nothing is left behind.
int execute(const Schedule& schedule, const CallBuffers& buffers, MPI_Comm comm, int tag);

}  // namespace nbrcomb::detail
