#include "nbrbench/validation.h"

#include "common/library_stats.h"
#include "common/neighborhood.h"

#include <cstdio>
#include <map>
#include <set>
#include <utility>

namespace nbrcomb::bench {

namespace {

// For each source of this process, the position of the edge in the sender's destinations, which
// names the send block that fills the receive block: every process sends each destination its
// position on comm (the k-th message from u to v is the k-th u in v's sources, MPI's order for
// repeated edges). Point to point, so that no process holds the whole graph. Collective over comm.
std::vector<int> sender_positions(MPI_Comm comm, const nbrcomb::common::Neighborhood& neighbors) {
    constexpr int tag = 4242;
    std::vector<int> positions(neighbors.sources.size(), -1), mine(neighbors.destinations.size());
    std::vector<MPI_Request> requests;
    for (std::size_t i = 0; i < neighbors.sources.size(); ++i) {
        requests.emplace_back();
        MPI_Irecv(&positions[i], 1, MPI_INT, neighbors.sources[i], tag, comm, &requests.back());
    }
    for (std::size_t d = 0; d < neighbors.destinations.size(); ++d) {
        mine[d] = static_cast<int>(d);
        requests.emplace_back();
        MPI_Isend(&mine[d], 1, MPI_INT, neighbors.destinations[d], tag, comm, &requests.back());
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return positions;
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
    sender_blocks_ = sender_positions(comm, neighbors);
}

bool ExpectedDelivery::holds_for(NeighborExchange& exchange) const {
    exchange.scramble_received();
    exchange.run();
    const bool gather = exchange.collective() == Collective::allgather || exchange.collective() == Collective::allgatherv;
    const std::vector<unsigned char>& received = exchange.received();
    for (std::size_t i = 0; i < sources_.size(); ++i) {
        const auto offset = static_cast<std::size_t>(exchange.received_offset(static_cast<int>(i)));
        const auto bytes = static_cast<std::size_t>(exchange.received_bytes(static_cast<int>(i)));
        for (std::size_t j = 0; j < bytes; ++j) {
            const unsigned char expected = sources_[i] == MPI_PROC_NULL
                                               ? NeighborExchange::scrambled
                                               : payload_byte(sources_[i], gather ? 0 : sender_blocks_[i], j);
            if (received[offset + j] != expected) return false;
        }
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
        NeighborExchange exchange(comm, experiment.collective, experiment.form, experiment.bytes,
                                  calls::Path::library, Scope::neighborhood, communicators[experiment.topology].blocks);
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
