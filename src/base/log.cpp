#include "src/base/log.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace nbrcomb::detail {

namespace {

int log_rank = -1;
int log_level = static_cast<int>(LogLevel::warning);

// The whole message, however long (a schedule's listing runs to many kilobytes), in one write.
void write_line(const char* format, va_list args) {
    va_list measure;
    va_copy(measure, args);
    const int length = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (length < 0) return;
    std::string line(static_cast<std::size_t>(length) + 1, '\0');
    std::vsnprintf(line.data(), line.size(), format, args);
    line.pop_back();
    std::fprintf(stderr, "nbrcomb[%d]: %s\n", log_rank, line.c_str());
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
