#include "library_stats.h"

#include <dlfcn.h>

namespace halo_job {
namespace {

template <class Function>
Function* lookup(const char* name) {
    return reinterpret_cast<Function*>(dlsym(RTLD_DEFAULT, name));
}

} // namespace

std::optional<LibraryStats> library_stats(MPI_Comm comm) {
    const auto version = lookup<decltype(nbrcomb_version)>("nbrcomb_version");
    const auto comm_stats = lookup<decltype(nbrcomb_comm_stats)>("nbrcomb_comm_stats");
    if (version == nullptr || comm_stats == nullptr) return std::nullopt;
    LibraryStats result{version(), std::nullopt};
    nbrcomb_stats stats{};
    if (comm_stats(comm, &stats) == MPI_SUCCESS) result.stats = stats;
    return result;
}

const char* mode_name(nbrcomb_mode mode) {
    switch (mode) {
    case NBRCOMB_MODE_OFF: return "off";
    case NBRCOMB_MODE_DIRECT: return "direct";
    case NBRCOMB_MODE_PAIRS: return "pairs";
    case NBRCOMB_MODE_GROUPS: return "groups";
    case NBRCOMB_MODE_AUTO: return "auto";
    }
    return "unknown";
}

} // namespace halo_job
