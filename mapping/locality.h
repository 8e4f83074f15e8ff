// Where processes run: locality domains for the topology-aware mode (paper 002 §IV-B) and the
// places rank reordering maps ranks onto.
#pragma once

#include "mapping/rank_mapping.h"
#include "src/config.h"

#include <mpi.h>

#include <memory>
#include <span>
#include <vector>

namespace nbrcomb::detail {

// The domain of every rank of comm, as small integers equal for ranks that share one: null for
// Locality::agnostic; the emulated node when node_size emulates nodes (emulated_nodes[r] when
// given, as rank reordering leaves them, else r / node_size); otherwise the shared-memory node
// (MPI_Comm_split_type), refined to package or NUMA domain by hwloc when every process's binding
// lies inside one (else the node, logged once). Collective over comm.
std::shared_ptr<const std::vector<int>> locality_domains(MPI_Comm comm, const Config& config,
                                                         std::span<const int> emulated_nodes);

// Where this process runs: its node, named by the lowest rank of comm on it, or rank / node_size
// when node_size emulates nodes; and the package and NUMA domain hwloc finds its binding inside.
// Collective over comm.
ProcessPlace this_process_place(MPI_Comm comm, int node_size);

}  // namespace nbrcomb::detail
