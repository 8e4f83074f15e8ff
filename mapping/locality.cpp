#include "mapping/locality.h"

#include "mapping/binding.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace nbrcomb::detail {

namespace {

// This process's node, named by the lowest rank of comm on it: the node communicator's rank 0,
// ordered by rank of comm, found in the groups without a message.
int node_of(MPI_Comm comm) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    MPI_Comm node = MPI_COMM_NULL;
    PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Group node_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    PMPI_Comm_group(node, &node_group);
    PMPI_Comm_group(comm, &group);
    const int first = 0;
    int leader = rank;
    PMPI_Group_translate_ranks(node_group, 1, &first, group, &leader);
    PMPI_Group_free(&group);
    PMPI_Group_free(&node_group);
    PMPI_Comm_free(&node);
    return leader;
}

}  // namespace

LocalityDomains locality_domains(MPI_Comm comm, const MappingSettings& settings,
                                 std::span<const int> emulated_nodes) {
    if (settings.locality == Locality::agnostic) return {};
    int size = 0;
    PMPI_Comm_size(comm, &size);
    auto domains = std::make_shared<std::vector<int>>(static_cast<std::size_t>(size));
    if (settings.node_size > 0) {
        for (int r = 0; r < size; ++r)
            (*domains)[static_cast<std::size_t>(r)] =
                emulated_nodes.empty() ? r / settings.node_size : emulated_nodes[r];
        return {.of_rank = std::move(domains)};
    }

    // Each process's node and, below nodes, its domain: one int where nodes are all, since the
    // gathered bytes pass every node's link at thousands of processes.
    const int width = settings.locality == Locality::node ? 1 : 2;
    int place[2] = {node_of(comm), 0};
    int unknown = 0;
    bool without_hwloc = false;
    if (settings.locality != Locality::node) {
        const std::optional<BoundDomains> bound = bound_domains();
        without_hwloc = !bound;
        if (bound) {
            place[1] = settings.locality == Locality::package ? bound->package : bound->numa;
            unknown = place[1] < 0 ? 1 : 0;
            PMPI_Allreduce(MPI_IN_PLACE, &unknown, 1, MPI_INT, MPI_MAX, comm);
            if (unknown) place[1] = 0;
        }
    }
    std::vector<int> places(static_cast<std::size_t>(width * size));
    PMPI_Allgather(place, width, MPI_INT, places.data(), width, MPI_INT, comm);
    std::vector<std::pair<int, int>> distinct;
    for (std::size_t r = 0; r < places.size(); r += static_cast<std::size_t>(width))
        distinct.emplace_back(places[r], width == 2 ? places[r + 1] : 0);
    std::vector<std::pair<int, int>> sorted = distinct;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::size_t r = 0; r < distinct.size(); ++r)
        (*domains)[r] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), distinct[r]) - sorted.begin());
    return {.of_rank = std::move(domains),
            .from_machine = true,
            .without_hwloc = without_hwloc,
            .unbound = unknown != 0,
            .count = sorted.size()};
}

ProcessPlace this_process_place(MPI_Comm comm, int node_size) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    const BoundDomains bound = bound_domains().value_or(BoundDomains{});
    return {node_size > 0 ? rank / node_size : node_of(comm), bound.package, bound.numa};
}

}  // namespace nbrcomb::detail
