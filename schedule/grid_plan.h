// Routing over a process grid (pattern/process_grid.h), in its two families: dimension-wise
// combining on the grid a stencil's ranks lie on (Träff and Hunold, ICPP 2019), and
// store-and-forward over a virtual k-ary n-cube for irregular graphs (Selvitopi and Aykanat,
// SC 2019).
#pragma once

#include "schedule/algorithm.h"

namespace nbrcomb::detail {

PlanTask plan_dimensionwise(Transport& transport, LocalGraph graph, PlanSettings settings);
PlanTask plan_store_and_forward(Transport& transport, LocalGraph graph, PlanSettings settings);

}  // namespace nbrcomb::detail
