// The meshes' partitions (mesh.h), with METIS.
#include "topology/mesh.h"

#include <metis.h>

#include <stdexcept>
#include <string>

namespace nbrcomb::topology {

const bool mesh_partitioning_built = true;

std::vector<int> partition_rows(const SparsePattern& pattern, int parts) {
    if (parts < 1) throw std::invalid_argument("a partition needs at least one part");
    idx_t vertices = pattern.rows(), constraints = 1, metis_parts = parts, cut = 0;
    if (parts == 1) return std::vector<int>(static_cast<std::size_t>(vertices), 0);
    std::vector<idx_t> offsets(pattern.offsets.begin(), pattern.offsets.end());
    std::vector<idx_t> neighbors(pattern.neighbors.begin(), pattern.neighbors.end());
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;
    std::vector<idx_t> part(static_cast<std::size_t>(vertices));
    const int status = METIS_PartGraphKway(&vertices, &constraints, offsets.data(), neighbors.data(), nullptr, nullptr,
                                           nullptr, &metis_parts, nullptr, nullptr, options, &cut, part.data());
    if (status != METIS_OK) throw std::runtime_error("METIS failed with status " + std::to_string(status));
    return {part.begin(), part.end()};
}

}  // namespace nbrcomb::topology
