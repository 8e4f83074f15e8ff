// The random process topologies of the fuzzer: directed multigraphs that every rank draws whole
// from the case's seed, and the distributed-graph communicators built from them through either
// constructor.
#pragma once

#include "random.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace nbrcomb::fuzz {

// A directed multigraph on the ranks 0..size-1, repeated edges and self-loops allowed. The k-th
// occurrence of v in out[u] is the same edge as the k-th occurrence of u in in[v] (the rule of
// MPI's neighborhood collectives on repeated edges).
struct Graph {
    int size = 0;
    std::vector<std::vector<int>> out;
    std::vector<std::vector<int>> in;
    std::string kind;  // how it was drawn, for the failure line
};

// Draws a graph: complete graphs, with or without self-loops, in complete_percent of the draws;
// 2-D Moore or von Neumann stencils, bounded or periodic (where a side of 1 or 2 repeats
// neighbors), in stencil_percent; else rarely no edge at all, mostly random out-lists of 0..2
// size entries (some ranks without in- or out-edges). In-lists come in an order of their own.
Graph random_graph(int size, int complete_percent, int stencil_percent, Random& random);

// Keeps the first of the edges between two processes (for MPIs that get repeated edges wrong).
void remove_repeated_edges(Graph& graph);

// The weight both ends give the edge u->v.
int edge_weight(int from, int to, std::uint64_t salt);

enum class Constructor { adjacent, general };
const char* name_of(Constructor constructor);

struct Construction {
    Constructor constructor = Constructor::adjacent;
    bool weighted = false;
    std::uint64_t weight_salt = 0;
    // general: which rank gives each edge (out-edge i of u is edge number offset[u] + i).
    std::vector<int> giver;
};

// Draws how the graph is handed to the MPI: the constructor, weights, and for
// MPI_Dist_graph_create, a random rank to give each edge.
Construction random_construction(const Graph& graph, Random& random);

// Collective over MPI_COMM_WORLD, without reordering: the communicator of graph with info's hints.
// Returns the constructor's error code.
int create_graph_comm(const Graph& graph, const Construction& construction, MPI_Info info, MPI_Comm* comm);

// The calling process's neighbors as the communicator reports them: the order of the blocks.
struct Neighbors {
    std::vector<int> sources;
    std::vector<int> destinations;
};
int query_neighbors(MPI_Comm comm, Neighbors& neighbors);

// "" if neighbors are rank's edges of graph: in the order given for the adjacent constructor,
// in any order for the general one (the MPI orders them).
std::string neighbors_problem(const Graph& graph, const Construction& construction, int rank,
                              const Neighbors& neighbors);

}  // namespace nbrcomb::fuzz
