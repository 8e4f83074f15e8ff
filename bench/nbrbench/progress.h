// Lines on standard error during a long sweep: where it is and how long it has left. Only rank 0
// writes.
#pragma once

#include <chrono>
#include <cstddef>

namespace nbrcomb::bench {

class Progress {
public:
    Progress(int runs, std::size_t experiments_per_run, bool writer);

    // Experiment `done` (counted from 1) of run `run` (from 0) has finished.
    void finished(int run, std::size_t done);

    // The closing line, with the total time.
    void finish() const;

private:
    double seconds_since_start() const;

    int runs_;
    std::size_t per_run_;
    bool writer_;
    std::chrono::steady_clock::time_point start_;
    double last_line_ = 0.0;
};

}  // namespace nbrcomb::bench
