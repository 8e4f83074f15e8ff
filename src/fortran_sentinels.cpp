#include "src/fortran_sentinels.h"

#include <dlfcn.h>

namespace nbrcomb::detail::fortran {

namespace {

// Open MPI's common blocks (mpif-sentinels.h), one per sentinel, which mpif.h, the mpi module
// and the mpi_f08 module all use. A program that includes mpif.h defines them itself; the
// dynamic linker binds every reference, the MPI's and ours, to the first definition.
const void* find(const char* common_block) { return dlsym(RTLD_DEFAULT, common_block); }

}  // namespace

const Sentinels& sentinels() {
    static const Sentinels found{
        .bottom = find("mpi_fortran_bottom_"),
        .in_place = find("mpi_fortran_in_place_"),
        .unweighted = find("mpi_fortran_unweighted_"),
        .weights_empty = find("mpi_fortran_weights_empty_"),
        .status_ignore = find("mpi_fortran_status_ignore_"),
        .statuses_ignore = find("mpi_fortran_statuses_ignore_"),
    };
    return found;
}

}  // namespace nbrcomb::detail::fortran
