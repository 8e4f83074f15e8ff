// Topologies named on a command line: "moore:D:R", "vonneumann:D:R", "er:DENSITY[:SEED]",
// "complete" (every process to every process, itself included), "matrix:PATH" (a Matrix Market
// file), "mesh:CELLS[:SEED]" (the ghost exchange of a METIS-partitioned 3-D mesh) and
// "amg:CELLS:LEVEL[:SEED]" (a coarse level of its multigrid hierarchy; mesh.h), any of them
// prefixed "shuffled:" (its ranks in a random order).
#pragma once

#include "topology/generators.h"

#include <cstdint>
#include <string>

// The names above as usage lines of the tools that take them (a literal, for their usage texts).
#define NBRCOMB_TOPOLOGY_SPEC_USAGE                                                        \
    "  SPEC: moore:D:R | vonneumann:D:R | er:DENSITY[:SEED] | complete | matrix:PATH |\n" \
    "        mesh:CELLS[:SEED] | amg:CELLS:LEVEL[:SEED], the first five with a prefix\n"  \
    "        shuffled: (its ranks in a random order)\n"

namespace nbrcomb::topology {

struct TopologySpec {
    enum class Kind { moore, von_neumann, erdos_renyi, complete, matrix, mesh };
    Kind kind = Kind::moore;
    int dims = 0;
    int radius = 0;
    double density = 0.0;
    int cells = 0;  // mesh: the cells of the mesh, and the multigrid level (0: the mesh itself)
    int level = 0;
    std::uint64_t seed = 1;  // when the spec names none
    std::string path;
    bool shuffled = false;  // the graph renumbered by shuffle_ranks
    std::string text;  // as written, to name the topology in reports
};

// Throws std::invalid_argument saying what is wrong with text.
TopologySpec parse_topology(const std::string& text);

// The topology of spec on processes processes; throws what its generator throws.
Graphs generate(const TopologySpec& spec, int processes);

// The same with the blocks its edges carry: a mesh's ghost cells; empty blocks (one per edge)
// for every other kind.
WeightedGraphs generate_weighted(const TopologySpec& spec, int processes);

}  // namespace nbrcomb::topology
