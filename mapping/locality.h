// Where processes run: locality domains for the topology-aware mode (paper 002 §IV-B) and the
// places rank reordering maps ranks onto.
#pragma once

#include "mapping/mapping_settings.h"
#include "mapping/rank_mapping.h"

#include <mpi.h>

#include <array>
#include <memory>
#include <span>
#include <vector>

namespace nbrcomb::detail {

struct LocalityDomains {
    // (*of_rank)[r]: the domain of rank r, as small integers equal for ranks that share one.
    std::shared_ptr<const std::vector<int>> of_rank;
    // For the caller's log, the same on every process: whether the domains come from the machine
    // (not from emulated nodes), and then what it showed.
    bool from_machine = false;
    bool without_hwloc = false;  // a package or NUMA domain asked of a build without hwloc: nodes are used
    bool unbound = false;        // some process is not bound inside a package or NUMA domain: nodes are used
    std::size_t count = 0;       // distinct domains
};

// The domains of comm's ranks at settings.locality: none (null) for Locality::agnostic; the
// emulated node when settings.node_size emulates nodes (emulated_nodes[r] when given, as rank
// reordering leaves them, else r / node_size); otherwise the shared-memory node
// (MPI_Comm_split_type), refined to package or NUMA domain by hwloc when every process's binding
// lies inside one (else the node, as in a build without hwloc). Collective over comm: where
// nodes are all it needs and they hold consecutive ranks, all as many but the last (block
// placement, mpirun's and Slurm's default), one reduction of three ints finds them, where
// otherwise every process gathers every rank's node.
LocalityDomains locality_domains(MPI_Comm comm, const MappingSettings& settings,
                                 std::span<const int> emulated_nodes);

// Whether nodes hold consecutive ranks, all as many but the last, from one MPI_MAX reduction of
// every process's part: its node's size, minus that size unless its node holds the last rank
// (then minus the communicator's size), and 1 where its node's ranks do not follow one another.
// regular_node_size: the nodes' size where they are regular, else 0. (locality_domains' step,
// exposed for the tests.)
using RegularNodes = std::array<int, 3>;
RegularNodes regular_nodes_part(int first, int size, bool consecutive, int comm_size);
int regular_node_size(const RegularNodes& maximum);

// Where this process runs: its node, named by the lowest rank of comm on it, or rank / node_size
// when node_size emulates nodes; and the package and NUMA domain hwloc finds its binding inside
// (unknown in a build without hwloc).
// Collective over comm.
ProcessPlace this_process_place(MPI_Comm comm, int node_size);

}  // namespace nbrcomb::detail
