// Paper 004's method of measurement (Alg. 1, §3.2) for every kind of experiment nbrbench runs:
// in every run all experiments in a new random order, so that the machine's noise falls on all of
// them alike; in each, untimed calls, then timed repetitions, every call after a dissemination
// barrier.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace nbrcomb::bench {

// Runs experiment(i, timed) for every i below experiments, in a new random order in each of settle
// + runs runs, the same order on every rank (drawn from seed); timed is false in the first settle
// runs, which let lazy initialization (auto mode's Phase 1 and trials) end before anything counts
// (paper 004, §2: counterexamples due to lazy initialization are no violations). Rank 0 of control
// reports progress on standard error. Collective over control when experiment is.
void run_in_random_order(int settle, int runs, std::size_t experiments, std::uint64_t seed, MPI_Comm control,
                         const std::function<void(std::size_t, bool)>& experiment);

// warmup untimed calls, then this rank's times of repetitions calls, each call after a
// dissemination barrier over control; after runs, untimed, after every call (a timed
// constructor's communicator freed). Collective over control.
std::vector<double> time_repetitions(int warmup, int repetitions, MPI_Comm control, const std::function<void()>& call,
                                     const std::function<void()>& after = {});

}  // namespace nbrcomb::bench
