#include "nbrbench/progress.h"

#include <algorithm>
#include <cstdio>

namespace nbrcomb::bench {

Progress::Progress(int runs, std::size_t experiments_per_run, bool writer)
    : runs_(runs), per_run_(experiments_per_run), writer_(writer), start_(std::chrono::steady_clock::now()) {}

double Progress::seconds_since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::finished(int run, std::size_t done) {
    if (!writer_) return;
    const double elapsed = seconds_since_start();
    // Every 5 s at first, then every tenth of the time so far: some tens of lines for hours.
    if (elapsed - last_line_ < std::max(5.0, elapsed / 10.0)) return;
    last_line_ = elapsed;
    const double total = static_cast<double>(per_run_) * runs_;
    const double finished = static_cast<double>(per_run_) * run + static_cast<double>(done);
    std::fprintf(stderr, "nbrbench: run %d of %d, experiment %zu of %zu; %.0f s so far, about %.0f s to go\n",
                 run + 1, runs_, done, per_run_, elapsed, elapsed / finished * (total - finished));
}

void Progress::finish() const {
    if (writer_)
        std::fprintf(stderr, "nbrbench: %d runs of %zu experiments in %.1f s\n", runs_, per_run_,
                     seconds_since_start());
}

}  // namespace nbrcomb::bench
