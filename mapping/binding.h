// Where this process's CPU binding lies inside its node: the package and the NUMA domain (hwloc).
#pragma once

#include <optional>

namespace nbrcomb::detail {

// Logical indexes of the package and of the NUMA node that hold every CPU this process may run
// on, -1 where none does (an unbound process on a multi-socket machine) or hwloc cannot tell.
struct BoundDomains {
    int package = -1;
    int numa = -1;
};

// None in a build without hwloc (NBRCOMB_WITH_HWLOC), which has binding_without_hwloc.cpp.
std::optional<BoundDomains> bound_domains();

}  // namespace nbrcomb::detail
