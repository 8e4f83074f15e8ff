// Takes a new topology communicator (distributed graph, Cartesian, graph) under the library's
// management.
#pragma once

#include "mapping/renumbering.h"
#include "src/base/vocabulary.h"
#include "src/communicator/topo_state.h"
#include "src/settings/config.h"

#include <mpi.h>

namespace nbrcomb::detail {

// Called on every process right after the constructor created topo_comm, with the settings of
// the call and what reorder=1 did (renumbering.tried is false when nothing), which took
// reorder_seconds. Collective over topo_comm: whatever must involve every process happens here
// (the agreement on the settings and on the edges; where some process has no edge, the
// communicator of those that have one), since processes without edges may never call the
// library again. Auto mode with NBRCOMB_LAZY above 0 defers the rest. The communicator stays
// native when the library is off for it, its processes disagree on the settings, or the two
// ends of an edge list it differently.
int adopt_topology(MPI_Comm topo_comm, const Config& config, const Renumbering& renumbering, double reorder_seconds);

// Right after MPI_Comm_dup (or _with_info) made dup, collective over it: where the original has
// processes without edges, the duplicate's communicators, while every process is there.
void complete_duplicate(MPI_Comm dup);

// Auto mode, before each call is routed: counts the call toward NBRCOMB_LAZY, unless a setting or a
// rule keeps its shape native, and in the call that reaches it (or a persistent collective's init)
// runs Phase 1 and finds whether combining is a candidate. Collective over the processes that have
// edges when Phase 1 runs; a process without edges counts nothing and joins nothing.
// largest_block: the call's largest block on this process; on_device: whether its buffers are
// device memory here. Where some process's counted call was, Phase 1 plans nothing, alike on every
// process: the MPI takes every call.
void run_phase1_when_due(MPI_Comm topo_comm, TopoState& state, Collective collective, Form form, int size_class,
                         std::size_t largest_block, bool on_device);

}  // namespace nbrcomb::detail
