// The one median of the library: the trial's and the rules file's figures are the same statistic.
#pragma once

#include <algorithm>
#include <vector>

namespace nbrcomb::detail {

// The middle value, or for an even count the mean of the two middle ones: a sample's median as
// statistics defines it, which, unlike either middle value alone, does not lean to one side.
// values must not be empty.
inline double median(std::vector<double> values) {
    std::ranges::sort(values);
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace nbrcomb::detail
