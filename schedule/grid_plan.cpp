#include "schedule/grid_plan.h"

#include "pattern/grid_routing.h"
#include "pattern/message_cost.h"
#include "schedule/grid_schedule.h"

#include <string>

namespace nbrcomb::detail {

namespace {

class GridPlan final : public Plan {
public:
    GridPlan(GridPattern pattern, Pattern::Cost cost) : pattern_(std::move(pattern)), cost_(cost) {}

    Schedule build_schedule(const LocalGraph& graph, const CallBlocks& call) const override {
        return build_grid_schedule(graph, pattern_, call);
    }
    RoundCosts round_costs(const LocalGraph& graph, const std::vector<int>& node_of,
                           bool same_send_block) const override {
        return detail::round_costs(graph, pattern_, node_of, same_send_block);
    }
    int rounds() const override { return static_cast<int>(pattern_.rounds.size()); }  // the grid's dimensions
    std::size_t messages_per_call(const LocalGraph&) const override {
        std::size_t messages = 0;
        for (const GridRound& round : pattern_.rounds) messages += round.sends.size();
        return messages;
    }
    bool combines() const override { return true; }
    bool relays_across_components() const override { return true; }
    Task<std::vector<std::string>> check(Transport& transport, const LocalGraph& graph) const override;
    Pattern::Cost cost() const override { return cost_; }

private:
    GridPattern pattern_;
    Pattern::Cost cost_;
};

// Every in-edge from another process ends exactly once in a message the routes bring, from its
// own source; every one to this process is a self-loop.
Task<std::vector<std::string>> GridPlan::check(Transport&, const LocalGraph& graph) const {
    std::vector<int> deliveries(graph.sources.size(), 0);
    std::vector<std::string> problems;
    const auto problem = [&](const std::string& what) {
        problems.push_back("rank " + std::to_string(graph.rank) + ": " + what);
    };
    for (const GridRound& round : pattern_.rounds)
        for (const GridReceive& receive : round.receives)
            for (std::size_t k = 0; k < receive.edges.size(); ++k) {
                const int in_edge = receive.in_edges[k];
                if (in_edge < 0) continue;
                ++deliveries[static_cast<std::size_t>(in_edge)];
                if (graph.sources[static_cast<std::size_t>(in_edge)] != receive.edges[k].source)
                    problem("in-edge " + std::to_string(in_edge) + " gets a block of another source");
            }
    for (std::size_t j = 0; j < deliveries.size(); ++j) {
        const int expected = graph.sources[j] == graph.rank ? 0 : 1;
        if (deliveries[j] != expected)
            problem("in-edge " + std::to_string(j) + " delivered " + std::to_string(deliveries[j]) + " times");
    }
    co_return problems;
}

PlanTask plan_grid(Transport& transport, LocalGraph graph, std::shared_ptr<const ProcessGrid> grid) {
    const TransportStats before = transport.stats();
    GridPattern pattern = co_await build_grid_routing(transport, std::move(graph), std::move(grid));
    co_return std::make_shared<const GridPlan>(std::move(pattern), phase1_traffic(transport, before));
}

}  // namespace

PlanTask plan_dimensionwise(Transport& transport, LocalGraph graph, PlanSettings settings) {
    return plan_grid(transport, std::move(graph), settings.grids.stencil);
}

PlanTask plan_store_and_forward(Transport& transport, LocalGraph graph, PlanSettings settings) {
    return plan_grid(transport, std::move(graph), settings.grids.cube);
}

}  // namespace nbrcomb::detail
