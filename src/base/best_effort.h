// A library step that must not fail the application's call.
#pragma once

#include "src/base/log.h"

#include <mpi.h>

#include <exception>

namespace nbrcomb::detail {

// Runs step, which returns an MPI error code; a failure or an exception is logged as a warning
// and goes no further.
template <class Step>
void best_effort(const char* what, Step step) {
    try {
        if (const int err = step(); err != MPI_SUCCESS) log(LogLevel::warning, "%s failed (MPI error %d)", what, err);
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "%s failed: %s", what, failure.what());
    }
}

}  // namespace nbrcomb::detail
