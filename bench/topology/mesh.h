// The process graphs of an unstructured 3-D mesh as finite-volume and finite-element codes
// distribute it: the cells partitioned into one part per process with METIS (as DOLFINx and
// PETSc DMPlex partition theirs), one layer of ghost cells exchanged with MPI_Neighbor_alltoallv,
// and the coarse levels of a smoothed-aggregation multigrid hierarchy on it (PETSc GAMG's kind),
// whose process graphs densify level by level as BoomerAMG's do. Edges carry unequal amounts, so
// every graph comes with the blocks each edge carries.
#pragma once

#include "topology/generators.h"

#include <cstdint>
#include <vector>

namespace nbrcomb::topology {

// A symmetric sparsity pattern without its diagonal, in compressed rows: row i's off-diagonal
// columns are neighbors[offsets[i]..offsets[i + 1]), ascending.
struct SparsePattern {
    std::vector<int> offsets{0};
    std::vector<int> neighbors;
    int rows() const { return static_cast<int>(offsets.size()) - 1; }
};

// cells seeded points, uniform in the unit cube, each sharing a face with its 4 nearest cells
// and with every cell that counts it among its own 4 nearest: about 5.5 faces per cell, the
// facet graph of a tetrahedral mesh (4 faces per cell, and a neighbor across each). Drawn from
// seed alone, so the same mesh on every platform.
SparsePattern random_geometric_mesh(int cells, std::uint64_t seed);

// METIS k-way partition of the rows into parts (seed 1, the same parts on every run); parts
// may exceed the rows, leaving some empty.
std::vector<int> partition_rows(const SparsePattern& pattern, int parts);

// Whether this build partitions meshes: METIS is optional at build time (NBRCOMB_WITH_METIS), and
// a build without it has mesh_partition_without_metis.cpp, whose partition_rows throws.
extern const bool mesh_partitioning_built;

// One level of a multigrid hierarchy: its matrix's pattern and the process that owns each row.
struct MultigridLevel {
    SparsePattern matrix;
    std::vector<int> owner;
};

// The next coarser level by smoothed aggregation: aggregates grown greedily from a root and its
// neighbors, never across processes, so each coarse row stays with the process of its fine rows;
// the tentative prolongator smoothed once, P = (I + A) P0, and the Galerkin product R A P with
// R = P^T. Its pattern links aggregates up to three fine edges apart, so a coarse level has
// fewer rows but more neighbors per row than the level below.
MultigridLevel coarsen(const MultigridLevel& fine);

// The halo exchange of y = A x on a level: the process of row i receives x_j from the process of
// row j for every column j of row i owned elsewhere, each x_j once. Lists come in ascending rank
// order; blocks give the x_j an edge carries.
WeightedGraphs halo_exchange(const MultigridLevel& level, int processes);

// The ghost exchange of random_geometric_mesh(cells, seed) partitioned over processes
// (level 0), or of the level-th coarse level of its hierarchy.
WeightedGraphs mesh_level_exchange(int cells, int level, std::uint64_t seed, int processes);

}  // namespace nbrcomb::topology
