#include "topology/generators.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace nbrcomb::topology {

namespace {

Graphs edgeless(int processes) {
    if (processes < 1) throw std::invalid_argument("a topology needs at least one process");
    Graphs graphs(static_cast<std::size_t>(processes));
    for (int r = 0; r < processes; ++r) graphs[static_cast<std::size_t>(r)].rank = r;
    return graphs;
}

// Fills every in-list from the out-lists, in ascending order of the source, each list sized
// once: the large random graphs hold tens of millions of edges.
void fill_sources(Graphs& graphs) {
    std::vector<std::size_t> in_degree(graphs.size(), 0);
    for (const auto& graph : graphs)
        for (const int v : graph.destinations) ++in_degree[static_cast<std::size_t>(v)];
    for (std::size_t v = 0; v < graphs.size(); ++v) {
        graphs[v].sources.clear();
        graphs[v].sources.reserve(in_degree[v]);
    }
    for (const auto& graph : graphs)
        for (const int v : graph.destinations) graphs[static_cast<std::size_t>(v)].sources.push_back(graph.rank);
}

// A double in (0, 1] from 53 random bits, so the graph depends on the seed alone, not on the
// standard library's distributions.
double unit_interval(std::mt19937_64& random) {
    return static_cast<double>((random() >> 11) + 1) * 0x1.0p-53;
}

// Fisher-Yates from the generator's bits alone.
template <class T>
void shuffle(std::vector<T>& items, std::mt19937_64& random) {
    for (int i = static_cast<int>(items.size()) - 1; i > 0; --i) {
        const int j = std::min(i, static_cast<int>(unit_interval(random) * (i + 1)));
        std::swap(items[static_cast<std::size_t>(i)], items[static_cast<std::size_t>(j)]);
    }
}

// The random order of one process's lists: its own stream, from the seed and its rank.
std::mt19937_64 process_random(std::uint64_t seed, int rank) {
    return std::mt19937_64(seed ^ (0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(rank) + 1)));
}

[[noreturn]] void unsupported(const char* what) {
    throw std::invalid_argument(std::string("a list order that ") + what + " does not have");
}

enum class Norm { chebyshev, manhattan };

// The offsets in [-radius, radius]^dims at norm 1..radius, in lexicographic order. The set is
// symmetric, so the same list read backwards from a process gives its sources.
std::vector<std::vector<int>> stencil_offsets(int dims, int radius, Norm norm) {
    std::vector<std::vector<int>> offsets;
    std::vector<int> offset(static_cast<std::size_t>(dims), -radius);
    for (bool more = true; more;) {
        int distance = 0;
        for (const int o : offset)
            distance = norm == Norm::chebyshev ? std::max(distance, std::abs(o)) : distance + std::abs(o);
        if (distance > 0 && distance <= radius) offsets.push_back(offset);
        more = false;
        for (auto d = offset.size(); d-- > 0 && !more;) {
            if (offset[d] < radius) {
                ++offset[d];
                more = true;
            } else {
                offset[d] = -radius;
            }
        }
    }
    return offsets;
}

// Out-edge to rank + o and in-edge from rank - o for every offset o: the edge with offset o
// from u to u + o appears once at each end, so the k-th rule holds on any grid, however
// small, where several offsets wrap to the same process.
Graphs periodic_stencil(int processes, int dims, int radius, Norm norm, ListOrder order, std::uint64_t seed) {
    if (radius < 0) throw std::invalid_argument("a stencil radius must not be negative");
    if (order == ListOrder::linear) unsupported("a stencil");
    const std::vector<int> extent = balanced_dims(processes, dims);
    auto offsets = stencil_offsets(dims, radius, norm);
    if (order == ListOrder::column_major)
        std::ranges::sort(offsets, [](const std::vector<int>& a, const std::vector<int>& b) {
            return std::ranges::lexicographical_compare(a.rbegin(), a.rend(), b.rbegin(), b.rend());
        });
    const auto shifted = [&](int rank, const std::vector<int>& by, int sign) {
        int result = 0;
        for (int d = 0, stride = processes; d < dims; ++d) {
            const int n = extent[static_cast<std::size_t>(d)];
            stride /= n;
            const int coord = rank / stride % n;
            // The offset may exceed the extent on small grids; reduce it before adding.
            const int step = (sign * by[static_cast<std::size_t>(d)]) % n + n;
            result += (coord + step) % n * stride;
        }
        return result;
    };
    Graphs graphs = edgeless(processes);
    for (auto& graph : graphs) {
        graph.destinations.reserve(offsets.size());
        graph.sources.reserve(offsets.size());
        std::vector<std::vector<int>> listed = offsets;
        if (order == ListOrder::random) {
            std::mt19937_64 random = process_random(seed, graph.rank);
            shuffle(listed, random);
        }
        for (const auto& o : listed) {
            graph.destinations.push_back(shifted(graph.rank, o, +1));
            graph.sources.push_back(shifted(graph.rank, o, -1));
        }
    }
    return graphs;
}

// Process r owns indices [first(r), first(r + 1)) of n: the halo job's row blocks.
class Blocks {
public:
    Blocks(std::int64_t n, int processes) : first_(static_cast<std::size_t>(processes) + 1) {
        for (int r = 0; r <= processes; ++r) first_[static_cast<std::size_t>(r)] = n * r / processes;
    }
    int owner(std::int64_t i) const {
        return static_cast<int>(std::upper_bound(first_.begin(), first_.end(), i) - first_.begin()) - 1;
    }

private:
    std::vector<std::int64_t> first_;
};

}  // namespace

