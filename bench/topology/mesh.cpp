#include "topology/mesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>
#include <utility>

namespace nbrcomb::topology {

namespace {

constexpr int faces_per_cell = 4;

// A double in [0, 1) from 53 random bits: the mesh depends on the seed alone.
double unit(std::mt19937_64& random) { return static_cast<double>(random() >> 11) * 0x1.0p-53; }

// Rows from unsorted, possibly repeated (row, column) pairs; the diagonal dropped.
SparsePattern pattern_of(int rows, std::vector<std::pair<int, int>> entries) {
    std::ranges::sort(entries);
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    SparsePattern pattern;
    pattern.offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
    for (const auto& [row, column] : entries) {
        if (row == column) continue;
        ++pattern.offsets[static_cast<std::size_t>(row) + 1];
        pattern.neighbors.push_back(column);
    }
    for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) pattern.offsets[r + 1] += pattern.offsets[r];
    return pattern;
}

template <class Visit>
void for_each_neighbor(const SparsePattern& pattern, int row, Visit visit) {
    for (int k = pattern.offsets[static_cast<std::size_t>(row)]; k < pattern.offsets[static_cast<std::size_t>(row) + 1];
         ++k)
        visit(pattern.neighbors[static_cast<std::size_t>(k)]);
}

// Aggregates of one level: a root and its unaggregated neighbors of the same process, roots taken
// in row order where all of those are free; then every row left joins the aggregate of a
// neighbor of its process, or stays alone. Numbered in order of their roots.
std::vector<int> aggregate(const MultigridLevel& level) {
    const int rows = level.matrix.rows();
    std::vector<int> aggregate_of(static_cast<std::size_t>(rows), -1);
    const auto same_process = [&](int i, int j) {
        return level.owner[static_cast<std::size_t>(i)] == level.owner[static_cast<std::size_t>(j)];
    };
    int aggregates = 0;
    for (int i = 0; i < rows; ++i) {
        bool free = aggregate_of[static_cast<std::size_t>(i)] < 0;
        for_each_neighbor(level.matrix, i, [&](int j) {
            if (same_process(i, j) && aggregate_of[static_cast<std::size_t>(j)] >= 0) free = false;
        });
        if (!free) continue;
        aggregate_of[static_cast<std::size_t>(i)] = aggregates;
        for_each_neighbor(level.matrix, i, [&](int j) {
            if (same_process(i, j)) aggregate_of[static_cast<std::size_t>(j)] = aggregates;
        });
        ++aggregates;
    }
    std::vector<int> joined = aggregate_of;
    for (int i = 0; i < rows; ++i) {
        if (aggregate_of[static_cast<std::size_t>(i)] >= 0) continue;
        for_each_neighbor(level.matrix, i, [&](int j) {
            if (joined[static_cast<std::size_t>(i)] < 0 && same_process(i, j) &&
                aggregate_of[static_cast<std::size_t>(j)] >= 0)
                joined[static_cast<std::size_t>(i)] = aggregate_of[static_cast<std::size_t>(j)];
        });
        if (joined[static_cast<std::size_t>(i)] < 0) joined[static_cast<std::size_t>(i)] = aggregates++;
    }
    return joined;
}

}  // namespace

SparsePattern random_geometric_mesh(int cells, std::uint64_t seed) {
    if (cells < faces_per_cell + 1) throw std::invalid_argument("a mesh needs at least 5 cells");
    std::mt19937_64 random(seed);
    std::vector<std::array<double, 3>> points(static_cast<std::size_t>(cells));
    for (auto& point : points)
        for (double& x : point) x = unit(random);
    // Buckets of about two points; a cell's nearest are looked for in the 27 around its own.
    const int side = std::max(1, static_cast<int>(std::cbrt(cells / 2.0)));
    const auto bucket_of = [side](double x) { return std::min(side - 1, static_cast<int>(x * side)); };
    const auto bucket_index = [side](int x, int y, int z) { return (x * side + y) * side + z; };
    std::vector<int> bucket_start(static_cast<std::size_t>(side) * side * side + 1, 0), by_bucket(points.size());
    std::vector<int> bucket(points.size());
    for (std::size_t c = 0; c < points.size(); ++c) {
        bucket[c] = bucket_index(bucket_of(points[c][0]), bucket_of(points[c][1]), bucket_of(points[c][2]));
        ++bucket_start[static_cast<std::size_t>(bucket[c]) + 1];
    }
    for (std::size_t b = 1; b < bucket_start.size(); ++b) bucket_start[b] += bucket_start[b - 1];
    std::vector<int> fill(bucket_start.begin(), bucket_start.end() - 1);
    for (std::size_t c = 0; c < points.size(); ++c)
        by_bucket[static_cast<std::size_t>(fill[static_cast<std::size_t>(bucket[c])]++)] = static_cast<int>(c);

    std::vector<std::pair<int, int>> faces;
    faces.reserve(points.size() * 2 * faces_per_cell);
    std::vector<std::pair<double, int>> candidates;
    for (int c = 0; c < cells; ++c) {
        const auto& p = points[static_cast<std::size_t>(c)];
        const int bx = bucket_of(p[0]), by = bucket_of(p[1]), bz = bucket_of(p[2]);
        candidates.clear();
        for (int x = std::max(0, bx - 1); x <= std::min(side - 1, bx + 1); ++x)
            for (int y = std::max(0, by - 1); y <= std::min(side - 1, by + 1); ++y)
                for (int z = std::max(0, bz - 1); z <= std::min(side - 1, bz + 1); ++z) {
                    const auto b = static_cast<std::size_t>(bucket_index(x, y, z));
                    for (int k = bucket_start[b]; k < bucket_start[b + 1]; ++k) {
                        const int other = by_bucket[static_cast<std::size_t>(k)];
                        if (other == c) continue;
                        const auto& q = points[static_cast<std::size_t>(other)];
                        const double d = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                                         (p[2] - q[2]) * (p[2] - q[2]);
                        candidates.emplace_back(d, other);
                    }
                }
        const auto nearest = std::min<std::size_t>(faces_per_cell, candidates.size());
        std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(nearest),
                          candidates.end());
        for (std::size_t k = 0; k < nearest; ++k) {
            faces.emplace_back(c, candidates[k].second);
            faces.emplace_back(candidates[k].second, c);
        }
    }
    return pattern_of(cells, std::move(faces));
}

