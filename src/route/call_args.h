// The arguments of one neighborhood collective call, in one shape for all five collectives.
#pragma once

#include "schedule/call_cache.h"
#include "schedule/schedule.h"
#include "src/communicator/topo_state.h"
#include "src/base/vocabulary.h"

#include <optional>
#include <vector>

namespace nbrcomb::detail {

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
    const void* sendbuf = nullptr;
    void* recvbuf = nullptr;
    SideArgs send{.layout = Layout::same};
    SideArgs recv{.layout = Layout::same};
    // The caller's own arguments, for the MPI's function where the core leaves the call to it
    // (src/shims/interpose.cpp, src/shims/interpose_large_count.cpp).
    const void* native_args = nullptr;
};

// The blocks of one side, one per edge, relative to the side's buffer. Arguments must have
// passed check_call and check_library_call.
std::vector<Block> side_blocks(const SideArgs& side, int degree, Space space);

// Appends to key what decides the call's blocks: layout, counts, displacements, and the
// datatypes' identities (datatype_facts.h), so that a datatype freed and created again under the
// same handle never finds the schedule of the old one, which holds a duplicate of the old.
// Allocates nothing once key has grown to the size of such calls.
void append_call_key(const CallArgs& args, int indegree, int outdegree, CallKey& key);

// Whether type is named: predefined by the MPI, never freed.
bool named_type(MPI_Datatype type);

// The size of a named type is kept in the thread's remembered lookup (communicator/topo_state.h),
// as it never changes and no program frees one: a load where each call would ask the MPI. A
// derived type's handle may be freed and come back for another type, so its size is asked each
// time (asked_type_size), out of the lines of the inlined test.
[[gnu::cold]] std::size_t asked_type_size(MPI_Datatype type);

// Whether type is the named type whose size this thread remembers.
inline bool size_remembered(MPI_Datatype type) {
    const RememberedState& last = remembered_state;
    return last.named_size > 0 && last.named_type == type;
}

// The bytes of one element of a committed type.
inline std::size_t type_size(MPI_Datatype type) {
    if (size_remembered(type)) [[likely]]
        return static_cast<std::size_t>(remembered_state.named_size);
    return asked_type_size(type);
}

// Whether every block of the call has one size on every process: allgather's and alltoall's.
inline bool uniform_blocks(Collective collective) {
    return collective == Collective::allgather || collective == Collective::alltoall;
}

// allgather and alltoall: the bytes of every block of the call (all processes' blocks are the
// same size); nothing for the v and w forms.
inline std::optional<std::size_t> uniform_block_bytes(const CallArgs& args) {
    if (!uniform_blocks(args.collective)) return std::nullopt;
    return static_cast<std::size_t>(args.send.count) * type_size(args.send.type);
}

// The bytes of the largest block this process sends or receives in the call.
std::size_t largest_block(const CallArgs& args, int indegree, int outdegree);

// The bytes per block this process sends and receives in the call, on average (0 without blocks).
std::size_t mean_block(const CallArgs& args, int indegree, int outdegree);

}  // namespace nbrcomb::detail
