// The MPI_* entry points the library intercepts. Each is a thin shim: it passes its arguments
// to one C++ core and lets no exception out; everything else of MPI is untouched.
#include "schedule/mpi_features.h"
#include "src/base/best_effort.h"
#include "src/call/library_entry.h"
#include "src/call/neighbor_collective.h"
#include "src/call/shim_arguments.h"
#include "src/communicator/progress_engine.h"
#include "src/progress/mpi_progress_hook.h"
#include "src/progress/progressing_wait.h"
#include "src/settings/environment.h"
#include "src/setup/adopt_topology.h"
#include "src/setup/graph_constructors.h"
#include "src/setup/rules_sharing.h"
#include "src/shims/export.h"
#include "src/shims/report.h"


using namespace nbrcomb::detail;

namespace {

// The settings, and what the rules file's keys need to know of the machine.
int read_settings() {
    learn_machine(environment_config());
    return MPI_SUCCESS;
}

}  // namespace

NBRCOMB_EXPORT int MPI_Init(int* argc, char*** argv) {
    const int err = PMPI_Init(argc, argv);
    if (err == MPI_SUCCESS) best_effort("reading NBRCOMB_* settings", read_settings);
    return err;
}

NBRCOMB_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    const int err = PMPI_Init_thread(argc, argv, required, provided);
    if (err == MPI_SUCCESS) best_effort("reading NBRCOMB_* settings", read_settings);
    return err;
}

NBRCOMB_EXPORT int MPI_Finalize(void) {
    drain_operations();  // those whose requests the application freed before they ended
    unhook_from_mpi_progress();
    best_effort("writing the rules file", [] { return write_rules_sharing(environment_config()); });
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

// A duplicate of a managed communicator shares its plans; where some process has no edge, it
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

// The neighborhood collectives, every form of each line of neighbor_collectives.def. The core
// takes the call's arguments as CallArgs; the MPI's function with the caller's own arguments
// goes with them as a lambda, which the core calls where it leaves the call to the MPI: on the
// native route, inlined here (call/library_entry.h).

#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
namespace {

template <class CallMpi>
int persistent(CallArgs args, const CallMpi& call_mpi, MPI_Info info, MPI_Request* request) {
    args.native_args = &call_mpi;
    return enter_persistent(args, info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
        return (*static_cast<const CallMpi*>(a.native_args))(i, r);
    });
}

}  // namespace
#endif

#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
#define NBRCOMB_PERSISTENT_SHIM(name, parameters, names)                                                          \
    NBRCOMB_EXPORT int MPI_Neighbor_##name##_init(NBRCOMB_UNPAREN parameters, MPI_Info info, MPI_Request* request) { \
        return persistent(name##_args names, [=](MPI_Info i, MPI_Request* r) {                                    \
            return PMPI_Neighbor_##name##_init(NBRCOMB_UNPAREN names, i, r);                                      \
        }, info, request);                                                                                        \
    }
#else
#define NBRCOMB_PERSISTENT_SHIM(name, parameters, names)
#endif

#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, NAME, parameters, large_count_parameters, names, kinds)                  \
    NBRCOMB_EXPORT int MPI_Neighbor_##name(NBRCOMB_UNPAREN parameters) {                                          \
        return enter_blocking([=] { return name##_args names; }, [=] { return PMPI_Neighbor_##name names; });     \
    }                                                                                                             \
    NBRCOMB_EXPORT int MPI_Ineighbor_##name(NBRCOMB_UNPAREN parameters, MPI_Request* request) {                   \
        return enter_nonblocking([=] { return name##_args names; }, request,                                      \
                                 [=](MPI_Request* r) { return PMPI_Ineighbor_##name(NBRCOMB_UNPAREN names, r); }); \
    }                                                                                                             \
    NBRCOMB_PERSISTENT_SHIM(name, parameters, names)
#include "src/base/neighbor_collectives.def"
