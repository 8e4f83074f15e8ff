// Figures of the library's per-communicator statistics (nbrcomb_stats) that nbrbench reports, one
// CSV column each: per rank from the statistics read before an experiment's first call (warm-up
// included) and after its last; the maximum over the ranks, as for the latency; the median over
// the runs. A new figure of nbrcomb_stats becomes a column with one entry here.
#pragma once

#include <nbrcomb/nbrcomb.h>

namespace nbrcomb::bench {

struct LibraryColumn {
    const char* name;
    const char* meaning;  // for --help
    double (*per_rank)(const nbrcomb_stats& before, const nbrcomb_stats& after);
};

inline constexpr LibraryColumn library_columns[] = {
    {"pattern_seconds", "Phase 1, the pattern, built at topology creation (paper 000, Tables I-II)",
     [](const nbrcomb_stats&, const nbrcomb_stats& after) { return after.pattern_seconds; }},
    {"pattern_messages", "Phase 1: messages this process sent",
     [](const nbrcomb_stats&, const nbrcomb_stats& after) { return static_cast<double>(after.pattern_messages); }},
    {"pattern_exchanges", "Phase 1: its communication steps, each waiting for the peers",
     [](const nbrcomb_stats&, const nbrcomb_stats& after) { return static_cast<double>(after.pattern_exchanges); }},
    {"trial_calls", "auto mode: the experiment's calls (warm-up included) that ran its trial",
     [](const nbrcomb_stats& before, const nbrcomb_stats& after) {
         return static_cast<double>(after.trial_calls - before.trial_calls);
     }},
    {"schedules_built", "Phase 2: schedules built during the experiment's calls (0 once cached)",
     [](const nbrcomb_stats& before, const nbrcomb_stats& after) {
         return static_cast<double>(after.schedules_built - before.schedules_built);
     }},
    {"schedule_seconds", "Phase 2: time building them (paper 000, Tables I-II)",
     [](const nbrcomb_stats& before, const nbrcomb_stats& after) {
         return after.schedule_seconds - before.schedule_seconds;
     }},
};

inline constexpr int library_column_count = sizeof(library_columns) / sizeof(library_columns[0]);

}  // namespace nbrcomb::bench
