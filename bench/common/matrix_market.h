// Reader for real, integer and pattern matrices in Matrix Market coordinate format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nbrcomb::common {

struct MatrixEntry {
    std::int64_t row; // 0-based
    std::int64_t col; // 0-based
    double value;
};

struct CooMatrix {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    // Every nonzero of the full matrix, in file order: symmetric and skew-symmetric storage is
    // expanded, pattern entries are 1.
    std::vector<MatrixEntry> entries;
};

// Throws std::runtime_error on an unreadable, malformed or complex-valued file.
CooMatrix read_matrix_market(const std::string& path);

// A matrix argument that names no file is looked up in the repository's matrices (bench/data), with or
// without its .mtx suffix, so that "SmaGri" works from any directory.
std::string resolve_matrix_path(const std::string& matrix);

} // namespace nbrcomb::common
