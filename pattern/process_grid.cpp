#include "pattern/process_grid.h"

#include "pattern/message_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numeric>

namespace nbrcomb::detail {

namespace {

// The last round of a schedule only unpacks, so a grid has a dimension less than a call may
// have rounds.
constexpr std::size_t max_dims = RoundCosts::rounds - 1;

std::size_t stride_of(const std::vector<int>& dims, std::size_t d) {
    std::size_t stride = 1;
    for (std::size_t e = d + 1; e < dims.size(); ++e) stride *= static_cast<std::size_t>(dims[e]);
    return stride;
}

int coordinate_of(std::size_t index, const std::vector<int>& dims, std::size_t d) {
    return static_cast<int>(index / stride_of(dims, d) % static_cast<std::size_t>(dims[d]));
}

int cyclic_distance(int a, int b, int n) {
    const int apart = std::abs(a - b);
    return std::min(apart, n - apart);
}

// count as the product of factors factors as equal as possible (MPI_Dims_create's balance),
// largest first, ones left out.
std::vector<int> balanced(int count, int factors) {
    std::vector<int> primes;
    for (int p = 2, rest = count; rest > 1;) {
        if (rest % p == 0) {
            primes.push_back(p);
            rest /= p;
        } else {
            p = p * p > rest ? rest : p + 1;
        }
    }
    std::vector<int> dims(static_cast<std::size_t>(factors), 1);
    for (auto p = primes.rbegin(); p != primes.rend(); ++p) *std::ranges::min_element(dims) *= *p;
    std::erase(dims, 1);
    std::ranges::sort(dims, std::greater<>());
    return dims;
}

// Members fill nodes of this many processes each in rank order; 0 when they do not.
int node_size_of(const std::vector<int>& members, const std::vector<int>& node_of) {
    const auto node = [&](std::size_t i) { return node_of[static_cast<std::size_t>(members[i])]; };
    std::size_t size = 1;
    while (size < members.size() && node(size) == node(0)) ++size;
    if (members.size() % size != 0) return 0;
    for (std::size_t i = 1; i < members.size(); ++i)
        if ((node(i) == node(i - 1)) != (i % size != 0)) return 0;
    return static_cast<int>(size);
}

// Whether every line of dimension d stays within one node.
bool dimension_local(const std::vector<int>& dims, std::size_t d, const std::vector<int>& members,
                     const std::vector<int>& node_of) {
    const std::size_t stride = stride_of(dims, d);
    for (std::size_t i = 0; i < members.size(); ++i) {
        const std::size_t first = i - static_cast<std::size_t>(coordinate_of(i, dims, d)) * stride;
        if (node_of[static_cast<std::size_t>(members[i])] != node_of[static_cast<std::size_t>(members[first])])
            return false;
    }
    return true;
}

// The estimate of pattern/message_cost.h for a call over a grid that sends messages[d]
// messages in round d (all but the last round's sized, so probed).
double grid_call_time(const std::vector<double>& messages, const std::vector<bool>& local) {
    const MessageOverheads o;
    double time = 0;
    for (std::size_t d = 0; d < messages.size(); ++d) {
        if (messages[d] <= 0) continue;
        const double each = local[d] ? o.send_local + o.receive_local : o.send_remote + o.receive_remote;
        const double probe = d + 1 < messages.size() ? o.probe : 0;
        time += messages[d] * (each + probe) + (local[d] ? o.wire_local : o.wire_remote);
    }
    return time;
}

}  // namespace

int ProcessGrid::coordinate(int rank, std::size_t d) const {
    return coordinate_of(static_cast<std::size_t>((*index_of)[static_cast<std::size_t>(rank)]), dims, d);
}

int ProcessGrid::moved(int rank, std::size_t d, int value) const {
    const auto index = static_cast<std::ptrdiff_t>((*index_of)[static_cast<std::size_t>(rank)]) +
                       static_cast<std::ptrdiff_t>(value - coordinate(rank, d)) *
                           static_cast<std::ptrdiff_t>(stride_of(dims, d));
    return (*members)[static_cast<std::size_t>(index)];
}

std::vector<int> ProcessGrid::line_peers(int rank, std::size_t d) const {
    const int n = dims[d], here = coordinate(rank, d);
    std::vector<int> values;
    for (int value = 0; value < n; ++value)
        if (value != here && cyclic_distance(value, here, n) <= reach[d]) values.push_back(value);
    std::vector<int> peers;
    for (const int value : values) peers.push_back(moved(rank, d, value));
    return peers;
}

std::vector<std::vector<int>> stencil_shapes(int count) {
    std::vector<std::vector<int>> shapes;
    for (int a = 2; a <= count / 2; ++a) {
        if (count % a != 0) continue;
        const int rest = count / a;
        shapes.push_back({a, rest});
        for (int b = 2; b <= rest / 2; ++b)
            if (rest % b == 0) shapes.push_back({a, b, rest / b});
    }
    return shapes;
}

std::vector<std::vector<int>> cube_shapes(int count, int node_size) {
    std::vector<std::vector<int>> shapes;
    const auto add = [&](std::vector<int> dims) {
        if (dims.size() >= 2 && dims.size() <= max_dims && std::ranges::find(shapes, dims) == shapes.end())
            shapes.push_back(std::move(dims));
    };
    const auto most_factors = [](int n) { return static_cast<int>(std::log2(std::max(n, 1))); };
    const int nodes = node_size > 0 ? count / node_size : 1;
    if (nodes > 1 && node_size > 1)
        for (int a = 1; a <= most_factors(nodes); ++a)
            for (int b = 1; b <= most_factors(node_size); ++b) {
                std::vector<int> dims = balanced(nodes, a);
                std::ranges::copy(balanced(node_size, b), std::back_inserter(dims));
                add(std::move(dims));
            }
    for (int n = 2; n <= most_factors(count); ++n) add(balanced(count, n));
    return shapes;
}

GridSurvey::GridSurvey(std::shared_ptr<const std::vector<int>> node_of) : node_of_(std::move(node_of)) {
    auto members = std::make_shared<std::vector<int>>();
    auto index_of = std::make_shared<std::vector<int>>(node_of_->size(), -1);
    for (std::size_t r = 0; r < node_of_->size(); ++r) {
        if ((*node_of_)[r] < 0) continue;
        (*index_of)[r] = static_cast<int>(members->size());
        members->push_back(static_cast<int>(r));
    }
    members_ = std::move(members);
    index_of_ = std::move(index_of);
    stencil_shapes_ = stencil_shapes(static_cast<int>(members_->size()));
}

std::vector<int> GridSurvey::of(const LocalGraph& graph) const {
    std::vector<int> survey{static_cast<int>(graph.destinations.size())};
    const int here = (*index_of_)[static_cast<std::size_t>(graph.rank)];
    for (const std::vector<int>& dims : stencil_shapes_)
        for (std::size_t d = 0; d < dims.size(); ++d) {
            int farthest = 0;
            if (here >= 0) {
                const int from = coordinate_of(static_cast<std::size_t>(here), dims, d);
                for (const int destination : graph.destinations) {
                    const int there = (*index_of_)[static_cast<std::size_t>(destination)];
                    farthest = std::max(farthest,
                                        cyclic_distance(from, coordinate_of(static_cast<std::size_t>(there), dims, d), dims[d]));
                }
            }
            survey.push_back(farthest);
        }
    return survey;
}

GridChoices GridSurvey::choose(const std::vector<int>& maximum) const {
    const int degree = maximum.front();
    const int count = static_cast<int>(members_->size());
    // The cheapest shape of a family, given each dimension's messages and reach, or among shapes
    // the estimate cannot tell apart (within 5 %) the one of fewest messages: each costs memory
    // bandwidth and network resources the estimate leaves out. A grid of one dimension, where
    // blocks go straight to their destinations, for want of any other.
    const auto cheapest = [&](const std::vector<std::vector<int>>& shapes, const auto& messages_and_reach,
                              std::shared_ptr<const ProcessGrid>& grid, bool& pays) {
        struct Priced {
            double time, messages;
            std::vector<int> dims, reach;
        };
        std::vector<Priced> priced;
        for (const std::vector<int>& dims : shapes) {
            auto [messages, reach] = messages_and_reach(dims);
            std::vector<bool> local;
            for (std::size_t d = 0; d < dims.size(); ++d)
                local.push_back(dimension_local(dims, d, *members_, *node_of_));
            priced.push_back({grid_call_time(messages, local), std::accumulate(messages.begin(), messages.end(), 0.0),
                              dims, std::move(reach)});
        }
        if (priced.empty()) {
            grid = std::make_shared<const ProcessGrid>(ProcessGrid{{count}, {count / 2}, members_, index_of_});
            return;
        }
        const double fastest = std::ranges::min(priced, {}, &Priced::time).time;
        std::erase_if(priced, [&](const Priced& p) { return p.time > fastest * 1.05; });
        Priced& chosen = *std::ranges::min_element(priced, {}, &Priced::messages);
        pays = chosen.dims.size() > 1 && chosen.messages < degree;
        grid = std::make_shared<const ProcessGrid>(
            ProcessGrid{std::move(chosen.dims), std::move(chosen.reach), members_, index_of_});
    };

    GridChoices choices;
    // Stencil shapes: one message per distinct step along a dimension, both ways.
    auto reaches = maximum.begin() + 1;
    cheapest(
        stencil_shapes_,
        [&](const std::vector<int>& dims) {
            const std::vector<int> reach(reaches, reaches + static_cast<std::ptrdiff_t>(dims.size()));
            reaches += static_cast<std::ptrdiff_t>(dims.size());
            std::vector<double> messages;
            for (std::size_t d = 0; d < dims.size(); ++d) messages.push_back(std::min(2 * reach[d], dims[d] - 1));
            return std::pair{messages, reach};
        },
        choices.stencil, choices.stencil_pays);
    // Cube shapes: an irregular graph's blocks spread over the whole line, so a round sends to
    // each of the line's processes that one of the process's degree blocks is headed for.
    cheapest(
        cube_shapes(count, node_size_of(*members_, *node_of_)),
        [&](const std::vector<int>& dims) {
            std::vector<double> messages;
            std::vector<int> reach;
            for (const int n : dims) {
                messages.push_back((n - 1) * (1 - std::pow(1 - 1.0 / n, degree)));
                reach.push_back(n / 2);
            }
            return std::pair{messages, reach};
        },
        choices.cube, choices.cube_pays);
    return choices;
}

}  // namespace nbrcomb::detail
