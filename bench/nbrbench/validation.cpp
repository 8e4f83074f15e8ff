#include "nbrbench/validation.h"

#include "common/library_stats.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

namespace nbrcomb::bench {

namespace {

// For each receive block of rank, the send block its source fills it from: the k-th rank in the
// source's destinations for the k-th occurrence of that source among rank's sources.
std::vector<int> sender_blocks(const topology::Graphs& graphs, int rank) {
    const auto& sources = graphs[static_cast<std::size_t>(rank)].sources;
    std::map<int, std::vector<int>> positions;  // source -> where rank is in its destinations
    for (const int source : sources) {
        if (positions.contains(source)) continue;
        const auto& destinations = graphs[static_cast<std::size_t>(source)].destinations;
        auto& found = positions[source];
        for (std::size_t i = 0; i < destinations.size(); ++i)
            if (destinations[i] == rank) found.push_back(static_cast<int>(i));
    }
    std::map<int, std::size_t> seen;
    std::vector<int> blocks;
    for (const int source : sources) blocks.push_back(positions[source][seen[source]++]);
    return blocks;
}

std::vector<unsigned char> expected_receive(const std::vector<int>& sources, const std::vector<int>& blocks,
                                            Collective collective, int bytes) {
    const bool gather = collective == Collective::allgather || collective == Collective::allgatherv;
    std::vector<unsigned char> expected;
    expected.reserve(sources.size() * static_cast<std::size_t>(bytes));
    for (std::size_t i = 0; i < sources.size(); ++i)
        for (std::size_t j = 0; j < static_cast<std::size_t>(bytes); ++j)
            expected.push_back(payload_byte(sources[i], gather ? 0 : blocks[i], j));
    return expected;
}

// The calls the library has run on comm; 0 where it does not manage comm.
unsigned long long library_calls(MPI_Comm comm) {
    const auto library = nbrcomb::common::library_stats(comm);
    return library && library->stats ? library->stats->calls : 0;
}

void report(const char* what, const Options& options, const Experiment& experiment, int ranks) {
    std::fprintf(stderr, "nbrbench: %s: %s on %s, %s %s, %d bytes, %d rank(s)\n", what,
                 options.variants[experiment.variant].name.c_str(),
                 options.topologies[experiment.topology].name.c_str(), collective_name(experiment.collective),
                 form_name(experiment.form), experiment.bytes, ranks);
}

}  // namespace

ValidationSummary validate(const Options& options, const std::vector<TopologyCommunicators>& communicators,
                           const std::vector<Experiment>& experiments, std::vector<ExperimentRecord>& records,
                           MPI_Comm control) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(control, &rank);
    MPI_Comm_size(control, &processes);
    ValidationSummary summary;
    // Experiments come grouped by topology: the graphs are made again once per topology, and the
    // expected blocks whenever the vertex changes (the process with rank v of a reordered
    // communicator plays vertex v).
    std::size_t graphs_of = experiments.size();
    topology::Graphs graphs;
    int vertex = -1;
    std::vector<int> sources, blocks;
    std::set<std::pair<std::size_t, Collective>> native_reported;  // a native deviation repeats in every form and size
    for (std::size_t e = 0; e < experiments.size(); ++e) {
        const Experiment& experiment = experiments[e];
        const BenchTopology& topology = options.topologies[experiment.topology];
        if (topology.is_cartesian()) continue;
        if (graphs_of != experiment.topology) {
            graphs = generate_graphs(topology, processes);
            graphs_of = experiment.topology;
            vertex = -1;
        }
        const MPI_Comm comm = communicators[experiment.topology].variants[experiment.variant].comm;
        int rank_in_comm = 0;
        MPI_Comm_rank(comm, &rank_in_comm);
        if (rank_in_comm != vertex) {
            vertex = rank_in_comm;
            sources = graphs[static_cast<std::size_t>(vertex)].sources;
            blocks = sender_blocks(graphs, vertex);
        }
        NeighborExchange exchange(comm, experiment.collective, experiment.form, experiment.bytes);
        exchange.scramble_received();
        const auto calls_before = library_calls(exchange.comm());
        exchange.run();
        const auto expected = expected_receive(sources, blocks, experiment.collective, experiment.bytes);
        // Ranks with wrong data, and ranks on which the library (not native MPI) ran the call.
        int counts[2] = {std::equal(expected.begin(), expected.end(), exchange.received().begin()) ? 0 : 1,
                         library_calls(exchange.comm()) != calls_before ? 1 : 0};
        MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT, MPI_SUM, control);
        const int wrong = counts[0];
        if (rank == 0) records[e].valid = wrong == 0;
        if (wrong == 0) continue;
        const bool by_library = counts[1] > 0;
        ++(by_library ? summary.library_mismatches : summary.native_deviations);
        if (rank != 0) continue;
        if (by_library)
            report("MISMATCH: the library delivered wrong data", options, experiment, wrong);
        else if (native_reported.insert({experiment.topology, experiment.collective}).second)
            report("native MPI received other data than the standard prescribes (the first case of this topology "
                   "and collective)",
                   options, experiment, wrong);
    }
    return summary;
}

}  // namespace nbrcomb::bench