MultigridLevel coarsen(const MultigridLevel& fine) {
    const SparsePattern& a = fine.matrix;
    const std::vector<int> aggregate_of = aggregate(fine);
    const int coarse_rows = 1 + *std::ranges::max_element(aggregate_of);
    MultigridLevel coarse;
    coarse.owner.assign(static_cast<std::size_t>(coarse_rows), 0);
    for (int i = 0; i < a.rows(); ++i)
        coarse.owner[static_cast<std::size_t>(aggregate_of[static_cast<std::size_t>(i)])] =
            fine.owner[static_cast<std::size_t>(i)];
    // The smoothed prolongator's row i: the aggregates of i and of its neighbors.
    std::vector<std::vector<int>> p_row(static_cast<std::size_t>(a.rows()));
    for (int i = 0; i < a.rows(); ++i) {
        auto& row = p_row[static_cast<std::size_t>(i)];
        row.push_back(aggregate_of[static_cast<std::size_t>(i)]);
        for_each_neighbor(a, i, [&](int j) { row.push_back(aggregate_of[static_cast<std::size_t>(j)]); });
        std::ranges::sort(row);
        row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    // (P^T A P)(I, J) is nonzero where P(i, I), A(i, k) and P(k, J) are, for some i and k (A with
    // its diagonal): each coarse row I gathers, over the fine rows i of its column of P, the
    // rows of P of i and of i's neighbors.
    std::vector<std::vector<int>> p_column(static_cast<std::size_t>(coarse_rows));
    for (int i = 0; i < a.rows(); ++i)
        for (const int big_i : p_row[static_cast<std::size_t>(i)]) p_column[static_cast<std::size_t>(big_i)].push_back(i);
    std::vector<int> seen(static_cast<std::size_t>(coarse_rows), -1);
    coarse.matrix.offsets.assign(1, 0);
    std::vector<int> row;
    for (int big_i = 0; big_i < coarse_rows; ++big_i) {
        row.clear();
        const auto add_row_of_p = [&](int k) {
            for (const int big_j : p_row[static_cast<std::size_t>(k)])
                if (big_j != big_i && seen[static_cast<std::size_t>(big_j)] != big_i) {
                    seen[static_cast<std::size_t>(big_j)] = big_i;
                    row.push_back(big_j);
                }
        };
        for (const int i : p_column[static_cast<std::size_t>(big_i)]) {
            add_row_of_p(i);
            for_each_neighbor(a, i, add_row_of_p);
        }
        std::ranges::sort(row);
        coarse.matrix.neighbors.insert(coarse.matrix.neighbors.end(), row.begin(), row.end());
        coarse.matrix.offsets.push_back(static_cast<int>(coarse.matrix.neighbors.size()));
    }
    return coarse;
}

WeightedGraphs halo_exchange(const MultigridLevel& level, int processes) {
    if (processes < 1) throw std::invalid_argument("a topology needs at least one process");
    // (receiver, sender, column): each x_j a process needs, once.
    std::vector<std::array<int, 3>> needs;
    for (int i = 0; i < level.matrix.rows(); ++i) {
        const int receiver = level.owner[static_cast<std::size_t>(i)];
        for_each_neighbor(level.matrix, i, [&](int j) {
            const int sender = level.owner[static_cast<std::size_t>(j)];
            if (sender != receiver) needs.push_back({receiver, sender, j});
        });
    }
    std::ranges::sort(needs);
    needs.erase(std::unique(needs.begin(), needs.end()), needs.end());
    std::map<std::pair<int, int>, int> blocks;  // (sender, receiver) -> entries of x
    for (const auto& [receiver, sender, column] : needs) ++blocks[{sender, receiver}];

    WeightedGraphs result;
    result.graphs.resize(static_cast<std::size_t>(processes));
    result.blocks.resize(static_cast<std::size_t>(processes));
    for (int r = 0; r < processes; ++r) result.graphs[static_cast<std::size_t>(r)].rank = r;
    // The map's order gives every out-list in ascending receiver order and, since senders come
    // in ascending order too, every in-list in ascending sender order.
    for (const auto& [edge, count] : blocks) {
        const auto [sender, receiver] = edge;
        result.graphs[static_cast<std::size_t>(sender)].destinations.push_back(receiver);
        result.blocks[static_cast<std::size_t>(sender)].destinations.push_back(count);
        result.graphs[static_cast<std::size_t>(receiver)].sources.push_back(sender);
        result.blocks[static_cast<std::size_t>(receiver)].sources.push_back(count);
    }
    return result;
}

WeightedGraphs mesh_level_exchange(int cells, int level, std::uint64_t seed, int processes) {
    if (level < 0) throw std::invalid_argument("a multigrid level is 0 (the mesh) or more");
    MultigridLevel current;
    current.matrix = random_geometric_mesh(cells, seed);
    current.owner = partition_rows(current.matrix, processes);
    for (int l = 0; l < level; ++l) current = coarsen(current);
    return halo_exchange(current, processes);
}

}  // namespace nbrcomb::topology
