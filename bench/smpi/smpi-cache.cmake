# CMake initial cache that points FindMPI at SimGrid's SMPI instead of the system MPI:
#   cmake -S . -B build-smpi -C bench/smpi/smpi-cache.cmake
# The compilers stay the plain ones: smpicxx would force "-include smpi_helpers.h", whose macros
# (malloc, free, exit, sleep, getpid, ...) break C++ headers, and it links with -shared.  The library
# only needs SMPI's mpi.h and the PMPI_ symbols of libsimgrid.
# CMake's own FindMPI finds the system Open MPI through pkg-config whatever it is told; cmake/ holds a
# FindMPI that only knows SMPI.
set(CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/cmake CACHE PATH "FindMPI for SMPI")
# nbrbench is built as an SMPI program (bench/CMakeLists.txt); the test suite's SMPI test runs it.
set(NBRCOMB_BUILD_TESTS OFF CACHE BOOL "")
set(NBRCOMB_BUILD_BENCH ON CACHE BOOL "")
# Large simulations load one copy of the library per rank: keep it small.
set(CMAKE_BUILD_TYPE Release CACHE STRING "")
