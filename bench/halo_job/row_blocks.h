// The halo job's distribution: rows of the matrix, and entries of the vectors, in consecutive
// blocks of near-equal size, block r on process r.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace halo_job {

class RowBlocks {
public:
    RowBlocks(std::int64_t rows, int processes) : first_(static_cast<std::size_t>(processes) + 1) {
        for (int r = 0; r <= processes; ++r) first_[static_cast<std::size_t>(r)] = rows * r / processes;
    }
    // Process r owns rows [first(r), first(r + 1)).
    std::int64_t first(int r) const { return first_[static_cast<std::size_t>(r)]; }
    // With more processes than rows some blocks are empty; the owner is the one that is not.
    int owner(std::int64_t row) const {
        return static_cast<int>(std::ranges::upper_bound(first_, row) - first_.begin()) - 1;
    }

private:
    std::vector<std::int64_t> first_;
};

} // namespace halo_job
