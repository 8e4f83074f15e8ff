// Assertions every rank of a test agrees on, so that a failure on one rank never leaves the
// others waiting in a collective.
#pragma once

#include <mpi.h>

#include <source_location>
#include <string_view>

namespace nbrcomb::test {

// Collective over comm: whether ok holds on every rank.
bool on_all_ranks(bool ok, MPI_Comm comm = MPI_COMM_WORLD);

// Collective over comm: whether ok holds on every rank. A rank where it does not records a
// failure with what at the caller's line. All ranks return the same value, so a test may stop
// on false and all ranks still meet in the same collectives.
bool expect_all_ranks(bool ok, std::string_view what, MPI_Comm comm = MPI_COMM_WORLD,
                      std::source_location where = std::source_location::current());

// The error class of an MPI return code.
int error_class(int code);

int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);

}  // namespace nbrcomb::test
