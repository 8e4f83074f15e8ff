#include "mapping/binding.h"

#include <hwloc.h>

namespace nbrcomb::detail {

namespace {

int domain_holding(hwloc_topology_t topology, hwloc_const_bitmap_t cpus, hwloc_obj_type_t type) {
    for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(topology, type, nullptr); obj;
         obj = hwloc_get_next_obj_by_type(topology, type, obj))
        if (hwloc_bitmap_isincluded(cpus, obj->cpuset)) return static_cast<int>(obj->logical_index);
    return -1;
}

}  // namespace

std::optional<BoundDomains> bound_domains() {
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return BoundDomains{};
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

}  // namespace nbrcomb::detail
