// Runs one blocking neighborhood collective through the library, or natively.
#pragma once

#include "src/call_args.h"

namespace nbrcomb::detail {

// Calls the native PMPI function with the original arguments.
using NativeCall = int (*)(const CallArgs& args);

// The library's path for a communicator it manages: validate (errors through the
// communicator's error handler), build the schedule, run it. Communicators it does not manage,
// and any internal failure before communication starts, go to native.
int run_neighbor_collective(const CallArgs& args, NativeCall native);

}  // namespace nbrcomb::detail
