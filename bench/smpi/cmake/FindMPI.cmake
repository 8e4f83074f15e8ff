# FindMPI replacement that resolves MPI to SimGrid's SMPI (used through bench/smpi/smpi-cache.cmake,
# which puts this directory first in CMAKE_MODULE_PATH).  Provides what the project uses from the
# standard module: MPI_FOUND, MPI_<lang>_FOUND, MPI_<lang>_INCLUDE_DIRS, MPI_<lang>_LIBRARIES,
# MPI_VERSION and the imported targets MPI::MPI_C and MPI::MPI_CXX.
find_path(SMPI_INCLUDE_DIR smpi/mpi.h PATHS /usr/include /usr/local/include)
find_library(SMPI_LIBRARY simgrid)
set(MPI_VERSION 3.1)
foreach(lang C CXX)
  set(MPI_${lang}_INCLUDE_DIRS ${SMPI_INCLUDE_DIR}/smpi)
  set(MPI_${lang}_LIBRARIES ${SMPI_LIBRARY})
  set(MPI_${lang}_VERSION ${MPI_VERSION})
  if(SMPI_INCLUDE_DIR AND SMPI_LIBRARY)
    set(MPI_${lang}_FOUND TRUE)
    if(NOT TARGET MPI::MPI_${lang})
      add_library(MPI::MPI_${lang} INTERFACE IMPORTED)
      set_target_properties(MPI::MPI_${lang} PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${MPI_${lang}_INCLUDE_DIRS}"
        INTERFACE_LINK_LIBRARIES "${SMPI_LIBRARY}")
    endif()
  endif()
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MPI REQUIRED_VARS SMPI_INCLUDE_DIR SMPI_LIBRARY VERSION_VAR MPI_VERSION
                                  HANDLE_COMPONENTS)
