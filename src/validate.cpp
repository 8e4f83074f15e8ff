#include "src/validate.h"

namespace nbrcomb::detail {

namespace {

int check_type(MPI_Datatype type, int count) {
    if (type == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
    if (count < 0) return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

// The per-edge checks of the v and w forms, after their arrays are known to be present.
int check_edges(const SideArgs& side, int degree) {
    for (int i = 0; i < degree; ++i)
        if (const int err = check_type(side.types ? side.types[i] : side.type, side.counts[i]); err != MPI_SUCCESS)
            return err;
    return MPI_SUCCESS;
}

bool arrays_missing(const SideArgs& side, int degree) {
    if (degree == 0) return false;
    const bool displs_missing = side.layout == Layout::typed ? side.byte_displs == nullptr : side.displs == nullptr;
    return side.counts == nullptr || displs_missing || (side.layout == Layout::typed && side.types == nullptr);
}

int type_size(MPI_Datatype type) {
    int size = 0;
    PMPI_Type_size(type, &size);
    return size;
}

}  // namespace

int validate_call(const CallArgs& args, int indegree, int outdegree) {
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
    case Collective::alltoall: {
        if (in_place) return MPI_ERR_ARG;
        if (const int err = check_type(args.send.type, args.send.count); err != MPI_SUCCESS) return err;
        if (const int err = check_type(args.recv.type, args.recv.count); err != MPI_SUCCESS) return err;
        const long long send_bytes = 1LL * type_size(args.send.type) * args.send.count;
        const long long recv_bytes = 1LL * type_size(args.recv.type) * args.recv.count;
        return send_bytes == recv_bytes ? MPI_SUCCESS : MPI_ERR_TRUNCATE;
    }
    case Collective::alltoallv:
    case Collective::alltoallw:
        if (arrays_missing(args.send, outdegree) || arrays_missing(args.recv, indegree) || in_place)
            return MPI_ERR_ARG;
        if (const int err = check_edges(args.send, outdegree); err != MPI_SUCCESS) return err;
        return check_edges(args.recv, indegree);
    }
    return MPI_ERR_INTERN;
}

}  // namespace nbrcomb::detail
