// The nbrcomb_* functions of include/nbrcomb/nbrcomb.h.
#include "nbrcomb/nbrcomb.h"
#include "schedule/algorithm_table.h"
#include "src/base/statistics.h"
#include "src/communicator/topo_state.h"
#include "src/settings/config.h"
#include "src/shims/export.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// Whether the first size bytes of a nbrcomb_stats end between two fields (or past the last).
bool whole_fields(std::size_t size) {
    if (size >= sizeof(nbrcomb_stats)) return true;
    const std::vector<std::size_t> ends = field_ends();
    return std::ranges::find(ends, size) != ends.end();
}

}  // namespace

#define NBRCOMB_STRINGIFY_(x) #x
#define NBRCOMB_STRINGIFY(x) NBRCOMB_STRINGIFY_(x)

NBRCOMB_EXPORT const char* nbrcomb_version(void) {
    return NBRCOMB_STRINGIFY(NBRCOMB_VERSION_MAJOR) "." NBRCOMB_STRINGIFY(NBRCOMB_VERSION_MINOR) "." NBRCOMB_STRINGIFY(
        NBRCOMB_VERSION_PATCH);
}

NBRCOMB_EXPORT const char* nbrcomb_mode_name(nbrcomb_mode mode) {
    const bool known = mode == NBRCOMB_MODE_OFF || mode == NBRCOMB_MODE_AUTO || find_algorithm(mode) != nullptr;
    return known ? mode_name(mode) : nullptr;
}

NBRCOMB_EXPORT int nbrcomb_mode_from_name(const char* name, nbrcomb_mode* mode) {
    if (name == nullptr || mode == nullptr) return MPI_ERR_ARG;
    const std::optional<nbrcomb_mode> found = mode_named(name);
    if (!found) return MPI_ERR_ARG;
    *mode = *found;
    return MPI_SUCCESS;
}

NBRCOMB_EXPORT int nbrcomb_comm_stats_sized(MPI_Comm comm, nbrcomb_stats* stats, size_t size) {
    const TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return MPI_ERR_COMM;
    if (stats == nullptr || !whole_fields(size)) return MPI_ERR_ARG;
    const nbrcomb_stats snapshot = state->statistics();
    const std::size_t known = std::min(size, sizeof snapshot);
    std::memcpy(stats, &snapshot, known);
    std::memset(reinterpret_cast<unsigned char*>(stats) + known, 0, size - known);
    return MPI_SUCCESS;
}

// For programs built with version 0.2's header, whose struct ended at auto_native. The
// parentheses keep the header's macro of the same name from expanding.
NBRCOMB_EXPORT int(nbrcomb_comm_stats)(MPI_Comm comm, nbrcomb_stats* stats) {
    return nbrcomb_comm_stats_sized(comm, stats, offsetof(nbrcomb_stats, auto_native) + sizeof stats->auto_native);
}

NBRCOMB_EXPORT int nbrcomb_comm_reset_stats(MPI_Comm comm) {
    TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return MPI_ERR_COMM;
    state->reset_statistics();
    return MPI_SUCCESS;
}
