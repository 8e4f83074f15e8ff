// The topologies nbrbench measures: those of the topology generators (Moore, von Neumann,
// Erdős–Rényi, Matrix Market row blocks) made into distributed-graph communicators, and the
// Cartesian grid of MPI_Cart_create, which the library does not manage (native only).
#pragma once

#include "topology/spec.h"

#include <mpi.h>

#include <string>

namespace nbrcomb::bench {

struct BenchTopology {
    std::string name;            // as written on the command line
    int cartesian_dims = 0;      // "cart:D": a periodic D-dimensional MPI_Cart_create grid; 0 otherwise
    topology::TopologySpec spec; // any other name
    bool is_cartesian() const { return cartesian_dims > 0; }
};

// "cart:D" or a name parse_topology reads; "matrix:NAME" may name a file of the shared matrix
// collection without its path or .mtx suffix. Throws std::invalid_argument.
BenchTopology parse_bench_topology(const std::string& text);

// One process's part of a topology: its lists, and the blocks its edges carry (empty: one each).
struct ProcessGraph {
    nbrcomb::detail::LocalGraph lists;
    topology::EdgeBlocks blocks;
};

// Collective over world: rank 0 builds the graphs once, for all the communicators of one
// topology, and hands every process its own part, so that no process holds the whole graph (at
// thousands of simulated processes, all of them in one address space, it would not fit); empty
// lists for Cartesian topologies.
ProcessGraph distribute_graph(const BenchTopology& topology, MPI_Comm world);

// A new communicator of the topology over world, with hints and reorder for the distributed-graph
// constructor (Cartesian communicators take neither and keep the ranks), from the lists of this
// process (what distribute_graph gave it). With reorder the process with rank v in the new
// communicator plays vertex v.
MPI_Comm create_communicator(const BenchTopology& topology, const nbrcomb::detail::LocalGraph& mine, MPI_Info hints,
                             bool reorder, MPI_Comm world);

}  // namespace nbrcomb::bench
