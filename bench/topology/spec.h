// Topologies named on a command line: "moore:D:R", "vonneumann:D:R", "er:DENSITY[:SEED]",
// "complete" (every process to every process, itself included), "matrix:PATH" (a Matrix Market
// file), any of them prefixed "shuffled:" (its ranks in a random order).
#pragma once

#include "topology/generators.h"

#include <cstdint>
#include <string>

namespace nbrcomb::topology {

struct TopologySpec {
    enum class Kind { moore, von_neumann, erdos_renyi, complete, matrix };
    Kind kind = Kind::moore;
    int dims = 0;
    int radius = 0;
    double density = 0.0;
    std::uint64_t seed = 1;  // when the spec names none
    std::string path;
    bool shuffled = false;  // the graph renumbered by shuffle_ranks
    std::string text;  // as written, to name the topology in reports
};

// Throws std::invalid_argument saying what is wrong with text.
TopologySpec parse_topology(const std::string& text);

// The topology of spec on processes processes; throws what its generator throws.
Graphs generate(const TopologySpec& spec, int processes);

}  // namespace nbrcomb::topology
