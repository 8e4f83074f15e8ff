// What the command lines of nbrsim and nbrmap share: usage errors, numbers, topologies, and the
// wall time of a step.
#pragma once

#include "topology/spec.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace nbrcomb::bench {

class CommandLine {
public:
    CommandLine(const char* tool, const char* usage) : tool_(tool), usage_(usage) {}

    // Prints why and the usage, and exits with status 2.
    [[noreturn]] void fail(const std::string& why) const {
        std::fprintf(stderr, "%s: %s\n%s", tool_, why.c_str(), usage_);
        std::exit(2);
    }

    // Prints the usage and exits with status 0.
    [[noreturn]] void help() const {
        std::fputs(usage_, stdout);
        std::exit(0);
    }

    int positive(const std::string& flag, const char* text) const {
        char* end = nullptr;
        const long value = std::strtol(text, &end, 10);
        if (*text == '\0' || *end != '\0' || value < 1 || value > (1L << 30))
            fail(flag + " needs a positive integer, not '" + text + "'");
        return static_cast<int>(value);
    }

    topology::TopologySpec topology(const char* text) const {
        try {
            return topology::parse_topology(text);
        } catch (const std::invalid_argument& error) {
            fail(error.what());
        }
    }

private:
    const char* tool_;
    const char* usage_;
};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace nbrcomb::bench
