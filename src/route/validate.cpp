#include "src/route/validate.h"

#include <cstdint>
#include <mutex>

namespace nbrcomb::detail {

namespace {

int check_type(MPI_Datatype type, int count) {
    if (type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
    if (count < 0) return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

// The per-edge checks of the v and w forms, after their arrays are known to be present; one
// datatype for all edges is checked once, and the counts in one branch-free pass.
int check_edges(const SideArgs& side, int degree) {
    if (side.layout == Layout::typed) {
        for (int i = 0; i < degree; ++i)
            if (const int err = check_type(side.types[i], side.counts[i]); err != MPI_SUCCESS) return err;
        return MPI_SUCCESS;
    }
    if (degree > 0 && side.type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
    bool negative = false;
    for (int i = 0; i < degree; ++i) negative |= side.counts[i] < 0;
    return negative ? MPI_ERR_COUNT : MPI_SUCCESS;
}

bool arrays_missing(const SideArgs& side, int degree) {
    if (degree == 0) return false;
    const bool displs_missing = side.layout == Layout::typed ? side.byte_displs == nullptr : side.displs == nullptr;
    return side.counts == nullptr || displs_missing || (side.layout == Layout::typed && side.types == nullptr);
}

// A communicator whose errors return: the probe below must not trip the caller's handler.
MPI_Comm quiet_self() {
    static std::once_flag once;
    static MPI_Comm comm = MPI_COMM_NULL;
    std::call_once(once, [] {
        PMPI_Comm_dup(MPI_COMM_SELF, &comm);
        PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    });
    return comm;
}

// There is no query for it: MPI_Pack of nothing checks the datatype as a send of it would.
bool uncommitted(MPI_Datatype type) {
    if (named_type(type)) return false;
    char none = 0;
    int position = 0;
    return PMPI_Pack(&none, 0, type, &none, 0, &position, quiet_self()) != MPI_SUCCESS;
}

// Open MPI's check of a point-to-point buffer (OMPI_CHECK_USER_BUFFER), which its own
// neighborhood collectives skip (they crash) and MPICH's make: no address for data to move,
// unless the datatype places its data at absolute addresses (MPI_BOTTOM).
bool null_block(const void* base, MPI_Aint offset, int count, MPI_Datatype type) {
    if (count <= 0 || reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(offset) != 0) return false;
    if (named_type(type)) return true;
    MPI_Aint true_lb = 0, true_extent = 0;
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    return type_size(type) > 0 && true_lb == 0;
}

// The buffer checks every send and receive of the call would make, made before any of them: a
// schedule that failed in a later round would leave its peers waiting. A block at address 0 comes
// of a NULL buffer (no program displaces its blocks back to it from another), so a call whose
// buffers are not NULL costs one comparison per side here.
int check_side_buffers(const void* base, const SideArgs& side, int degree) {
    if (degree == 0 || base != nullptr) return MPI_SUCCESS;
    if (side.layout == Layout::typed) {
        for (int i = 0; i < degree; ++i)
            if (null_block(base, side.byte_displs[i], side.counts[i], side.types[i])) return MPI_ERR_BUFFER;
        return MPI_SUCCESS;
    }
    if (side.layout != Layout::displaced) return null_block(base, 0, side.count, side.type) ? MPI_ERR_BUFFER : MPI_SUCCESS;
    MPI_Aint lb = 0, extent = 0;
    PMPI_Type_get_extent(side.type, &lb, &extent);
    for (int i = 0; i < degree; ++i)
        if (null_block(base, MPI_Aint{side.displs[i]} * extent, side.counts[i], side.type)) return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

int check_side_committed(const SideArgs& side, int degree) {
    if (degree == 0) return MPI_SUCCESS;
    if (side.layout != Layout::typed) return uncommitted(side.type) ? MPI_ERR_TYPE : MPI_SUCCESS;
    for (int i = 0; i < degree; ++i)
        if (side.counts[i] > 0 && uncommitted(side.types[i])) return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

int check_arguments(const CallArgs& args, int indegree, int outdegree) {
    const bool in_place = args.sendbuf == MPI_IN_PLACE || args.recvbuf == MPI_IN_PLACE;
    switch (args.collective) {
    case Collective::allgather:
        if (args.recv.type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
        if (args.recv.count < 0) return MPI_ERR_COUNT;
        if (in_place) return MPI_ERR_ARG;
        return check_type(args.send.type, args.send.count);
    case Collective::allgatherv:
        if (in_place) return MPI_ERR_ARG;
        if (args.recv.type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
        if (const int err = check_type(args.send.type, args.send.count); err != MPI_SUCCESS) return err;
        if (indegree > 0 && args.recv.counts == nullptr) return MPI_ERR_ARG;
        for (int j = 0; j < indegree; ++j)
            if (args.recv.counts[j] < 0) return MPI_ERR_COUNT;
        if (indegree > 0 && args.recv.displs == nullptr) return MPI_ERR_BUFFER;
        return MPI_SUCCESS;
    case Collective::alltoall:
        if (in_place) return MPI_ERR_ARG;
        if (const int err = check_type(args.send.type, args.send.count); err != MPI_SUCCESS) return err;
        return check_type(args.recv.type, args.recv.count);
    case Collective::alltoallv:
    case Collective::alltoallw:
        if (arrays_missing(args.send, outdegree) || arrays_missing(args.recv, indegree) || in_place)
            return MPI_ERR_ARG;
        if (const int err = check_edges(args.send, outdegree); err != MPI_SUCCESS) return err;
        return check_edges(args.recv, indegree);
    }
    return MPI_ERR_INTERN;
}

}  // namespace

int check_call(const CallArgs& args, int indegree, int outdegree) {
    if (const int err = check_arguments(args, indegree, outdegree); err != MPI_SUCCESS) return err;
    if (const int err = check_side_buffers(args.sendbuf, args.send, outdegree); err != MPI_SUCCESS) return err;
    return check_side_buffers(args.recvbuf, args.recv, indegree);
}

int check_library_call(const CallArgs& args, int indegree, int outdegree) {
    if (args.collective == Collective::alltoall) {
        const long long send_bytes = static_cast<long long>(type_size(args.send.type)) * args.send.count;
        const long long recv_bytes = static_cast<long long>(type_size(args.recv.type)) * args.recv.count;
        if (send_bytes != recv_bytes) return MPI_ERR_TRUNCATE;
    }
    if (const int err = check_side_committed(args.send, outdegree); err != MPI_SUCCESS) return err;
    return check_side_committed(args.recv, indegree);
}

}  // namespace nbrcomb::detail
