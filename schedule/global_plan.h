// A complete graph's calls as the MPI's own collective over all processes: where every process
// lists every other once as a source and as a destination (itself at most once), a neighborhood
// collective does what MPI_Allgather(v) or MPI_Alltoall(v/w) does, and paper 004's GL7 and GL8
// say it should not be faster than them; where the MPI's global algorithms (recursive doubling,
// Bruck's) beat one message per edge, this plan runs them. The neighbor order and a missing
// self-loop differ from the global layout: each side's blocks go to the MPI in place where they
// are plain bytes where the collective takes them, else packed into rank order and back.
#pragma once

#include "schedule/algorithm.h"

namespace nbrcomb::detail {

// Whether graph is a complete graph's vertex in a communicator of size processes (above).
bool complete_vertex(const LocalGraph& graph, int size);

// Where PlanSettings::complete_graph says the whole graph is complete; elsewhere the direct plan.
PlanTask plan_global(Transport& transport, LocalGraph graph, PlanSettings settings);

}  // namespace nbrcomb::detail
