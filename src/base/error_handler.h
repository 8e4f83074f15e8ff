// Errors of the application's calls go to the communicator's error handler, as the MPI's own
// functions send them.
#pragma once

#include <mpi.h>

namespace nbrcomb::detail {

// Calls comm's error handler with err and returns err. Where the MPI cannot call a predefined
// handler (SMPI), does what that handler would: nothing for MPI_ERRORS_RETURN, abort for
// MPI_ERRORS_ARE_FATAL.
int raise_error(MPI_Comm comm, int err);

}  // namespace nbrcomb::detail
