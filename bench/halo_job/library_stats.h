// What nbrcomb reports about a communicator, when the library is loaded into the process.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include <nbrcomb/nbrcomb.h>

namespace halo_job {

struct LibraryStats {
    std::string version;
    std::optional<nbrcomb_stats> stats; // empty when the library leaves comm to native MPI
};

// Finds the library at run time so the same binary runs natively and under LD_PRELOAD.
// Empty when the library is not loaded.
std::optional<LibraryStats> library_stats(MPI_Comm comm);

const char* mode_name(nbrcomb_mode mode);

} // namespace halo_job
