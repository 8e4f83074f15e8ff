// Power iteration x <- A x / |A x|_max on a row-block distributed sparse matrix.
#pragma once

#include "common/matrix_market.h"
#include "workload.h"

#include <memory>
#include <string>

namespace halo_job {

using nbrcomb::common::CooMatrix;
using nbrcomb::common::MatrixEntry;

// Every process passes the whole matrix and keeps its own rows. The dist-graph follows the
// column pattern: q is an in-neighbor of p when p's rows have a nonzero in a column q owns.
// With reorder the topology is created with reorder=1 and each process takes the row block of
// its rank in the new communicator.
std::unique_ptr<Workload> make_spmv(const CooMatrix& matrix, const std::string& name, bool reorder, Path path,
                                    MPI_Comm world);

} // namespace halo_job
