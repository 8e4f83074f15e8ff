// What the MPI's own neighborhood collectives are known to get wrong. Where a case's calls may
// reach them (the program without the library, mode off, and for the nonblocking crash also auto
// mode, which leaves calls to the MPI), the case stays clear of those inputs, so that every failure it reports is the library's; the library itself runs such calls
// on its own schedules in every other mode (schedule/mpi_features.h).
#pragma once

#include <mpi.h>

namespace nbrcomb::fuzz {

struct NativeQuirks {
    bool wrong_on_repeated_edges = false;
    bool wrong_on_alltoallw = false;
    // MPI_Testall returns MPI_ERR_IN_STATUS for a completed persistent neighborhood collective,
    // every status saying MPI_SUCCESS, and after MPI_Waitany the next MPI_Start fails with
    // MPI_ERR_PENDING (MPI_Test and MPI_Wait on one request at a time are right).
    bool completing_several_fails_on_persistent = false;
    // A nonblocking neighborhood collective crashes when its communicator is freed while it is in
    // flight (the progress engine reads the freed topology).
    bool crashes_when_comm_freed_in_flight = false;
    // A persistent neighborhood collective reads its datatypes at every start, though the program
    // may free them once it is made (libnbc's persistent schedules hold no reference to them).
    bool crashes_when_persistent_types_freed = false;
};

#ifdef MPICH_VERSION
// MPICH 4.0: repeated edges get misplaced blocks, alltoallw wrong blocks and crashes
// (tests/mpi/differential.cpp).
inline constexpr NativeQuirks native_quirks{
    .wrong_on_repeated_edges = true, .wrong_on_alltoallw = true, .completing_several_fails_on_persistent = true};
#else
// Open MPI 4.1 and 5.0: their libnbc neighborhood collectives read the topology of a freed
// communicator (mca_topo_base_neighbor_count, from ompi_coll_libnbc_progress); 5.0's persistent
// ones crash in MPI_Start once their datatypes are freed (opal_convertor_prepare_for_send).
inline constexpr NativeQuirks native_quirks{.crashes_when_comm_freed_in_flight = true,
                                            .crashes_when_persistent_types_freed = OMPI_MAJOR_VERSION >= 5};
#endif

}  // namespace nbrcomb::fuzz
