// Node-aware aggregation (paper 003): one message per pair of nodes and direction.
#pragma once

#include "schedule/algorithm.h"

namespace nbrcomb::detail {

PlanTask plan_aggregate(Transport& transport, LocalGraph graph, PlanSettings settings);

}  // namespace nbrcomb::detail
