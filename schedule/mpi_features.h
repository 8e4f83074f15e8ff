// What the MPI underneath provides, as far as the library depends on it; known when the library
// is built. SimGrid's SMPI 3.32, which runs MPI programs on a simulated cluster, has no
// distributed-graph topologies, no neighborhood collectives, no matched probes and no scalable
// nonblocking collectives, and crashes when a predefined error handler is called
// (bench/smpi/README.md). MPICH 4.0 places the
// blocks of repeated distributed-graph edges wrongly and gets neighbor alltoallw wrong; there the
// library runs such calls itself rather than pass them on.
#pragma once

#include <mpi.h>

// MPI-4.0's persistent collectives, MPI_Neighbor_*_init among them, which Open MPI 5.0 has under
// their standard names while it still reports MPI 3.1; and MPI-4.0's large-count forms
// (MPI_Neighbor_*_c), which it has not.
#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define NBRCOMB_MPI_PERSISTENT_COLLECTIVES 1
#else
#define NBRCOMB_MPI_PERSISTENT_COLLECTIVES 0
#endif
#if MPI_VERSION >= 4
#define NBRCOMB_MPI_LARGE_COUNT 1
#else
#define NBRCOMB_MPI_LARGE_COUNT 0
#endif

namespace nbrcomb::detail {

#ifdef NBRCOMB_SMPI
inline constexpr bool mpi_has_topologies = false;  // distributed graphs and neighborhood collectives
inline constexpr bool mpi_has_matched_probe = false;
inline constexpr bool mpi_calls_predefined_error_handlers = false;
// Its nonblocking collectives send one message from every process to every other.
inline constexpr bool mpi_has_scalable_nonblocking_collectives = false;
#else
inline constexpr bool mpi_has_topologies = true;
inline constexpr bool mpi_has_matched_probe = true;
inline constexpr bool mpi_calls_predefined_error_handlers = true;
inline constexpr bool mpi_has_scalable_nonblocking_collectives = true;
#endif

// Between Cartesian neighbors send block s meets receive block s^1 (MPI-4.1 §8.6), which
// matters where a process is another's -1 and +1 neighbor at once (a periodic dimension of 1 or 2
// processes). Open MPI 4.1's blocking neighborhood collectives get it right; its nonblocking ones
// (libnbc) pair such blocks in list order, and MPICH 4.0 misplaces them with some types and counts.
#ifdef OPEN_MPI
inline constexpr bool mpi_right_on_neighbors_twice = true;
#else
inline constexpr bool mpi_right_on_neighbors_twice = false;
#endif
inline constexpr bool mpi_nonblocking_right_on_neighbors_twice = false;

#ifdef MPICH_VERSION
inline constexpr bool mpi_right_on_repeated_edges = false;
inline constexpr bool mpi_right_on_alltoallw = false;
#else
inline constexpr bool mpi_right_on_repeated_edges = true;
inline constexpr bool mpi_right_on_alltoallw = true;
#endif

}  // namespace nbrcomb::detail
