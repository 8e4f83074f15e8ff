#include "nbrbench/validation.h"

#include "common/library_stats.h"
#include "common/neighborhood.h"

#include <cstdio>
#include <map>
#include <set>
#include <utility>

namespace nbrcomb::bench {

namespace {

// The position of the k-th occurrence of peer in list; -1 if there is none (a graph whose two ends
// disagree).
int kth_position(const std::vector<int>& list, int peer, int k) {
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i] == peer && k-- == 0) return static_cast<int>(i);
    return -1;
}

// Every process's destinations, by rank. Collective over comm.
std::vector<std::vector<int>> all_destinations(MPI_Comm comm, const std::vector<int>& mine) {
    int processes = 0;
    MPI_Comm_size(comm, &processes);
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(processes)), displs(counts.size() + 1, 0);
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    for (std::size_t r = 0; r < counts.size(); ++r) displs[r + 1] = displs[r] + counts[r];
    std::vector<int> flat(static_cast<std::size_t>(displs.back()) + 1);
    MPI_Allgatherv(mine.data(), count, MPI_INT, flat.data(), counts.data(), displs.data(), MPI_INT, comm);
    std::vector<std::vector<int>> lists;
    for (std::size_t r = 0; r < counts.size(); ++r)
        lists.emplace_back(flat.begin() + displs[r], flat.begin() + displs[r + 1]);
    return lists;
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

ExpectedDelivery::ExpectedDelivery(MPI_Comm comm) {
    const nbrcomb::common::Neighborhood neighbors = nbrcomb::common::neighborhood_of(comm);
    sources_ = neighbors.sources;
    int kind = MPI_UNDEFINED;
    MPI_Topo_test(comm, &kind);
    if (kind == MPI_CART) {
        sender_blocks_ = neighbors.source_edges;
        return;
    }
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const auto destinations = all_destinations(comm, neighbors.destinations);
    for (std::size_t i = 0; i < sources_.size(); ++i)
        sender_blocks_.push_back(
            kth_position(destinations[static_cast<std::size_t>(sources_[i])], rank, neighbors.source_edges[i]));
}

bool ExpectedDelivery::holds_for(NeighborExchange& exchange) const {
    exchange.scramble_received();
    exchange.run();
    const bool gather = exchange.collective() == Collective::allgather || exchange.collective() == Collective::allgatherv;
    const auto bytes = static_cast<std::size_t>(exchange.block_bytes());
    const std::vector<unsigned char>& received = exchange.received();
    for (std::size_t i = 0; i < sources_.size(); ++i)
        for (std::size_t j = 0; j < bytes; ++j) {
            const unsigned char expected = sources_[i] == MPI_PROC_NULL
                                               ? NeighborExchange::scrambled
                                               : payload_byte(sources_[i], gather ? 0 : sender_blocks_[i], j);
            if (received[i * bytes + j] != expected) return false;
        }
    return true;
}

ValidationSummary validate(const Options& options, const std::vector<TopologyCommunicators>& communicators,
                           const std::vector<Experiment>& experiments, std::vector<ExperimentRecord>& records,
                           MPI_Comm control) {
    int rank = 0;
    MPI_Comm_rank(control, &rank);
    ValidationSummary summary;
    std::map<MPI_Comm, ExpectedDelivery> expected;  // worked out once per communicator
    std::set<std::pair<std::size_t, Collective>> native_reported;  // a native deviation repeats in every form and size
    for (std::size_t e = 0; e < experiments.size(); ++e) {
        const Experiment& experiment = experiments[e];
        const MPI_Comm comm = communicators[experiment.topology].variants[experiment.variant].comm;
        const auto [delivery, _] = expected.try_emplace(comm, comm);
        NeighborExchange exchange(comm, experiment.collective, experiment.form, experiment.bytes);
        const auto calls_before = library_calls(exchange.comm());
        const bool right = delivery->second.holds_for(exchange);
        // Ranks with wrong data, and ranks on which the library (not native MPI) ran the call.
        int counts[2] = {right ? 0 : 1, library_calls(exchange.comm()) != calls_before ? 1 : 0};
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
