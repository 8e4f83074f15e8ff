#include "nbrbench/communicators.h"

#include "common/library_stats.h"
#include "nbrbench/dissemination_barrier.h"

#include <cstdio>

namespace nbrcomb::bench {

namespace {

VariantCommunicator create(const BenchTopology& topology, const nbrcomb::detail::LocalGraph& mine, const Variant& variant,
                           const LibrarySettings& settings, MPI_Comm world) {
    VariantCommunicator result;
    MPI_Info hints = variant_hints(variant, settings);
    dissemination_barrier(world);
    const double start = MPI_Wtime();
    result.comm = create_communicator(topology, mine, hints, variant.reorder, world);
    const double seconds = MPI_Wtime() - start;
    MPI_Info_free(&hints);
    MPI_Allreduce(&seconds, &result.create_seconds, 1, MPI_DOUBLE, MPI_MAX, world);
    const auto library = nbrcomb::common::library_stats(result.comm);
    const auto stats = library ? library->stats : std::nullopt;
    // Auto mode chooses per call shape; its rows say so rather than name the pattern's mode.
    const bool automatic = stats && stats->requested_mode == NBRCOMB_MODE_AUTO;
    result.library_mode = stats ? nbrcomb::common::mode_name(automatic ? NBRCOMB_MODE_AUTO : stats->mode) : "off";
    result.reordering = nbrcomb::common::reordering_summary(stats, world);
    return result;
}

// Over the processes of world.
double average_out_degree(const nbrcomb::detail::LocalGraph& mine, int processes, MPI_Comm world) {
    double edges = static_cast<double>(mine.destinations.size());
    MPI_Allreduce(MPI_IN_PLACE, &edges, 1, MPI_DOUBLE, MPI_SUM, world);
    return edges / processes;
}

}  // namespace

std::vector<TopologyCommunicators> create_communicators(const Options& options, bool library_loaded,
                                                        MPI_Comm world) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &processes);
    std::vector<TopologyCommunicators> result;
    for (const BenchTopology& topology : options.topologies) {
        if (rank == 0) std::fprintf(stderr, "nbrbench: creating the communicators of %s\n", topology.name.c_str());
        const ProcessGraph mine = distribute_graph(topology, world);
        TopologyCommunicators communicators;
        communicators.out_degree = topology.is_cartesian() ? 2.0 * topology.cartesian_dims
                                                           : average_out_degree(mine.lists, processes, world);
        communicators.blocks = mine.blocks;
        for (const Variant& variant : options.variants) {
            const bool applies = variant.is_native() || (library_loaded && !topology.is_cartesian());
            communicators.variants.push_back(
                applies ? create(topology, mine.lists, variant, options.library, world) : VariantCommunicator{});
        }
        result.push_back(std::move(communicators));
    }
    return result;
}

void free_communicators(std::vector<TopologyCommunicators>& communicators) {
    for (auto& topology : communicators)
        for (auto& variant : topology.variants)
            if (variant.comm != MPI_COMM_NULL) MPI_Comm_free(&variant.comm);
}

}  // namespace nbrcomb::bench
