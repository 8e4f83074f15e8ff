// One communicator per topology and variant, all made before the first measurement, so that
// Phase 1 (the library's pattern) is done and timed once, as in the papers.
#pragma once

#include "common/library_stats.h"
#include "nbrbench/options.h"
#include "topology/generators.h"

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

namespace nbrcomb::bench {

struct VariantCommunicator {
    // MPI_COMM_NULL where the variant does not apply: the library's variants of a Cartesian
    // topology (the library manages distributed graphs only), or all of them without the library.
    MPI_Comm comm = MPI_COMM_NULL;
    double create_seconds = 0.0;  // the constructor on the slowest rank, Phase 1 included
    std::string library_mode;     // the mode the library runs comm with; "off" when it leaves comm native
    // Where the library was asked to reorder (the :reorder variants), what it did at creation.
    std::optional<nbrcomb::common::ReorderingSummary> reordering;
};

struct TopologyCommunicators {
    double out_degree = 0.0;  // average over the ranks: native MPI's messages per call and rank
    topology::EdgeBlocks blocks;  // this process's, in the order of its lists; empty: one per edge
    std::vector<VariantCommunicator> variants;  // indexed like Options::variants
};

// Collective over world. library_loaded: whether libnbrcomb is in the process.
std::vector<TopologyCommunicators> create_communicators(const Options& options, bool library_loaded, MPI_Comm world);

void free_communicators(std::vector<TopologyCommunicators>& communicators);

}  // namespace nbrcomb::bench
