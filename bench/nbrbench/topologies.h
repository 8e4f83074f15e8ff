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

// Builds the graphs once for all the communicators of one topology; empty for Cartesian ones.
topology::Graphs generate_graphs(const BenchTopology& topology, int processes);

// A new communicator of the topology over world, with hints and reorder for the distributed-graph
// constructor (Cartesian communicators take neither and keep the ranks). graphs is what
// generate_graphs returned for world's size; each process gives the lists of its rank in world.
// With reorder the process with rank v in the new communicator plays vertex v.
MPI_Comm create_communicator(const BenchTopology& topology, const topology::Graphs& graphs, MPI_Info hints,
                             bool reorder, MPI_Comm world);

}  // namespace nbrcomb::bench
