#include "schedule/algorithm_table.h"

#include "pattern/grid_routing.h"
#include "pattern/node_aggregation.h"
#include "pattern/pairs_best_case.h"
#include "pattern/pattern_builder.h"
#include "schedule/aggregation_plan.h"
#include "schedule/combining_plan.h"
#include "schedule/global_plan.h"
#include "schedule/grid_plan.h"
#include "schedule/mpi_features.h"

#include <algorithm>
#include <functional>

namespace nbrcomb::detail {

namespace {

bool never(const PlanSettings&) { return false; }
bool always(const PlanSettings&) { return true; }
bool stencil_pays(const PlanSettings& settings) { return settings.grids.stencil_pays; }
bool cube_pays(const PlanSettings& settings) { return settings.grids.cube_pays; }
// The global plan runs the MPI's nonblocking collectives, which pay only where they are more than
// one message from every process to every other.
bool complete(const PlanSettings& settings) {
    return settings.complete_graph && mpi_has_scalable_nonblocking_collectives;
}

// Whether the processes that take part in calls run on more than one node.
bool spans_nodes(const PlanSettings& settings) {
    if (!settings.node_of) return false;
    std::vector<int> nodes = *settings.node_of;
    std::erase(nodes, -1);
    return std::ranges::adjacent_find(nodes, std::not_equal_to<>()) != nodes.end();
}

RoundCosts pairs_bound(const LocalGraph& graph, const std::vector<int>& node_of, const PlanSettings& settings,
                       bool same_send_block) {
    return pairs_best_case(graph, node_of, settings.theta, same_send_block);
}

constexpr Algorithm table[] = {
    // Auto mode tries the library's own one message per edge where nothing promises less: it posts in
    // the graph's order (canonical_order.h), and some MPIs' own neighborhood collectives are slower.
    {NBRCOMB_MODE_DIRECT, "direct", plan_direct, always, CombiningChannel::count, false, false, nullptr},  // its check's
    {NBRCOMB_MODE_PAIRS, "pairs", plan_pairs, always, CombiningChannel::count, true, false, pairs_bound},
    {NBRCOMB_MODE_GROUPS, "groups", plan_groups, never, CombiningChannel::count, true, false, nullptr},
    {NBRCOMB_MODE_AGGREGATE, "aggregate", plan_aggregate, spans_nodes, AggregationChannel::count, false, false, nullptr},
    {NBRCOMB_MODE_DIMWISE, "dimwise", plan_dimensionwise, stencil_pays, GridChannel::count, false, true, nullptr},
    {NBRCOMB_MODE_FORWARD, "forward", plan_store_and_forward, cube_pays, GridChannel::count, false, true, nullptr},
    {NBRCOMB_MODE_GLOBAL, "global", plan_global, complete, 0, false, false, nullptr},
};

}  // namespace

std::span<const Algorithm> algorithms() { return table; }

const Algorithm* find_algorithm(nbrcomb_mode mode) {
    const auto found = std::ranges::find(table, mode, &Algorithm::mode);
    return found == std::end(table) ? nullptr : found;
}

const Algorithm* find_algorithm(std::string_view name) {
    const auto found = std::ranges::find(table, name, [](const Algorithm& a) { return std::string_view(a.name); });
    return found == std::end(table) ? nullptr : found;
}

Channel first_channel(const Algorithm& algorithm) {
    Channel first = 0;
    for (const Algorithm& a : table) {
        if (a.mode == algorithm.mode) return first;
        first += a.channels;
    }
    return first;
}

Channel channel_count() {
    constexpr Channel all = [] {
        Channel sum = 0;
        for (const Algorithm& a : table) sum += a.channels;
        return sum;
    }();
    static_assert(all <= channel_limit);
    return all;
}

}  // namespace nbrcomb::detail
