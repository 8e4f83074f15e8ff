#include "schedule/aggregation_plan.h"

#include "pattern/message_cost.h"
#include "pattern/node_aggregation.h"
#include "schedule/aggregated_schedule.h"

#include <set>

namespace nbrcomb::detail {

namespace {

class AggregationPlan final : public Plan {
public:
    AggregationPlan(AggregationPattern pattern, Pattern::Cost cost) : pattern_(std::move(pattern)), cost_(cost) {}

    Schedule build_schedule(const LocalGraph& graph, const CallBlocks& call) const override {
        return build_aggregated_schedule(graph, pattern_, call);
    }
    RoundCosts round_costs(const LocalGraph& graph, const std::vector<int>& node_of,
                           bool same_send_block) const override {
        return detail::round_costs(graph, pattern_, node_of, same_send_block);
    }
    int rounds() const override { return 3; }  // to the agents, between nodes, deliveries
    std::size_t messages_per_call(const LocalGraph& graph) const override;
    bool combines() const override { return true; }
    bool relays_across_components() const override { return true; }
    Pattern::Cost cost() const override { return cost_; }

private:
    AggregationPattern pattern_;
    Pattern::Cost cost_;
};

// Packets to local agents, edges within the node, messages to remote nodes as an agent, and
// one delivery per process of the node that an inbound message holds blocks for.
std::size_t AggregationPlan::messages_per_call(const LocalGraph& graph) const {
    std::size_t messages = pattern_.handoffs.size() + pattern_.outbound.size();
    for (const int edge : pattern_.local_out)
        if (graph.destinations[static_cast<std::size_t>(edge)] != graph.rank) ++messages;
    std::set<int> delivered_to;
    for (const Inbound& inbound : pattern_.inbound)
        for (const InboundEdge& edge : inbound.edges)
            if (edge.destination != graph.rank) delivered_to.insert(edge.destination);
    return messages + delivered_to.size();
}

}  // namespace

PlanTask plan_aggregate(Transport& transport, LocalGraph graph, PlanSettings settings) {
    const TransportStats before = transport.stats();
    AggregationPattern pattern = co_await build_aggregation(transport, std::move(graph), settings.node_of);
    co_return std::make_shared<const AggregationPlan>(std::move(pattern), phase1_traffic(transport, before));
}

}  // namespace nbrcomb::detail
