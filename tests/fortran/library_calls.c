/* For the Fortran test: how many neighborhood collectives the library ran on a communicator, and
 * how many it saw in all (those it left to the MPI too), found at run time so that the same
 * program also runs without the library. */
#include "nbrcomb/nbrcomb.h"

#include <dlfcn.h>
#include <stddef.h>

typedef int comm_stats_function(MPI_Comm, nbrcomb_stats *, size_t);

long long nbrcomb_test_library_calls(MPI_Fint comm) {
    comm_stats_function *comm_stats = (comm_stats_function *)dlsym(RTLD_DEFAULT, "nbrcomb_comm_stats_sized");
    nbrcomb_stats stats;
    if (comm_stats == NULL || comm_stats(MPI_Comm_f2c(comm), &stats, sizeof stats) != MPI_SUCCESS) return -1;
    return (long long)stats.calls;
}

long long nbrcomb_test_counted_calls(MPI_Fint comm) {
    comm_stats_function *comm_stats = (comm_stats_function *)dlsym(RTLD_DEFAULT, "nbrcomb_comm_stats_sized");
    nbrcomb_stats stats;
    if (comm_stats == NULL || comm_stats(MPI_Comm_f2c(comm), &stats, sizeof stats) != MPI_SUCCESS) return -1;
    return (long long)(stats.calls + stats.native_calls);
}
