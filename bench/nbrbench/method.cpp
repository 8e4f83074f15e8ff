#include "nbrbench/method.h"

#include "nbrbench/dissemination_barrier.h"
#include "nbrbench/progress.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace nbrcomb::bench {

void run_in_random_order(int settle, int runs, std::size_t experiments, std::uint64_t seed, MPI_Comm control,
                         const std::function<void(std::size_t, bool)>& experiment) {
    int rank = 0;
    MPI_Comm_rank(control, &rank);
    std::vector<std::size_t> order(experiments);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 random(seed);
    Progress progress(settle + runs, experiments, rank == 0);
    for (int run = 0; run < settle + runs; ++run) {
        std::ranges::shuffle(order, random);
        for (std::size_t done = 0; done < order.size(); ++done) {
            experiment(order[done], run >= settle);
            progress.finished(run, done + 1);
        }
    }
    progress.finish();
}

std::vector<double> time_repetitions(int warmup, int repetitions, MPI_Comm control, const std::function<void()>& call,
                                     const std::function<void()>& after) {
    // Warm-up calls start after a barrier too: auto mode's trial runs in them, and so races the
    // candidates on calls like the ones then timed.
    for (int i = 0; i < warmup; ++i) {
        dissemination_barrier(control);
        call();
        if (after) after();
    }
    std::vector<double> seconds(static_cast<std::size_t>(repetitions));
    for (double& time : seconds) {
        dissemination_barrier(control);
        const double start = MPI_Wtime();
        call();
        time = MPI_Wtime() - start;
        if (after) after();
    }
    return seconds;
}

}  // namespace nbrcomb::bench
