// The guideline campaign's results (nbrbench --guidelines, or nbrguide over the measurements of
// several launches): one CSV row per test on standard output, and paper 004's Tables 3-4
// (violations per guideline and variant) on standard error. No MPI.
#pragma once

#include "stats/guidelines.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace nbrcomb::bench {

// What is known of one setup after the campaign: its levels and run medians.
struct MeasuredSetup {
    Measured measured;
    // The share of the calls the library ran with its own schedules, averaged over the ranks and
    // runs (the library's variant's collectives); empty elsewhere.
    std::optional<double> intercepted;
    // Whether one more call received what the standard prescribes (the collectives on a topology).
    std::optional<bool> valid;
};

// The tests of the setups, one CSV row each, and the Tables on standard error. reps: the
// repetitions behind each run median.
void print_guideline_report(const std::vector<MeasuredSetup>& setups, int processes, int reps);

// What the columns mean, for --help.
std::string guideline_columns_help();

// The setups' run medians, one CSV row per setup and run (nbrbench --measurements), for an
// assessment that pools the runs of several launches (nbrguide), as paper 004's campaigns do.
void write_measurements(std::FILE* out, const std::vector<MeasuredSetup>& setups, int processes, int reps);

// The setups of one or more such files, each setup's runs pooled; processes and reps as all the
// files give them. Throws std::runtime_error on a file that cannot be read or does not agree.
std::vector<MeasuredSetup> read_measurements(const std::vector<std::string>& paths, int& processes, int& reps);

}  // namespace nbrcomb::bench
