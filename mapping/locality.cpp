#include "mapping/locality.h"

#include "mapping/binding.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace nbrcomb::detail {

RegularNodes regular_nodes_part(int first, int size, bool consecutive, int comm_size) {
    const bool last = first + size == comm_size;
    return {size, last ? -comm_size : -size, consecutive ? 0 : 1};
}

int regular_node_size(const RegularNodes& maximum) {
    // Nodes of consecutive ranks partition them in order: where every node but the last is as large
    // as the largest, node k holds ranks k * size on.
    const int size = maximum[0], smallest_but_last = -maximum[1];
    return maximum[2] == 0 && smallest_but_last >= size ? size : 0;
}

namespace {

// This process's node among comm's ranks: the lowest of them on it, how many, and whether they
// follow one another. Collective over comm.
struct NodeSpan {
    int first = 0;
    int size = 1;
    bool consecutive = true;
};

NodeSpan node_span(MPI_Comm comm) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    MPI_Comm node = MPI_COMM_NULL;
    PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Group node_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    PMPI_Comm_group(node, &node_group);
    PMPI_Comm_group(comm, &group);
    int size = 0;
    PMPI_Group_size(node_group, &size);
    // The node's ranks in comm, in order: the node communicator is ordered by them.
    std::vector<int> node_ranks(static_cast<std::size_t>(size)), ranks(node_ranks.size());
    for (int i = 0; i < size; ++i) node_ranks[static_cast<std::size_t>(i)] = i;
    PMPI_Group_translate_ranks(node_group, size, node_ranks.data(), group, ranks.data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&node_group);
    PMPI_Comm_free(&node);
    return {.first = ranks.front(), .size = size, .consecutive = ranks.back() - ranks.front() == size - 1};
}

// regular_node_size over comm: one MPI_MAX reduction. Collective over comm.
int agreed_regular_node_size(const NodeSpan& span, MPI_Comm comm) {
    int comm_size = 0;
    PMPI_Comm_size(comm, &comm_size);
    RegularNodes maximum = regular_nodes_part(span.first, span.size, span.consecutive, comm_size);
    PMPI_Allreduce(MPI_IN_PLACE, maximum.data(), static_cast<int>(maximum.size()), MPI_INT, MPI_MAX, comm);
    return regular_node_size(maximum);
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

    const NodeSpan span = node_span(comm);
    if (settings.locality == Locality::node)
        if (const int regular = agreed_regular_node_size(span, comm); regular > 0) {
            for (int r = 0; r < size; ++r) (*domains)[static_cast<std::size_t>(r)] = r / regular;
            return {.of_rank = std::move(domains),
                    .from_machine = true,
                    .count = static_cast<std::size_t>((size + regular - 1) / regular)};
        }
    // Each process's node and, below nodes, its domain: one int where nodes are all, since the
    // gathered bytes pass every node's link at thousands of processes.
    const int width = settings.locality == Locality::node ? 1 : 2;
    int place[2] = {span.first, 0};
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
    return {node_size > 0 ? rank / node_size : node_span(comm).first, bound.package, bound.numa};
}

}  // namespace nbrcomb::detail
