// graph_partition.cpp in a build without METIS: reorder=1 asks partitioning_built first and
// keeps the ranks, so only a direct caller gets here.
#include "mapping/graph_partition.h"

#include <stdexcept>

namespace nbrcomb::detail {

const bool partitioning_built = false;

std::vector<int> partition_exact(const ProcessGraph&, std::span<const int>) {
    throw std::runtime_error("this libnbrcomb was built without METIS, which partitions graphs");
}

}  // namespace nbrcomb::detail
