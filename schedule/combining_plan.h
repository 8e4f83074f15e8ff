// The algorithms whose plan is a message-combining Pattern: direct (one message per edge, no
// Phase 1), pairs of friends (paper 000) and groups of k (paper 002).
#pragma once

#include "schedule/algorithm.h"

namespace nbrcomb::detail {

PlanTask plan_direct(Transport& transport, LocalGraph graph, PlanSettings settings);
PlanTask plan_pairs(Transport& transport, LocalGraph graph, PlanSettings settings);
PlanTask plan_groups(Transport& transport, LocalGraph graph, PlanSettings settings);

// The direct plan at once, for the native side of auto mode's trial and the processes without
// edges.
std::shared_ptr<const Plan> direct_plan(const LocalGraph& graph);

}  // namespace nbrcomb::detail
