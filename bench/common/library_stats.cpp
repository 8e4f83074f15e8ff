#include "common/library_stats.h"

#include <dlfcn.h>

#include <algorithm>

namespace nbrcomb::common {
namespace {

template <class Function>
Function* lookup(const char* name) {
    return reinterpret_cast<Function*>(dlsym(RTLD_DEFAULT, name));
}

} // namespace

std::optional<LibraryStats> library_stats(MPI_Comm comm) {
    const auto version = lookup<decltype(nbrcomb_version)>("nbrcomb_version");
    const auto comm_stats = lookup<decltype(nbrcomb_comm_stats_sized)>("nbrcomb_comm_stats_sized");
    if (version == nullptr || comm_stats == nullptr) return std::nullopt;
    LibraryStats result{version(), std::nullopt};
    nbrcomb_stats stats{};
    if (comm_stats(comm, &stats, sizeof stats) == MPI_SUCCESS) result.stats = stats;
    return result;
}

const char* mode_name(nbrcomb_mode mode) {
    const auto name = lookup<decltype(nbrcomb_mode_name)>("nbrcomb_mode_name");
    const char* named = name != nullptr ? name(mode) : nullptr;
    return named != nullptr ? named : "unknown";
}

bool library_has_mode(const std::string& name) {
    const auto mode_of = lookup<decltype(nbrcomb_mode_from_name)>("nbrcomb_mode_from_name");
    nbrcomb_mode mode = NBRCOMB_MODE_OFF;
    return mode_of != nullptr && mode_of(name.c_str(), &mode) == MPI_SUCCESS;
}

std::optional<ReorderingSummary> reordering_summary(const std::optional<nbrcomb_stats>& stats, MPI_Comm comm) {
    if (!stats || !stats->reorder_tried) return std::nullopt;
    const double calls = std::max(1.0, static_cast<double>(stats->calls));
    double sums[5] = {static_cast<double>(stats->edge_cut_before), static_cast<double>(stats->edge_cut_after),
                      static_cast<double>(stats->internode_bytes_before) / calls,
                      static_cast<double>(stats->internode_bytes_after) / calls, stats->reordered ? 1.0 : 0.0};
    MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_DOUBLE, MPI_SUM, comm);
    int processes = 0;
    MPI_Comm_size(comm, &processes);
    ReorderingSummary summary{.reordered = sums[4] == processes,
                              .edge_cut_before = sums[0],
                              .edge_cut_after = sums[1],
                              .internode_bytes_before = sums[2],
                              .internode_bytes_after = sums[3]};
    MPI_Allreduce(&stats->reorder_seconds, &summary.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    return summary;
}

} // namespace nbrcomb::common
