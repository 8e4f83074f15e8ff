#include "nbrbench/experiments.h"

namespace nbrcomb::bench {

std::vector<Experiment> plan_experiments(const Options& options,
                                         const std::vector<TopologyCommunicators>& communicators) {
    std::vector<Experiment> experiments;
    for (std::size_t t = 0; t < options.topologies.size(); ++t)
        for (const Collective collective : options.collectives)
            for (const Form form : options.forms)
                for (const int bytes : options.bytes) {
                    const std::size_t native = experiments.size();  // Options::variants starts with native
                    for (std::size_t v = 0; v < options.variants.size(); ++v)
                        if (communicators[t].variants[v].comm != MPI_COMM_NULL)
                            experiments.push_back({t, v, collective, form, bytes, native});
                }
    return experiments;
}

}  // namespace nbrcomb::bench
