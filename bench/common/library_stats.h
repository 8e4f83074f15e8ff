// What nbrcomb reports about a communicator, when the library is loaded into the process.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include <nbrcomb/nbrcomb.h>

namespace nbrcomb::common {

struct LibraryStats {
    std::string version;
    std::optional<nbrcomb_stats> stats; // empty when the library leaves comm to native MPI
};

// Finds the library at run time so the same binary runs natively and under LD_PRELOAD.
// Empty when the library is not loaded.
std::optional<LibraryStats> library_stats(MPI_Comm comm);

// The loaded library's name of mode (nbrcomb_mode_name); "unknown" without the library.
const char* mode_name(nbrcomb_mode mode);

// Whether the loaded library has a mode of that name (nbrcomb_mode_from_name); false without it.
bool library_has_mode(const std::string& name);

// What the library's rank reordering did to comm, over all its processes.
struct ReorderingSummary {
    bool reordered = false;  // new ranks (the processes agree)
    // The graph's edge weight between nodes, with the old and the new ranks.
    double edge_cut_before = 0.0, edge_cut_after = 0.0;
    // Bytes between nodes per call, summed over the processes; 0 before the first call.
    double internode_bytes_before = 0.0, internode_bytes_after = 0.0;
    double seconds = 0.0;  // the slowest process's
};

// Collective over comm, given every process's stats for it; empty unless the library was asked
// to reorder comm, which holds on all of its processes or none.
std::optional<ReorderingSummary> reordering_summary(const std::optional<nbrcomb_stats>& stats, MPI_Comm comm);

} // namespace nbrcomb::common
