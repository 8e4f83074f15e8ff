// Where every neighborhood collective shim, of the int forms and the large-count forms, enters
// the library's core; no exception gets past it.
#pragma once

#include "src/call/neighbor_collective.h"

namespace nbrcomb::detail {

int enter_blocking(const CallArgs& args, NativeCall native);
int enter_nonblocking(const CallArgs& args, MPI_Request* request, NativeStart native);
#if MPI_VERSION >= 4
int enter_persistent(const CallArgs& args, MPI_Info info, MPI_Request* request, NativeInit native);
#endif

}  // namespace nbrcomb::detail
