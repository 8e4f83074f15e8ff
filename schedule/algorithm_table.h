// The message-combining algorithms the library has, in the order auto mode weighs them (the first
// of equal estimates wins). Adding one: its plan in a pair of files of its own that implement
// schedule/algorithm.h, its nbrcomb_mode in include/nbrcomb/nbrcomb.h, and its row in
// algorithm_table.cpp. Settings, the pattern check, the report, nbrbench and nbrsim find it here.
#pragma once

#include "schedule/algorithm.h"

#include <span>
#include <string_view>

namespace nbrcomb::detail {

std::span<const Algorithm> algorithms();

// The algorithm of a mode or a name; null for off and auto, which are none.
const Algorithm* find_algorithm(nbrcomb_mode mode);
const Algorithm* find_algorithm(std::string_view name);

// The first of an algorithm's channels, after those of the algorithms before it, and the
// channels of all.
Channel first_channel(const Algorithm& algorithm);
Channel channel_count();

}  // namespace nbrcomb::detail
