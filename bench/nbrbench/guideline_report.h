// The guideline campaign's results: one CSV row per test on standard output, and paper 004's
// Tables 3-4 (violations per guideline and variant) on standard error.
#pragma once

#include "nbrbench/guideline_campaign.h"

#include <string>

namespace nbrcomb::bench {

// Rank 0 only.
void print_guideline_report(const Options& options, const Campaign& campaign, int processes);

// What the columns mean, for --help.
std::string guideline_columns_help();

}  // namespace nbrcomb::bench
