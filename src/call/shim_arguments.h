// The arguments of each neighborhood collective in the one shape the library's core takes
// (CallArgs), for the int forms' shims and the large-count forms' alike.
#pragma once

#include "src/route/call_args.h"

namespace nbrcomb::detail {

inline CallArgs allgather_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm) {
    return {Collective::allgather, comm, sendbuf, recvbuf,
            {.layout = Layout::same, .count = sendcount, .type = sendtype},
            {.layout = Layout::strided, .count = recvcount, .type = recvtype}};
}

inline CallArgs allgatherv_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
    return {Collective::allgatherv, comm, sendbuf, recvbuf,
            {.layout = Layout::same, .count = sendcount, .type = sendtype},
            {.layout = Layout::displaced, .type = recvtype, .counts = recvcounts, .displs = displs}};
}

inline CallArgs alltoall_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm) {
    return {Collective::alltoall, comm, sendbuf, recvbuf,
            {.layout = Layout::strided, .count = sendcount, .type = sendtype},
            {.layout = Layout::strided, .count = recvcount, .type = recvtype}};
}

inline CallArgs alltoallv_args(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm) {
    return {Collective::alltoallv, comm, sendbuf, recvbuf,
            {.layout = Layout::displaced, .type = sendtype, .counts = sendcounts, .displs = sdispls},
            {.layout = Layout::displaced, .type = recvtype, .counts = recvcounts, .displs = rdispls}};
}

inline CallArgs alltoallw_args(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return {Collective::alltoallw, comm, sendbuf, recvbuf,
            {.layout = Layout::typed, .counts = sendcounts, .byte_displs = sdispls, .types = sendtypes},
            {.layout = Layout::typed, .counts = recvcounts, .byte_displs = rdispls, .types = recvtypes}};
}

}  // namespace nbrcomb::detail
