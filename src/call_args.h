// The arguments of one neighborhood collective call, in one shape for all five collectives.
#pragma once

#include "schedule/schedule.h"

#include <vector>

namespace nbrcomb::detail {

enum class Collective { allgather, allgatherv, alltoall, alltoallv, alltoallw };

const char* collective_name(Collective collective);

// How one side's (send or receive) blocks are laid out in the user's buffer, per edge i:
enum class Layout {
    same,      // every edge: count x type at offset 0            (allgather* send side)
    strided,   // count x type at i * count * extent               (allgather recv, alltoall)
    displaced, // counts[i] x type at displs[i] * extent           (allgatherv recv, alltoallv)
    typed,     // counts[i] x types[i] at byte_displs[i]           (alltoallw)
};

struct SideArgs {
    Layout layout;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    const int* counts = nullptr;
    const int* displs = nullptr;
    const MPI_Aint* byte_displs = nullptr;
    const MPI_Datatype* types = nullptr;
};

struct CallArgs {
    Collective collective;
    MPI_Comm comm;
    const void* sendbuf;
    void* recvbuf;
    SideArgs send;
    SideArgs recv;
};

// The blocks of one side, one per edge, relative to the side's buffer. Arguments must have
// passed validate_call.
std::vector<Block> side_blocks(const SideArgs& side, int degree, Space space);

}  // namespace nbrcomb::detail
