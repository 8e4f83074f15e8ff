// The nbrcomb_* functions of include/nbrcomb/nbrcomb.h.
#include "nbrcomb/nbrcomb.h"
#include "src/export.h"
#include "src/statistics.h"
#include "src/topo_state.h"

using namespace nbrcomb::detail;

#define NBRCOMB_STRINGIFY_(x) #x
#define NBRCOMB_STRINGIFY(x) NBRCOMB_STRINGIFY_(x)

NBRCOMB_EXPORT const char* nbrcomb_version(void) {
    return NBRCOMB_STRINGIFY(NBRCOMB_VERSION_MAJOR) "." NBRCOMB_STRINGIFY(NBRCOMB_VERSION_MINOR) "." NBRCOMB_STRINGIFY(
        NBRCOMB_VERSION_PATCH);
}

NBRCOMB_EXPORT int nbrcomb_comm_stats(MPI_Comm comm, nbrcomb_stats* stats) {
    const TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return MPI_ERR_COMM;
    if (stats == nullptr) return MPI_ERR_ARG;
    *stats = state->stats.snapshot();
    return MPI_SUCCESS;
}

NBRCOMB_EXPORT int nbrcomb_comm_reset_stats(MPI_Comm comm) {
    TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return MPI_ERR_COMM;
    const auto counters = state->stats.lock();
    *counters = after_reset(*counters);
    return MPI_SUCCESS;
}