std::vector<int> balanced_dims(int processes, int dims) {
    if (processes < 1 || dims < 1) throw std::invalid_argument("a grid needs at least one process and one dimension");
    // Every non-increasing factorization, each factor at least the root of what is left, is
    // tried; the one with the least spread wins, ties to the lexicographically smallest.
    std::vector<int> best, factors;
    const std::function<void(int, int)> search = [&](int rest, int left) {
        if (left == 0) {
            if (rest != 1) return;
            const auto spread = [](const std::vector<int>& f) { return f.front() - f.back(); };
            if (best.empty() || spread(factors) < spread(best) || (spread(factors) == spread(best) && factors < best))
                best = factors;
            return;
        }
        const int largest = factors.empty() ? rest : std::min(rest, factors.back());
        for (int f = largest; f >= 1; --f) {
            if (std::pow(static_cast<double>(f), left) < static_cast<double>(rest) - 0.5) break;
            if (rest % f != 0) continue;
            factors.push_back(f);
            search(rest / f, left - 1);
            factors.pop_back();
        }
    };
    search(processes, dims);
    return best;
}

Graphs moore(int processes, int dims, int radius, ListOrder order, std::uint64_t seed) {
    return periodic_stencil(processes, dims, radius, Norm::chebyshev, order, seed);
}

Graphs von_neumann(int processes, int dims, int radius, ListOrder order, std::uint64_t seed) {
    return periodic_stencil(processes, dims, radius, Norm::manhattan, order, seed);
}

Graphs complete(int processes, ListOrder order, std::uint64_t seed) {
    if (order != ListOrder::linear && order != ListOrder::random) unsupported("a complete graph");
    Graphs graphs = edgeless(processes);
    for (auto& graph : graphs) {
        for (int i = 0; i < processes; ++i) {
            graph.sources.push_back((graph.rank + i) % processes);
            graph.destinations.push_back((graph.rank - i + processes) % processes);
        }
        if (order == ListOrder::random) {
            std::mt19937_64 random = process_random(seed, graph.rank);
            shuffle(graph.sources, random);
            shuffle(graph.destinations, random);
        }
    }
    return graphs;
}

Graphs erdos_renyi(int processes, double density, std::uint64_t seed) {
    if (!(density >= 0.0 && density <= 1.0)) throw std::invalid_argument("an edge density must lie in [0, 1]");
    Graphs graphs = edgeless(processes);
    std::mt19937_64 random(seed);
    const auto candidates = static_cast<std::int64_t>(processes) - 1;  // every v != u, in order
    // The gaps between successive edges of a row are geometric: one draw per edge, not per pair.
    const double log_miss = std::log1p(-density);
    const double expected = density * static_cast<double>(candidates);
    for (auto& graph : graphs) {
        if (density == 0.0) continue;
        graph.destinations.reserve(static_cast<std::size_t>(expected + 4.0 * std::sqrt(expected) + 16.0));
        for (std::int64_t k = -1;;) {
            const double gap = density == 1.0 ? 0.0 : std::floor(std::log(unit_interval(random)) / log_miss);
            if (gap >= static_cast<double>(candidates - k - 1)) break;
            k += 1 + static_cast<std::int64_t>(gap);
            graph.destinations.push_back(static_cast<int>(k < graph.rank ? k : k + 1));
        }
    }
    fill_sources(graphs);
    return graphs;
}

Graphs matrix_halo(const nbrcomb::common::CooMatrix& matrix, int processes) {
    Graphs graphs = edgeless(processes);
    const Blocks rows(matrix.rows, processes), cols(matrix.cols, processes);
    std::vector<std::pair<int, int>> edges;  // (owner of the column, owner of the row)
    for (const auto& entry : matrix.entries) {
        const int to = rows.owner(entry.row), from = cols.owner(entry.col);
        if (to != from) edges.emplace_back(from, to);
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    for (const auto& [from, to] : edges) graphs[static_cast<std::size_t>(from)].destinations.push_back(to);
    fill_sources(graphs);
    return graphs;
}

Graphs matrix_halo(const std::string& matrix_market_path, int processes) {
    return matrix_halo(nbrcomb::common::read_matrix_market(matrix_market_path), processes);
}

Graphs renumber_ranks(const Graphs& graphs, const std::vector<int>& new_rank) {
    Graphs renumbered = edgeless(static_cast<int>(graphs.size()));
    const auto renamed = [&](int v) { return new_rank[static_cast<std::size_t>(v)]; };
    for (const auto& graph : graphs) {
        auto& destinations = renumbered[static_cast<std::size_t>(renamed(graph.rank))].destinations;
        for (const int v : graph.destinations) destinations.push_back(renamed(v));
    }
    fill_sources(renumbered);
    return renumbered;
}

Graphs shuffle_ranks(const Graphs& graphs, std::uint64_t seed) {
    std::vector<int> new_rank(graphs.size());
    std::iota(new_rank.begin(), new_rank.end(), 0);
    std::mt19937_64 random(seed);
    shuffle(new_rank, random);
    return renumber_ranks(graphs, new_rank);
}

}  // namespace nbrcomb::topology
