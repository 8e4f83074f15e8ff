// nbrbench's command line: what to measure and how often.
#pragma once

#include "nbrbench/neighbor_exchange.h"
#include "nbrbench/topologies.h"
#include "nbrbench/variants.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nbrcomb::bench {

struct Options {
    std::vector<BenchTopology> topologies;
    std::vector<Collective> collectives;
    std::vector<Form> forms;
    std::vector<int> bytes;           // per block: what one process sends one neighbor
    std::vector<Variant> variants;    // the first is native, the reference of every comparison
    int runs = 0;                     // passes over all experiments, each in a new random order
    int repetitions = 0;              // timed calls per experiment and run
    int warmup = 0;                   // untimed calls before them
    int settle = 0;                   // untimed runs before the timed ones
    LibrarySettings library;
    std::uint64_t seed = 1;           // of the experiment order, and of the random neighbor lists
    bool help = false;
    // Paper 004's guideline campaign (nbrbench/guideline_campaign.h) instead of the sweep: its
    // neighborhoods (vonneumann, moore, full) and the dimensions of the stencils' grids.
    bool guidelines = false;
    std::vector<std::string> neighborhoods;
    std::vector<int> dims;
    std::string measurements;  // where to write the setups' run medians too, for nbrguide
};

// Throws std::invalid_argument on an unknown flag or a bad value. Lists not given come from the
// full sweep, or from the quick one with --quick; with --guidelines, from the guideline campaign's.
Options parse_options(int argc, char** argv);

std::string usage();

}  // namespace nbrcomb::bench
