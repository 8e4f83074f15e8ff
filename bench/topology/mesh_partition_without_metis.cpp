// mesh_partition.cpp in a build without METIS: parse_topology refuses meshes, so only a direct
// caller gets here.
#include "topology/mesh.h"

#include <stdexcept>

namespace nbrcomb::topology {

const bool mesh_partitioning_built = false;

std::vector<int> partition_rows(const SparsePattern&, int) {
    throw std::runtime_error("this build has no METIS, which partitions meshes");
}

}  // namespace nbrcomb::topology
