// Argument checks of the neighborhood collectives on a communicator the library manages.
#pragma once

#include "src/call_args.h"

namespace nbrcomb::detail {

// MPI_SUCCESS, or the error class the call must fail with. The checks and their order follow
// Open MPI's parameter checking, so an erroneous call fails as it does natively; unlike Open
// MPI, NULL count and displacement arrays are accepted for a side of degree 0 (the standard
// allows them). Buffers and datatypes are checked as each send and receive of the call would
// check them, before any is posted: a NULL buffer with data to move fails with MPI_ERR_BUFFER
// (where Open MPI's own collectives crash), an uncommitted datatype with MPI_ERR_TYPE, also in
// the nonblocking and persistent forms, at the call.
int validate_call(const CallArgs& args, int indegree, int outdegree);

}  // namespace nbrcomb::detail
