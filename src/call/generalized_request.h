// The MPI_Request of a nonblocking library operation: a generalized request, so that the MPI
// itself completes, tests and frees it in any array with other requests.
#pragma once

#include <mpi.h>

#include <functional>

namespace nbrcomb::detail {

// Starts a generalized request in *request and returns what completes it: called once with
// the operation's error, it makes the request complete with that error and the status of a
// collective (no source, tag or count).
std::function<void(int err)> start_generalized_request(MPI_Request* request);

}  // namespace nbrcomb::detail
