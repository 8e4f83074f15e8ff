// Argument checks of the neighborhood collectives on a communicator the library manages.
#pragma once

#include "src/call_args.h"

namespace nbrcomb::detail {

// MPI_SUCCESS, or the error class the call must fail with. The checks and their order follow
// Open MPI's parameter checking, so an erroneous call fails as it does natively; unlike Open
// MPI, NULL count and displacement arrays are accepted for a side of degree 0 (the standard
// allows them).
int validate_call(const CallArgs& args, int indegree, int outdegree);

}  // namespace nbrcomb::detail
