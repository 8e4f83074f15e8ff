// Process topologies for the MPI tests: graphs every rank knows whole, and the communicators
// built from them through the constructors the library intercepts.
#pragma once

#include "common/neighborhood.h"
#include "topology/generators.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nbrcomb::test {

// A directed multigraph on the ranks 0..size-1, known whole on every rank. Repeated edges and
// self-loops are allowed: the k-th occurrence of v in out[u] is the same edge as the k-th
// occurrence of u in in[v].
struct Digraph {
    std::vector<std::vector<int>> out;
    std::vector<std::vector<int>> in;
};

// Every rank picks random out-neighbors, repeats and self-loops included; about a quarter of
// the ranks get no out-edges and a quarter no in-edges. In-lists come in shuffled order.
Digraph random_digraph(int size, std::uint64_t seed);

enum class Stencil { von_neumann, moore };

// The neighbors within radius on a periodic grid with dims dimensions shaped as MPI_Dims_create
// shapes it (topology::moore and von_neumann). On small grids the wrap-around repeats neighbors
// and makes self-loops.
Digraph periodic_stencil(int size, int dims, Stencil stencil, int radius);

// The halo exchange of a sparse matrix-vector product, as the example job does it
// (topology::matrix_halo): rows and columns in blocks over the ranks, rank i receives from
// j != i when a row of i has a nonzero in a column of j. file is a Matrix Market file in
// NBRCOMB_MATRIX_DIR (the repository's bench/data/matrices); a missing one throws, which fails
// the test: the repository carries every matrix its tests use.
Digraph matrix_digraph(const std::string& file, int size);

// The same graph as the benchmark's generators build it (bench/topology).
Digraph digraph_of(const nbrcomb::topology::Graphs& graphs);

// A graph by name: as nbrsim names it (bench/topology/spec.h), but "random:S" for random_digraph
// with seed S and "matrix:F" for matrix_digraph of F.
Digraph named_digraph(const std::string& topology, int size);

// Clusters of ranks that exchange much, scattered so that consecutive ranks lie in different
// clusters: rank r is in cluster r % (size / cluster_size), so clusters have cluster_size ranks
// when that divides size. Every rank sends three edges to every other member of its cluster and
// one to the next rank: with nodes of cluster_size consecutive ranks, the ranks as given cut
// every cluster apart, while a mapping that keeps clusters on nodes cuts only the ring.
Digraph scrambled_clusters(int size, int cluster_size);

// Every rank sends to the next one and receives from the previous one.
Digraph ring(int size);

// No edges at all: every rank has degree 0.
Digraph edgeless(int size);

// Every rank to every other.
Digraph complete_digraph(int size);

enum class Construction {
    adjacent,          // MPI_Dist_graph_create_adjacent with reorder = 0
    adjacent_reorder,  // the same with reorder = 1
    general,           // MPI_Dist_graph_create, every edge given by some arbitrary rank
    general_reorder,   // the same with reorder = 1
};

// MPI_Info keys and values.
using Hints = std::vector<std::pair<std::string, std::string>>;

// Message combining with pairs of friends, where theta 1 makes any two ranks with a common
// neighbor friends, so that the combining schedules run even on small jobs.
inline const Hints pairs_hints{{"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "1"}};

struct TopologyOptions {
    Construction construction = Construction::adjacent;
    bool weighted = false;
    // Without an nbrcomb_mode hint the communicator runs the pairs mode, whose schedules the
    // library runs from the first call; auto mode, the default, has tests of its own.
    Hints hints{};
};

// Owns a communicator and frees it.
class Comm {
public:
    Comm() = default;
    explicit Comm(MPI_Comm comm) : comm_(comm) {}
    Comm(Comm&& other) noexcept;
    Comm& operator=(Comm&& other) noexcept;
    ~Comm();
    operator MPI_Comm() const { return comm_; }
    void reset();

private:
    MPI_Comm comm_ = MPI_COMM_NULL;
};

// Collective over base: a distributed-graph communicator with the edges of graph.
Comm create_dist_graph(MPI_Comm base, const Digraph& graph, const TopologyOptions& options);

// An MPI_Info with the given hints, or MPI_INFO_NULL for none; the caller frees it.
MPI_Info make_info(const Hints& hints);

// Where each block of a call must land (bench/common/neighborhood.h).
using nbrcomb::common::Neighborhood;
using nbrcomb::common::neighborhood_of;
using nbrcomb::common::occurrence_indices;

}  // namespace nbrcomb::test
