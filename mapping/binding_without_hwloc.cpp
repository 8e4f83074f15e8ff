// binding.cpp in a build without hwloc: no binding is known, and nodes stand for packages and
// NUMA domains (locality.h).
#include "mapping/binding.h"

namespace nbrcomb::detail {

std::optional<BoundDomains> bound_domains() { return std::nullopt; }

}  // namespace nbrcomb::detail
