#include "common/matrix_market.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nbrcomb::common {
namespace {

std::string lowercase(std::string text) {
    std::ranges::transform(text, text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::runtime_error malformed(const std::string& path, const std::string& what) {
    return std::runtime_error(path + ": " + what);
}

} // namespace

CooMatrix read_matrix_market(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");

    std::string line;
    std::getline(in, line);
    std::istringstream banner(lowercase(line));
    std::string tag, object, format, field, symmetry;
    banner >> tag >> object >> format >> field >> symmetry;
    if (tag != "%%matrixmarket" || object != "matrix" || format != "coordinate")
        throw malformed(path, "not a Matrix Market coordinate matrix");
    if (field != "real" && field != "integer" && field != "pattern")
        throw malformed(path, "field '" + field + "' is not supported (real, integer or pattern)");
    if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric")
        throw malformed(path, "symmetry '" + symmetry + "' is not supported");
    const bool pattern = field == "pattern";
    const bool mirrored = symmetry != "general";
    const double mirror_sign = symmetry == "skew-symmetric" ? -1.0 : 1.0;

    while (std::getline(in, line) && (line.empty() || line.front() == '%')) {
    }
    CooMatrix matrix;
    std::int64_t stored = 0;
    if (!(std::istringstream(line) >> matrix.rows >> matrix.cols >> stored) || matrix.rows < 0 ||
        matrix.cols < 0 || stored < 0)
        throw malformed(path, "bad size line");

    matrix.entries.reserve(static_cast<std::size_t>(mirrored ? 2 * stored : stored));
    for (std::int64_t k = 0; k < stored; ++k) {
        std::int64_t row = 0, col = 0;
        double value = 1.0;
        if (!(in >> row >> col) || (!pattern && !(in >> value)))
            throw malformed(path, "entry " + std::to_string(k + 1) + " of " + std::to_string(stored) + " is missing or bad");
        if (row < 1 || row > matrix.rows || col < 1 || col > matrix.cols)
            throw malformed(path, "entry " + std::to_string(k + 1) + " is outside the matrix");
        matrix.entries.push_back({row - 1, col - 1, value});
        if (mirrored && row != col) matrix.entries.push_back({col - 1, row - 1, mirror_sign * value});
    }
    return matrix;
}

std::string resolve_matrix_path(const std::string& matrix) {
    namespace fs = std::filesystem;
    for (const fs::path& candidate : {fs::path(matrix), fs::path(NBRCOMB_MATRICES_DIR) / matrix,
                                     fs::path(NBRCOMB_MATRICES_DIR) / (matrix + ".mtx")})
        if (fs::is_regular_file(candidate)) return candidate.string();
    throw std::invalid_argument("no matrix file '" + matrix + "' (nor in " NBRCOMB_MATRICES_DIR ")");
}

} // namespace nbrcomb::common
