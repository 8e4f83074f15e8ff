// Locality domains for the topology-aware mode (paper 002 §IV-B).
#pragma once

#include "src/config.h"

#include <mpi.h>

#include <memory>
#include <vector>

namespace nbrcomb::detail {

// The domain of every rank of comm, as small integers equal for ranks that share one: null for
// Locality::agnostic; ranks / node_size when node_size emulates nodes; otherwise the shared-
// memory node (MPI_Comm_split_type), refined to package or NUMA domain by hwloc when every
// process's binding lies inside one (else the node, logged once). Collective over comm.
std::shared_ptr<const std::vector<int>> locality_domains(MPI_Comm comm, const Config& config);

}  // namespace nbrcomb::detail
