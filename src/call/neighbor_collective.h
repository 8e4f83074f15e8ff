// Runs one neighborhood collective through the library, or natively: blocking, nonblocking
// (MPI_Ineighbor_*) or persistent (MPI_Neighbor_*_init).
#pragma once

#include "src/route/call_args.h"

namespace nbrcomb::detail {

// The native PMPI function with the original arguments, in each form.
using NativeCall = int (*)(const CallArgs& args);
using NativeStart = int (*)(const CallArgs& args, MPI_Request* request);
using NativeInit = int (*)(const CallArgs& args, MPI_Info info, MPI_Request* request);

// The library's path for a communicator it manages: validate (errors through the
// communicator's error handler), take the schedule from the cache or build it, run it.
// Communicators it does not manage, and any internal failure before communication starts, go
// to native.
int run_neighbor_collective(const CallArgs& args, NativeCall native);

// The same, returning at once with *request to complete it; the caller has advanced the
// operations in flight.
int start_neighbor_collective(const CallArgs& args, MPI_Request* request, NativeStart native);

// The same, building the schedule once into an inactive persistent *request for MPI_Start.
int init_neighbor_collective(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native);

}  // namespace nbrcomb::detail
