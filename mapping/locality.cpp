#include "mapping/locality.h"

#include <hwloc.h>

#include <algorithm>
#include <utility>

namespace nbrcomb::detail {

namespace {

// Logical indexes of the package and of the NUMA node that hold every CPU this process may run
// on, -1 where none does (an unbound process on a multi-socket machine) or hwloc cannot tell.
struct BoundDomains {
    int package = -1;
    int numa = -1;
};

int domain_holding(hwloc_topology_t topology, hwloc_const_bitmap_t cpus, hwloc_obj_type_t type) {
    for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(topology, type, nullptr); obj;
         obj = hwloc_get_next_obj_by_type(topology, type, obj))
        if (hwloc_bitmap_isincluded(cpus, obj->cpuset)) return static_cast<int>(obj->logical_index);
    return -1;
}

BoundDomains bound_domains() {
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return {};
    BoundDomains domains;
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    if (cpus && hwloc_topology_load(topology) == 0 && hwloc_get_cpubind(topology, cpus, HWLOC_CPUBIND_PROCESS) == 0) {
        domains.package = domain_holding(topology, cpus, HWLOC_OBJ_PACKAGE);
        domains.numa = domain_holding(topology, cpus, HWLOC_OBJ_NUMANODE);
    }
    hwloc_bitmap_free(cpus);
    hwloc_topology_destroy(topology);
    return domains;
}

// This process's node, named by the lowest rank of comm on it.
int node_of(MPI_Comm comm) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    MPI_Comm node = MPI_COMM_NULL;
    PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int leader = rank;
    PMPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node);
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

    int place[2] = {node_of(comm), 0};
    int unknown = 0;
    if (settings.locality != Locality::node) {
        const BoundDomains bound = bound_domains();
        place[1] = settings.locality == Locality::package ? bound.package : bound.numa;
        unknown = place[1] < 0 ? 1 : 0;
        PMPI_Allreduce(MPI_IN_PLACE, &unknown, 1, MPI_INT, MPI_MAX, comm);
        if (unknown) place[1] = 0;
    }
    std::vector<int> places(2 * static_cast<std::size_t>(size));
    PMPI_Allgather(place, 2, MPI_INT, places.data(), 2, MPI_INT, comm);
    std::vector<std::pair<int, int>> distinct;
    for (std::size_t r = 0; r < places.size() / 2; ++r) distinct.emplace_back(places[2 * r], places[2 * r + 1]);
    std::vector<std::pair<int, int>> sorted = distinct;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::size_t r = 0; r < distinct.size(); ++r)
        (*domains)[r] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), distinct[r]) - sorted.begin());
    return {.of_rank = std::move(domains), .from_machine = true, .unbound = unknown != 0, .count = sorted.size()};
}

ProcessPlace this_process_place(MPI_Comm comm, int node_size) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    const BoundDomains bound = bound_domains();
    return {node_size > 0 ? rank / node_size : node_of(comm), bound.package, bound.numa};
}

}  // namespace nbrcomb::detail
