#include "schedule/algorithm.h"

#include "schedule/canonical_order.h"

namespace nbrcomb::detail {

Schedule Plan::schedule(const LocalGraph& graph, const CallBlocks& call) const {
    Schedule built = build_schedule(graph, call);
    order_canonically(built, graph.rank);
    return built;
}

Task<std::vector<std::string>> Plan::check(Transport&, const LocalGraph&) const { co_return {}; }

}  // namespace nbrcomb::detail
