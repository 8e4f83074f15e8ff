// Paper 004's guideline campaign (§3-§4) on this machine: every setup a guideline of
// stats/guidelines.h compares, natively (PMPI_ constructors and collectives, which no library
// intercepts) and, where libnbrcomb is loaded, through it with the settings of the environment;
// measured by the sweep's method (method.h); then every test the guidelines allow.
//
// The setups: von Neumann and Moore neighborhoods of radius 1 on a periodic grid of each
// dimension count (with the von Neumann one also as the Cartesian grid of MPI_Cart_create), and
// the complete graph, each process listing itself too; each process's lists in row-major,
// column-major or random order (stencils) or linear or random order (complete graph); made by
// MPI_Dist_graph_create_adjacent ("adjacent") or MPI_Dist_graph_create ("graph", every process
// giving its out-edges), with reorder 0 and 1. On each: the constructor, and every collective,
// form and message size; on all processes, the global collectives the complete graph mimics.
#pragma once

#include "nbrbench/guideline_report.h"
#include "nbrbench/options.h"

#include <mpi.h>

#include <vector>

namespace nbrcomb::bench {

struct Campaign {
    std::vector<MeasuredSetup> setups;  // on rank 0
    std::size_t library_mismatches = 0;  // collectives the library ran with wrong data (every rank)
    std::size_t native_deviations = 0;   // collectives native MPI ran with other data than the standard's
};

// Collective over control, a duplicate of the world.
Campaign run_guideline_campaign(const Options& options, bool library_loaded, MPI_Comm control);

}  // namespace nbrcomb::bench
