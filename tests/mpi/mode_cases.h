// The library's modes as the tests name them, each by the hints that select it, for tests that
// must hold in every mode.
#pragma once

#include "topologies.h"

#include <ostream>
#include <string>
#include <vector>

namespace nbrcomb::test {

struct ModeCase {
    std::string name;
    Hints hints;
};

inline void PrintTo(const ModeCase& mode, std::ostream* out) { *out << mode.name; }

// The modes whose schedules the library runs on every call, with combining forced on small jobs.
inline const std::vector<ModeCase> forced_modes{
    {"direct", {{"nbrcomb_mode", "direct"}}},
    {"pairs", pairs_hints},
    {"groups", {{"nbrcomb_mode", "groups"}, {"nbrcomb_theta", "1"}, {"nbrcomb_k", "3"}}},
    {"aggregate", {{"nbrcomb_mode", "aggregate"}, {"nbrcomb_node_size", "2"}}},
    {"dimwise", {{"nbrcomb_mode", "dimwise"}}},
    {"forward", {{"nbrcomb_mode", "forward"}, {"nbrcomb_node_size", "2"}}},
    {"global", {{"nbrcomb_mode", "global"}}},
};

// Auto mode (named: the tests' communicators default to pairs) with the default settings, which
// reach Phase 1 in the 32nd call and decide each call shape within 58 calls after it; with Phase 1 in
// the first call and Θ = 1, so that small jobs find friends, try the call shapes both ways and
// run more calls after the decisions; and with Phase 1 at creation.
inline const std::vector<ModeCase> auto_modes{
    {"default", {{"nbrcomb_mode", "auto"}}},
    {"lazy1", {{"nbrcomb_mode", "auto"}, {"nbrcomb_lazy", "1"}, {"nbrcomb_theta", "1"}}},
    {"lazy0", {{"nbrcomb_mode", "auto"}, {"nbrcomb_lazy", "0"}}},
};

inline std::vector<ModeCase> all_modes() {
    std::vector<ModeCase> modes = auto_modes;
    modes.insert(modes.end(), forced_modes.begin(), forced_modes.end());
    return modes;
}

}  // namespace nbrcomb::test
