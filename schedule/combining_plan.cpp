#include "schedule/combining_plan.h"

#include "pattern/message_cost.h"
#include "pattern/pattern_builder.h"
#include "pattern/pattern_check.h"
#include "schedule/schedule_builder.h"

namespace nbrcomb::detail {

namespace {

class PatternPlan final : public Plan {
public:
    explicit PatternPlan(Pattern pattern) : pattern_(std::move(pattern)) {}

    Schedule build_schedule(const LocalGraph& graph, const CallBlocks& call) const override {
        return detail::build_schedule(graph, pattern_, call);
    }
    RoundCosts round_costs(const LocalGraph& graph, const std::vector<int>& node_of,
                           bool same_send_block) const override {
        return detail::round_costs(graph, pattern_, node_of, same_send_block);
    }
    int rounds() const override { return 2; }  // friend packets and direct edges, combined messages
    std::size_t messages_per_call(const LocalGraph& graph) const override {
        return detail::messages_per_call(graph, pattern_);
    }
    bool combines() const override { return !pattern_.steps.empty(); }
    Task<std::vector<std::string>> check(Transport& transport, const LocalGraph& graph) const override {
        return check_pattern(transport, graph, pattern_);
    }
    Pattern::Cost cost() const override { return pattern_.cost; }

private:
    Pattern pattern_;
};

PlanTask plan_combining(Transport& transport, LocalGraph graph, PlanSettings settings, Grouping grouping) {
    const PatternSettings pattern_settings{.theta = settings.theta,
                                           .grouping = grouping,
                                           .k = settings.k,
                                           .max_hyperedges = settings.max_hyperedges,
                                           .domains = settings.domains};
    Pattern pattern = co_await build_pattern(transport, std::move(graph), pattern_settings);
    co_return std::make_shared<const PatternPlan>(std::move(pattern));
}

}  // namespace

std::shared_ptr<const Plan> direct_plan(const LocalGraph& graph) {
    return std::make_shared<const PatternPlan>(direct_pattern(graph));
}

PlanTask plan_direct(Transport&, LocalGraph graph, PlanSettings) { co_return direct_plan(graph); }

PlanTask plan_pairs(Transport& transport, LocalGraph graph, PlanSettings settings) {
    return plan_combining(transport, std::move(graph), std::move(settings), Grouping::pairs);
}

PlanTask plan_groups(Transport& transport, LocalGraph graph, PlanSettings settings) {
    return plan_combining(transport, std::move(graph), std::move(settings), Grouping::hypergraph);
}

}  // namespace nbrcomb::detail
