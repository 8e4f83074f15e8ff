#include "schedule/algorithm.h"

namespace nbrcomb::detail {

Task<std::vector<std::string>> Plan::check(Transport&, const LocalGraph&) const { co_return {}; }

}  // namespace nbrcomb::detail
