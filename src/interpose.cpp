// The MPI_* entry points the library intercepts. Each is a thin shim: it passes its arguments
// to one C++ core and lets no exception out; everything else of MPI is untouched.
#include "src/best_effort.h"
#include "src/collective_args.h"
#include "src/collective_entry.h"
#include "src/environment.h"
#include "src/export.h"
#include "src/graph_constructors.h"
#include "src/topology_setup.h"
#include "src/mpi_progress_hook.h"
#include "src/neighbor_collective.h"
#include "src/progress_engine.h"
#include "src/progressing_wait.h"
#include "src/report.h"

using namespace nbrcomb::detail;


NBRCOMB_EXPORT int MPI_Init(int* argc, char*** argv) {
    const int err = PMPI_Init(argc, argv);
    if (err == MPI_SUCCESS) best_effort("reading NBRCOMB_* settings", [] { return environment_config(), MPI_SUCCESS; });
    return err;
}

NBRCOMB_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    const int err = PMPI_Init_thread(argc, argv, required, provided);
    if (err == MPI_SUCCESS) best_effort("reading NBRCOMB_* settings", [] { return environment_config(), MPI_SUCCESS; });
    return err;
}

NBRCOMB_EXPORT int MPI_Finalize(void) {
    drain_operations();  // those whose requests the application freed before they ended
    unhook_from_mpi_progress();
    best_effort("the finalize report", [] { return write_report(); });
    return PMPI_Finalize();
}

NBRCOMB_EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                                  const int sourceweights[], int outdegree, const int destinations[],
                                                  const int destweights[], MPI_Info info, int reorder,
                                                  MPI_Comm* comm_dist_graph) {
    return create_adjacent_graph(
        {comm_old, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder},
        comm_dist_graph);
}

NBRCOMB_EXPORT int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                         const int destinations[], const int weights[], MPI_Info info, int reorder,
                                         MPI_Comm* comm_dist_graph) {
    return create_general_graph({comm_old, n, sources, degrees, destinations, weights, info, reorder},
                                comm_dist_graph);
}

// Blocking collectives where the MPI does not advance the library's operations in flight by
// itself (mpi_progress_hook.h): those finish first, so no process waiting for one is left.
NBRCOMB_EXPORT int MPI_Barrier(MPI_Comm comm) {
    finish_before_blocking();
    return PMPI_Barrier(comm);
}

NBRCOMB_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm) {
    finish_before_blocking();
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

// A duplicate of a managed communicator shares its pattern; where some process has no edge, it
// gets its own communicators here, while every process is in the call.
NBRCOMB_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
    const int err = PMPI_Comm_dup(comm, newcomm);
    if (err == MPI_SUCCESS)
        best_effort("duplicating a communicator", [newcomm] { return complete_duplicate(*newcomm), MPI_SUCCESS; });
    return err;
}

NBRCOMB_EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
    const int err = PMPI_Comm_dup_with_info(comm, info, newcomm);
    if (err == MPI_SUCCESS)
        best_effort("duplicating a communicator", [newcomm] { return complete_duplicate(*newcomm), MPI_SUCCESS; });
    return err;
}

NBRCOMB_EXPORT int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                                   MPI_Comm* comm_cart) {
    return create_cartesian(comm_old, ndims, dims, periods, reorder, comm_cart);
}

NBRCOMB_EXPORT int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
    return create_cartesian_sub(comm, remain_dims, newcomm);
}

NBRCOMB_EXPORT int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                                    MPI_Comm* comm_graph) {
    return create_graph(comm_old, nnodes, index, edges, reorder, comm_graph);
}

// Blocking.

