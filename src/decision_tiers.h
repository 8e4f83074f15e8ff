// Auto mode's tiers above the trial (auto_tuner.h), as Open MPI's coll/tuned keeps its decisions
// apart from its algorithms: how each call shape on a communicator opens. Forced by NBRCOMB_FORCE;
// else learned from the rules file of an earlier run; else estimated from what each candidate
// sends and forwards at the shape's block size, which either rules every candidate out (native
// from the first call, no trial) or names those the trial races against native.
#pragma once

#include "src/auto_tuner.h"

#include <optional>
#include <vector>

namespace nbrcomb::detail {

struct TopoState;

// A candidate is raced when the estimate gives it a chance: below native's, and within race_window
// of the best candidate's, for the estimate's error (about 6 % of the measured ratio at 4 B and 23 %
// at 1 KiB on average: bench/results/RESULTS.md, the multi-hop study); at most most_raced of them.
inline constexpr double race_window = 1.5;
inline constexpr int most_raced = 3;

// The candidates a trial races, fastest estimate first, of the estimated times of all (NaN for
// one never raced: the library's own one message per edge, which native MPI's is) against
// native's.
std::vector<int> estimated_contenders(const std::vector<double>& estimates, double native_estimate);

// The opener of state's shapes (Phase 1 done). Every process builds it alike.
Opener make_opener(const TopoState& state);

// The most candidates any shape of state's may race: the tuner's checkpoints follow from it.
int most_contenders(const TopoState& state);

// Whether a setting or a rule decides the shape native, and which: its calls then never bring
// Phase 1 nearer.
std::optional<Source> native_settled_by(const TopoState& state, Collective collective, Form form, int size_class);

// Whether a setting or a rule makes some shape combine: Phase 1 then runs at the first call.
bool combining_settled(const TopoState& state);

}  // namespace nbrcomb::detail
