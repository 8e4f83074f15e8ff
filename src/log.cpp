#include "src/log.h"

#include <cstdarg>
#include <cstdio>

namespace nbrcomb::detail {

namespace {

int log_rank = -1;
int log_level = static_cast<int>(LogLevel::warning);

void write_line(const char* format, va_list args) {
    char line[1024];
    std::vsnprintf(line, sizeof line, format, args);
    std::fprintf(stderr, "nbrcomb[%d]: %s\n", log_rank, line);
}

}  // namespace

void set_log_context(int world_rank, int level) {
    log_rank = world_rank;
    log_level = level;
}

bool log_enabled(LogLevel level) { return static_cast<int>(level) <= log_level; }

void log(LogLevel level, const char* format, ...) {
    if (!log_enabled(level)) return;
    va_list args;
    va_start(args, format);
    write_line(format, args);
    va_end(args);
}

void log_rank0(LogLevel level, const char* format, ...) {
    if (!log_enabled(level) || log_rank != 0) return;
    va_list args;
    va_start(args, format);
    write_line(format, args);
    va_end(args);
}

}  // namespace nbrcomb::detail
