// The experiments of a sweep: every topology, collective, form, message size and variant that
// applies, in the order of the CSV rows (native first in each group).
#pragma once

#include "nbrbench/communicators.h"

#include <cstddef>
#include <vector>

namespace nbrcomb::bench {

struct Experiment {
    std::size_t topology = 0;  // index into Options::topologies
    std::size_t variant = 0;   // index into Options::variants
    Collective collective = Collective::allgather;
    Form form = Form::blocking;
    int bytes = 0;
    std::size_t native = 0;  // the experiment that differs from this one only in running natively
};

std::vector<Experiment> plan_experiments(const Options& options,
                                         const std::vector<TopologyCommunicators>& communicators);

}  // namespace nbrcomb::bench
