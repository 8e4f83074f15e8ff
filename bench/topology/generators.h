// Process topologies of the paper's experiments (paper 000, §VI) and of sparse matrices, as every
// process's in- and out-neighbor lists, for the simulator and the benchmarks. No MPI.
//
// Every generator keeps the rule MPI's distributed graphs follow: the k-th u->v edge in u's
// destinations is the k-th u in v's sources, repeated edges and self-loops included.
#pragma once

#include "common/matrix_market.h"
#include "pattern/pattern.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nbrcomb::topology {

using Graphs = std::vector<nbrcomb::detail::LocalGraph>;  // indexed by rank

// The blocks each edge of one process carries, in the order of its lists, where neighbors
// exchange unequal amounts (a mesh's ghost cells).
struct EdgeBlocks {
    std::vector<int> sources;
    std::vector<int> destinations;
};

// A topology with its edges' blocks; blocks is empty where every edge carries one.
struct WeightedGraphs {
    Graphs graphs;
    std::vector<EdgeBlocks> blocks;  // indexed by rank
};

// The grid shape MPI_Dims_create(processes, dims) gives: dims factors of processes, as close
// to each other as possible, in non-increasing order.
std::vector<int> balanced_dims(int processes, int dims);

// How each process lists its neighbors (paper 004, §3.1). A stencil's offsets sorted with the
// first coordinate varying slowest (row_major, the paper's FMAJ) or fastest (column_major, LMAJ),
// or shuffled by each process with a seed of its own (random); its sources are the same offsets
// in the same order, negated. A complete graph's ranks counted from the process itself upward in
// its sources and downward in its destinations (linear), or each list shuffled apart (random).
enum class ListOrder { row_major, column_major, linear, random };

// Every process of a periodic grid of balanced_dims(processes, dims), numbered in row-major
// order, sends to the processes at Chebyshev distance 1..radius: (2 radius + 1)^dims - 1 edges.
// order is row_major, column_major or random (drawn from seed and the rank alone).
Graphs moore(int processes, int dims, int radius, ListOrder order = ListOrder::row_major, std::uint64_t seed = 1);

// The same grid with Manhattan distance 1..radius.
Graphs von_neumann(int processes, int dims, int radius, ListOrder order = ListOrder::row_major,
                   std::uint64_t seed = 1);

// Every process sends to every process, itself included (paper 004's full neighborhood); order
// is linear or random (drawn from seed and the rank alone).
Graphs complete(int processes, ListOrder order = ListOrder::linear, std::uint64_t seed = 1);

// G(processes, density): each ordered pair u != v is an edge with probability density, drawn
// from seed alone (the same graph on every platform). Lists come in ascending rank order.
Graphs erdos_renyi(int processes, double density, std::uint64_t seed);

// The halo exchange of y = A x with the rows of A and the entries of x cut into consecutive
// blocks over the processes (the halo job's distribution): i receives from j != i when a row
// of i has a nonzero in a column of j. Lists come in ascending rank order.
Graphs matrix_halo(const nbrcomb::common::CooMatrix& matrix, int processes);
Graphs matrix_halo(const std::string& matrix_market_path, int processes);

// graphs with vertex v renamed new_rank[v] (a permutation): its out-list renumbered in its order,
// the in-lists rebuilt by the rule above.
Graphs renumber_ranks(const Graphs& graphs, const std::vector<int>& new_rank);

// graphs renumbered by a random permutation drawn from seed alone: the topology as a process
// manager leaves it that places processes unaware of the application's partition, where rank
// reordering (reorder=1) has something to repair.
Graphs shuffle_ranks(const Graphs& graphs, std::uint64_t seed);

}  // namespace nbrcomb::topology
