// Argument checks of the neighborhood collectives on a communicator the library manages.
#pragma once

#include "src/route/call_args.h"

namespace nbrcomb::detail {

// MPI_SUCCESS, or the error class the call must fail with. The checks and their order follow
// Open MPI's parameter checking, so an erroneous call fails as it does natively; unlike Open
// MPI, NULL count and displacement arrays are accepted for a side of degree 0 (the standard
// allows them). Every call the library intercepts on a communicator it manages gets these,
// also where it leaves the call to the MPI (but on the native route, prepare_call.h:
// take_native_route, where both buffers are set and the MPI checks them itself, as Open MPI's
// parameter checking does these): a NULL buffer
// with data to move fails with MPI_ERR_BUFFER where Open MPI's own collectives crash. Buffers are checked as each send and
// receive of the call would check them, before any is posted. They cost a few comparisons per
// block (bench/tools/nbrchecks measures them).
int check_call(const CallArgs& args, int indegree, int outdegree);

// What a call the library runs itself must also pass: an uncommitted datatype fails with
// MPI_ERR_TYPE, also in the nonblocking and persistent forms, at the call; an alltoall whose
// blocks here differ in size, with MPI_ERR_TRUNCATE. The MPI's own collective finds these (or
// not) itself.
int check_library_call(const CallArgs& args, int indegree, int outdegree);

}  // namespace nbrcomb::detail
