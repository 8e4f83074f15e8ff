// The MPI_* entry points the library intercepts. Each is a thin shim: it passes its arguments
// to one C++ core and lets no exception out; everything else of MPI is untouched.
#include "src/environment.h"
#include "src/export.h"
#include "src/log.h"
#include "src/neighbor_collective.h"
#include "src/report.h"
#include "src/topology_setup.h"

#include <exception>

using namespace nbrcomb::detail;

namespace {

// Runs a library step that must not fail the application's call: on an exception the
// communicator just stays native.
template <class Step>
void best_effort(const char* what, Step step) {
    try {
        if (const int err = step(); err != MPI_SUCCESS) log(LogLevel::warning, "%s failed (MPI error %d)", what, err);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "%s failed: %s", what, failure.what());
    }
}

// An exception after communication started cannot fall back to native: it becomes an
// MPI_ERR_INTERN through the communicator's error handler.
int guarded_collective(const CallArgs& args, NativeCall native) {
    try {
        return run_neighbor_collective(args, native);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "neighbor_%s: %s", collective_name(args.collective), failure.what());
        PMPI_Comm_call_errhandler(args.comm, MPI_ERR_INTERN);
        return MPI_ERR_INTERN;
    }
}

}  // namespace

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
    best_effort("the finalize report", [] { return write_report(); });
    return PMPI_Finalize();
}

NBRCOMB_EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                                  const int sourceweights[], int outdegree, const int destinations[],
                                                  const int destweights[], MPI_Info info, int reorder,
                                                  MPI_Comm* comm_dist_graph) {
    const int err = PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree,
                                                    destinations, destweights, info, reorder, comm_dist_graph);
    if (err == MPI_SUCCESS)
        best_effort("setting up a topology", [&] { return adopt_topology(*comm_dist_graph, info, reorder); });
    return err;
}

NBRCOMB_EXPORT int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                         const int destinations[], const int weights[], MPI_Info info, int reorder,
                                         MPI_Comm* comm_dist_graph) {
    const int err =
        PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph);
    if (err == MPI_SUCCESS)
        best_effort("setting up a topology", [&] { return adopt_topology(*comm_dist_graph, info, reorder); });
    return err;
}

NBRCOMB_EXPORT int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    const CallArgs args{Collective::allgather, comm, sendbuf, recvbuf,
                        {.layout = Layout::same, .count = sendcount, .type = sendtype},
                        {.layout = Layout::strided, .count = recvcount, .type = recvtype}};
    return guarded_collective(args, [](const CallArgs& a) {
        return PMPI_Neighbor_allgather(a.sendbuf, a.send.count, a.send.type, a.recvbuf, a.recv.count, a.recv.type,
                                       a.comm);
    });
}

NBRCOMB_EXPORT int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                           MPI_Comm comm) {
    const CallArgs args{Collective::allgatherv, comm, sendbuf, recvbuf,
                        {.layout = Layout::same, .count = sendcount, .type = sendtype},
                        {.layout = Layout::displaced, .type = recvtype, .counts = recvcounts, .displs = displs}};
    return guarded_collective(args, [](const CallArgs& a) {
        return PMPI_Neighbor_allgatherv(a.sendbuf, a.send.count, a.send.type, a.recvbuf, a.recv.counts, a.recv.displs,
                                        a.recv.type, a.comm);
    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    const CallArgs args{Collective::alltoall, comm, sendbuf, recvbuf,
                        {.layout = Layout::strided, .count = sendcount, .type = sendtype},
                        {.layout = Layout::strided, .count = recvcount, .type = recvtype}};
    return guarded_collective(args, [](const CallArgs& a) {
        return PMPI_Neighbor_alltoall(a.sendbuf, a.send.count, a.send.type, a.recvbuf, a.recv.count, a.recv.type,
                                      a.comm);
    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                          MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    const CallArgs args{Collective::alltoallv, comm, sendbuf, recvbuf,
                        {.layout = Layout::displaced, .type = sendtype, .counts = sendcounts, .displs = sdispls},
                        {.layout = Layout::displaced, .type = recvtype, .counts = recvcounts, .displs = rdispls}};
    return guarded_collective(args, [](const CallArgs& a) {
        return PMPI_Neighbor_alltoallv(a.sendbuf, a.send.counts, a.send.displs, a.send.type, a.recvbuf, a.recv.counts,
                                       a.recv.displs, a.recv.type, a.comm);
    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    const CallArgs args{Collective::alltoallw, comm, sendbuf, recvbuf,
                        {.layout = Layout::typed, .counts = sendcounts, .byte_displs = sdispls, .types = sendtypes},
                        {.layout = Layout::typed, .counts = recvcounts, .byte_displs = rdispls, .types = recvtypes}};
    return guarded_collective(args, [](const CallArgs& a) {
        return PMPI_Neighbor_alltoallw(a.sendbuf, a.send.counts, a.send.byte_displs, a.send.types, a.recvbuf,
                                       a.recv.counts, a.recv.byte_displs, a.recv.types, a.comm);
    });
}
