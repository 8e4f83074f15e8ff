// 9-point diffusion on a 2D periodic grid, each process a B x B block of cells.
#pragma once

#include "workload.h"

#include <memory>

namespace halo_job {

// Processes form a periodic grid from MPI_Dims_create; each exchanges its boundary with the 8
// processes of its Moore neighborhood. On grids 1 or 2 processes wide a neighbor appears more
// than once, or is the process itself: the graph keeps such duplicate edges and self-loops.
// With reorder the topology is created with reorder=1 and each process takes the block of its
// rank in the new communicator.
std::unique_ptr<Workload> make_stencil(int block, bool reorder, Path path, MPI_Comm world);

} // namespace halo_job
