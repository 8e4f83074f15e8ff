// Diagnostics on standard error, prefixed "nbrcomb[rank]:".
#pragma once

namespace nbrcomb::detail {

enum class LogLevel { warning = 1, info = 2, debug = 3 };

// Set once the process knows its rank and the NBRCOMB_LOG level.
void set_log_context(int world_rank, int level);

bool log_enabled(LogLevel level);

// A line from this process, when level is enabled.
void log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

// A line from rank 0 of MPI_COMM_WORLD only, for things every process would say alike.
void log_rank0(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace nbrcomb::detail
