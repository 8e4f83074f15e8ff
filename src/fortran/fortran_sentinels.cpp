#include "src/fortran/fortran_sentinels.h"

#include <mpi.h>

#include <dlfcn.h>

namespace nbrcomb::detail::fortran {

namespace {

const void* find(const char* variable) { return dlsym(RTLD_DEFAULT, variable); }

}  // namespace

const Sentinels& sentinels() {
#if defined(OPEN_MPI)
    // Open MPI's common blocks (mpif-sentinels.h), which mpif.h, the mpi module and the mpi_f08
    // module all use. A program that includes mpif.h defines them itself; the dynamic linker
    // binds every reference, the MPI's and ours, to the first definition.
    static const Sentinels found{
        .bottom = find("mpi_fortran_bottom_"),
        .in_place = find("mpi_fortran_in_place_"),
        .unweighted = find("mpi_fortran_unweighted_"),
        .weights_empty = find("mpi_fortran_weights_empty_"),
        .status_ignore = find("mpi_fortran_status_ignore_"),
        .statuses_ignore = find("mpi_fortran_statuses_ignore_"),
    };
#else
    // MPICH's mpi_f08 module, the only one whose bindings the library replaces there
    // (fortran_bindings.cpp): variables of libmpichfort, two of them the module's own (named
    // as gfortran names module variables).
    static const Sentinels found{
        .bottom = find("MPIR_F08_MPI_BOTTOM"),
        .in_place = find("MPIR_F08_MPI_IN_PLACE"),
        .unweighted = find("__mpi_f08_link_constants_MOD_mpi_unweighted"),
        .weights_empty = find("__mpi_f08_link_constants_MOD_mpi_weights_empty"),
        .status_ignore = find("MPIR_F08_MPI_STATUS_IGNORE_OBJ"),
        .statuses_ignore = find("MPIR_F08_MPI_STATUSES_IGNORE_OBJ"),
    };
#endif
    return found;
}

}  // namespace nbrcomb::detail::fortran
