// The log's lines about what mapping/ found: the topology-aware mode's domains and rank
// reordering. mapping/ returns what it has to say; the lines are written here.
#pragma once

#include "mapping/locality.h"
#include "mapping/renumbering.h"
#include "src/settings/config.h"

#include <mpi.h>

namespace nbrcomb::detail {

// On rank 0 of MPI_COMM_WORLD: the domains of level found on the machine, whether some process
// was not bound inside one, and once per process that a build without hwloc used nodes.
void log_locality(Locality level, const LocalityDomains& domains);

// On rank 0 of comm, the constructor's comm_old: why reorder=1 keeps the ranks, when the
// processes disagree, and once per process when none asks to reorder or the library was built
// without METIS.
void log_agreement(MPI_Comm comm, ReorderAgreement agreement);

// On rank 0 of comm_old: a graph too large to gather, or how mapping it went.
void log_renumbering(const Renumbering& renumbering, int reorder_max_edges);

}  // namespace nbrcomb::detail