NBRCOMB_EXPORT int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return enter_blocking(allgather_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                    [](const CallArgs& a) {
                        return PMPI_Neighbor_allgather(a.sendbuf, a.send.count, a.send.type, a.recvbuf, a.recv.count,
                                                       a.recv.type, a.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                           MPI_Comm comm) {
    return enter_blocking(allgatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                    [](const CallArgs& a) {
                        return PMPI_Neighbor_allgatherv(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                        a.recv.counts, a.recv.displs, a.recv.type, a.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return enter_blocking(alltoall_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                    [](const CallArgs& a) {
                        return PMPI_Neighbor_alltoall(a.sendbuf, a.send.count, a.send.type, a.recvbuf, a.recv.count,
                                                      a.recv.type, a.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                          MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    return enter_blocking(
        alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
        [](const CallArgs& a) {
            return PMPI_Neighbor_alltoallv(a.sendbuf, a.send.counts, a.send.displs, a.send.type, a.recvbuf,
                                           a.recv.counts, a.recv.displs, a.recv.type, a.comm);
        });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return enter_blocking(
        alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
        [](const CallArgs& a) {
            return PMPI_Neighbor_alltoallw(a.sendbuf, a.send.counts, a.send.byte_displs, a.send.types, a.recvbuf,
                                           a.recv.counts, a.recv.byte_displs, a.recv.types, a.comm);
        });
}

// Nonblocking.

NBRCOMB_EXPORT int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return enter_nonblocking(allgather_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request,
                       [](const CallArgs& a, MPI_Request* r) {
                           return PMPI_Ineighbor_allgather(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                           a.recv.count, a.recv.type, a.comm, r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                            const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                            MPI_Comm comm, MPI_Request* request) {
    return enter_nonblocking(allgatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                       request, [](const CallArgs& a, MPI_Request* r) {
                           return PMPI_Ineighbor_allgatherv(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                            a.recv.counts, a.recv.displs, a.recv.type, a.comm, r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return enter_nonblocking(alltoall_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request,
                       [](const CallArgs& a, MPI_Request* r) {
                           return PMPI_Ineighbor_alltoall(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                          a.recv.count, a.recv.type, a.comm, r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                           MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Request* request) {
    return enter_nonblocking(
        alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), request,
        [](const CallArgs& a, MPI_Request* r) {
            return PMPI_Ineighbor_alltoallv(a.sendbuf, a.send.counts, a.send.displs, a.send.type, a.recvbuf,
                                            a.recv.counts, a.recv.displs, a.recv.type, a.comm, r);
        });
}

NBRCOMB_EXPORT int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                           MPI_Request* request) {
    return enter_nonblocking(
        alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
        request, [](const CallArgs& a, MPI_Request* r) {
            return PMPI_Ineighbor_alltoallw(a.sendbuf, a.send.counts, a.send.byte_displs, a.send.types, a.recvbuf,
                                            a.recv.counts, a.recv.byte_displs, a.recv.types, a.comm, r);
        });
}

// Persistent (MPI-4).
#if MPI_VERSION >= 4


NBRCOMB_EXPORT int MPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                               void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                               MPI_Info info, MPI_Request* request) {
    return enter_persistent(allgather_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), info,
                      request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          return PMPI_Neighbor_allgather_init(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                              a.recv.count, a.recv.type, a.comm, i, r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                                void* recvbuf, const int recvcounts[], const int displs[],
                                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                                MPI_Request* request) {
    return enter_persistent(allgatherv_args(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                      info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          return PMPI_Neighbor_allgatherv_init(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                               a.recv.counts, a.recv.displs, a.recv.type, a.comm, i,
                                                               r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                              MPI_Request* request) {
    return enter_persistent(alltoall_args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), info, request,
                      [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          return PMPI_Neighbor_alltoall_init(a.sendbuf, a.send.count, a.send.type, a.recvbuf,
                                                             a.recv.count, a.recv.type, a.comm, i, r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                               MPI_Info info, MPI_Request* request) {
    return enter_persistent(
        alltoallv_args(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm), info,
        request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
            return PMPI_Neighbor_alltoallv_init(a.sendbuf, a.send.counts, a.send.displs, a.send.type, a.recvbuf,
                                                a.recv.counts, a.recv.displs, a.recv.type, a.comm, i, r);
        });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                               MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return enter_persistent(
        alltoallw_args(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm), info,
        request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
            return PMPI_Neighbor_alltoallw_init(a.sendbuf, a.send.counts, a.send.byte_displs, a.send.types,
                                                a.recvbuf, a.recv.counts, a.recv.byte_displs, a.recv.types, a.comm,
                                                i, r);
        });
}

#endif
