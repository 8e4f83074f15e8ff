// A shim of the library is declared by mpi.h with C linkage, so one whose signature differs from
// the MPI's is a conflicting declaration of a C function and the build fails. Compiled twice by
// the tests: with the MPI's signature it builds, with the receive count as a long it must not.
#include "src/shims/export.h"

#include <mpi.h>

#ifdef NBRCOMB_SHIM_AS_THE_MPI_DECLARES
using ReceiveCount = int;
#else
using ReceiveCount = long;
#endif

NBRCOMB_EXPORT int MPI_Neighbor_allgather(const void*, int, MPI_Datatype, void*, ReceiveCount, MPI_Datatype, MPI_Comm) {
    return MPI_SUCCESS;
}
