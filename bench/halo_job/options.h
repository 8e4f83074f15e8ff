// Command line of the example job.
#pragma once

#include <string>

namespace halo_job {

enum class Kernel { spmv, stencil };

struct Options {
    Kernel kernel = Kernel::spmv;
    std::string matrix = "can_1054";
    int iterations = 200;  // timed calls of each side, split into runs
    int runs = 10;
    int warmup = 20;       // untimed calls of each side before the first run
    int block = 16;
    bool reorder = false;  // reorder=1 to the topology constructor; each process takes its new rank's part
    bool help = false;
};

// Throws std::invalid_argument on an unknown flag or a bad value.
Options parse_options(int argc, char** argv);

std::string usage(const char* program);

} // namespace halo_job
