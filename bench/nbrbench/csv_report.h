// The sweep's results as CSV on standard output: a header line, then one row per experiment.
#pragma once

#include "nbrbench/sweep.h"

#include <string>

namespace nbrcomb::bench {

// Rank 0 only.
void print_csv(const Options& options, const std::vector<TopologyCommunicators>& communicators,
               const std::vector<Experiment>& experiments, const std::vector<ExperimentRecord>& records,
               int processes);

// What the columns mean, for --help.
std::string csv_columns_help();

}  // namespace nbrcomb::bench
