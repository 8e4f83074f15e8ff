// What the MPI's own neighborhood collectives are known to get wrong. Where a case's calls may
// reach them (the program without the library, or mode off), the case stays clear of those
// inputs, so that every failure it reports is the library's; the library itself runs such calls
// on its own schedules in every other mode (schedule/mpi_features.h).
#pragma once

#include <mpi.h>

namespace nbrcomb::fuzz {

struct NativeQuirks {
    bool wrong_on_repeated_edges = false;
    bool wrong_on_alltoallw = false;
    // MPI_Testall returns MPI_ERR_IN_STATUS for a completed persistent neighborhood collective,
    // every status saying MPI_SUCCESS (MPI_Test and MPI_Wait return MPI_SUCCESS).
    bool testall_fails_on_persistent = false;
};

#ifdef MPICH_VERSION
// MPICH 4.0: repeated edges get misplaced blocks, alltoallw wrong blocks and crashes
// (tests/mpi/differential.cpp).
inline constexpr NativeQuirks native_quirks{
    .wrong_on_repeated_edges = true, .wrong_on_alltoallw = true, .testall_fails_on_persistent = true};
#else
inline constexpr NativeQuirks native_quirks{};
#endif

}  // namespace nbrcomb::fuzz
