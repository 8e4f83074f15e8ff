# nbrcomb_add_mpi_test(NAME <name> SOURCES <file>... RANKS <p>... [ENV <VAR=value>...])
#
# Builds the test twice from the same objects: <name> links libnbrcomb before MPI (relink
# mode), <name>_preload links MPI only and its ranks preload the library (preload mode).
# Registers the CTest tests <name>.<p>ranks.relink and <name>.<p>ranks.preload for every rank
# count p, labelled mpi, with ENV added to the environment of mpiexec and the ranks.
# Rank counts above NBRCOMB_MPI_TEST_MAX_RANKS are left out, and preload runs above
# NBRCOMB_MPI_TEST_MAX_PRELOAD_RANKS (0: no limit, for both).
#
# With NBRCOMB_SANITIZE the preload variant is left out: the ASan runtime has to come first
# in the link order, which preloading the library in front of it breaks.

# MPICH busy-polls when oversubscribed, so that every call costs a scheduler slice.
if(NBRCOMB_MPI_IS_OPEN_MPI)
  set(default_timeout 120)
else()
  set(default_timeout 300)
endif()
set(NBRCOMB_MPI_TEST_TIMEOUT ${default_timeout} CACHE STRING "Seconds one MPI test run may take")
unset(default_timeout)
set(NBRCOMB_MPI_TEST_MAX_RANKS 0 CACHE STRING
  "Leave out MPI test runs with more ranks than this (0: run every rank count)")
set(NBRCOMB_MPI_TEST_MAX_PRELOAD_RANKS 0 CACHE STRING
  "Leave out preload-mode MPI test runs with more ranks than this (0: as many as relink mode)")
foreach(variable IN ITEMS NBRCOMB_MPI_TEST_MAX_RANKS NBRCOMB_MPI_TEST_MAX_PRELOAD_RANKS)
  if(NOT ${variable} MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${variable} must be a number of ranks (0: no limit), not '${${variable}}'")
  endif()
endforeach()

function(nbrcomb_add_mpi_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME" "SOURCES;RANKS;ENV")
  if(NOT arg_NAME OR NOT arg_SOURCES OR NOT arg_RANKS OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "usage: nbrcomb_add_mpi_test(NAME <name> SOURCES <file>... RANKS <p>... [ENV <VAR=value>...])")
  endif()

  add_library(${arg_NAME}_objects OBJECT ${arg_SOURCES})
  target_link_libraries(${arg_NAME}_objects PUBLIC nbrcomb_mpi_testing)

  add_executable(${arg_NAME})
  # As an application links it: after the code that calls MPI (the linker keeps a library only
  # if something before it needs it) and before libmpi, so its MPI_* definitions win.
  target_link_libraries(${arg_NAME} PRIVATE ${arg_NAME}_objects nbrcomb_mpi_testing nbrcomb)
  nbrcomb_add_mpi_runs(NAME ${arg_NAME} MODE relink TARGET ${arg_NAME} RANKS ${arg_RANKS} ENV ${arg_ENV})

  if(NOT NBRCOMB_SANITIZE)
    add_executable(${arg_NAME}_preload)
    target_link_libraries(${arg_NAME}_preload PRIVATE ${arg_NAME}_objects)
    add_dependencies(${arg_NAME}_preload nbrcomb)
    nbrcomb_add_mpi_runs(NAME ${arg_NAME} MODE preload TARGET ${arg_NAME}_preload RANKS ${arg_RANKS} ENV ${arg_ENV})
  endif()
endfunction()

# nbrcomb_add_mpi_runs(NAME <name> MODE <relink|preload|native> TARGET <program> RANKS <p>...
#                      [ENV <VAR=value>...] [ARGS <argument>...])
#
# Registers <name>.<p>ranks.<mode>: TARGET with ARGS under mpiexec at p ranks, labelled mpi and
# MODE. In preload mode the ranks preload libnbrcomb; relink and native programs run as they are.
# Rank counts are left out as for nbrcomb_add_mpi_test.
function(nbrcomb_add_mpi_runs)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;MODE;TARGET" "RANKS;ENV;ARGS")
  if(NOT arg_NAME OR NOT arg_MODE MATCHES "^(relink|preload|native)$" OR NOT arg_TARGET OR NOT arg_RANKS OR
     arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: nbrcomb_add_mpi_runs(NAME <name> MODE <relink|preload|native> TARGET <program> "
                        "RANKS <p>... [ENV <VAR=value>...] [ARGS <argument>...])")
  endif()

  # Open MPI refuses root and more ranks than cores without these; ENV goes to mpiexec, which
  # hands its environment on to the ranks.
  set(environment OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ${arg_ENV})
  if(NBRCOMB_SANITIZE)
    # Open MPI leaks at initialization.
    list(APPEND environment ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1)
  endif()
  # LD_PRELOAD reaches the ranks only, never mpiexec itself.
  set(mode_flags)
  if(NBRCOMB_MPI_IS_OPEN_MPI)
    set(oversubscribe --oversubscribe)
    if(arg_MODE STREQUAL "preload")
      set(mode_flags -x LD_PRELOAD=$<TARGET_FILE:nbrcomb>)
    endif()
  else()
    set(oversubscribe)
    if(arg_MODE STREQUAL "preload")
      set(mode_flags -genv LD_PRELOAD $<TARGET_FILE:nbrcomb>)
    endif()
  endif()

  foreach(ranks IN LISTS arg_RANKS)
    if(NBRCOMB_MPI_TEST_MAX_RANKS GREATER 0 AND ranks GREATER NBRCOMB_MPI_TEST_MAX_RANKS)
      continue()
    endif()
    if(arg_MODE STREQUAL "preload" AND NBRCOMB_MPI_TEST_MAX_PRELOAD_RANKS GREATER 0 AND
       ranks GREATER NBRCOMB_MPI_TEST_MAX_PRELOAD_RANKS)
      continue()
    endif()
    set(test ${arg_NAME}.${ranks}ranks.${arg_MODE})
    add_test(NAME ${test}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${oversubscribe} ${mode_flags}
              ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${arg_TARGET}> ${MPIEXEC_POSTFLAGS} ${arg_ARGS})
    set_tests_properties(${test} PROPERTIES
      ENVIRONMENT "${environment}"
      TIMEOUT ${NBRCOMB_MPI_TEST_TIMEOUT}
      PROCESSORS ${ranks}
      LABELS "mpi;${arg_MODE}")
  endforeach()
endfunction()
