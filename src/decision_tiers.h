// Auto mode's tiers above the trial (auto_tuner.h), as Open MPI's coll/tuned keeps its decisions
// apart from its algorithms: how each call shape on a communicator opens. Forced by NBRCOMB_FORCE;
// else learned from the rules file of an earlier run; else estimated from what each candidate
// sends and forwards at the shape's block size, which either rules every candidate out (native
// from the first call, no trial) or names those the trial races against native.
#pragma once

#include "src/auto_tuner.h"

#include "pattern/message_cost.h"

#include <array>
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

// The kind of a collective's blocks (message_cost.h, KindCosts): 0 for allgather's, one per
// process, 1 for alltoall's, one per edge.
int block_kind(Collective collective);

// Whether an algorithm whose Phase 1 is costly (its matching: pairs) is worth planning: whether
// its best case beats every planned candidate's estimate, the one message per edge that stands for
// native included, by the trial's required gain (AutoTuner::required_gain) at some block size from
// 0 to limits[kind] bytes (INFINITY: any; negative: not that kind). One that cannot would never
// win a trial, or not by enough to show. Estimates are linear in the block size.
bool can_still_win(const KindCosts& best_case, const std::vector<KindCosts>& planned,
                   const std::array<double, 2>& limits);

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
