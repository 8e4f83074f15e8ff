// Auto mode's tiers above the trial (auto_tuner.h), as Open MPI's coll/tuned keeps its decisions
// apart from its algorithms: how each call shape on a communicator opens. Forced by NBRCOMB_FORCE;
// else learned from the rules file of an earlier run; else estimated from what each candidate
// sends and forwards at the shape's block size, which either rules every candidate out (native
// from the first call, no trial) or names those the trial races against native.
#pragma once

#include "src/decision/auto_tuner.h"
#include "src/decision/rules_file.h"
#include "src/decision/forced_choices.h"

#include "pattern/message_cost.h"
#include "schedule/algorithm.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::detail {

// What a setting and the rules file say for one communicator: NBRCOMB_FORCE's choices, and the
// rules file's rules for its key (the collective, form and class aside).
struct StatedChoices {
    ForcedChoices forced;
    std::vector<Rule> rules;
    RuleKey key;
};

// What Phase 1 planned, every process alike: the candidates in the topology's order, and for each
// kind of blocks (block_kind) each candidate's round costs folded over the processes.
struct PlannedCandidates {
    std::vector<const Algorithm*> algorithms;
    std::array<std::vector<RoundCosts>, 2> busiest;
};

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

// Whether a setting or a rule names the algorithm: Phase 1 then plans it whatever its best case.
bool names_algorithm(const StatedChoices& choices, std::string_view name);

// The opener of a communicator's shapes, once Phase 1 has planned: forced by NBRCOMB_FORCE, else
// learned from the rules file, else raced in a trial among the contenders the estimate leaves, or
// native from the first call where it leaves none. Every process builds it alike. A name that the
// communicator did not plan is left out, and said through left_out (once per shape).
Opener make_opener(StatedChoices choices, PlannedCandidates planned,
                   std::function<void(const std::string& message)> left_out);

// The most candidates any shape may race: the tuner's checkpoints follow from it.
int most_contenders(const std::vector<const Algorithm*>& candidates);

// Whether a setting or a rule decides the shape native, and which: its calls then never bring
// Phase 1 nearer.
std::optional<Source> native_settled_by(const StatedChoices& choices, Collective collective, Form form, int size_class);

// Whether a setting or a rule makes some shape combine: Phase 1 then runs at the first call.
bool combining_settled(const StatedChoices& choices);

}  // namespace nbrcomb::detail
