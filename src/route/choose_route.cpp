#include "src/route/choose_route.h"

#include "src/base/log.h"
#include "src/progress/progressing_wait.h"
#include "src/settings/environment.h"
#include "src/setup/rules_sharing.h"

#include <algorithm>
#include <cstdio>

namespace nbrcomb::detail {

namespace {

// "blocks of 65 B to 256 B", or "blocks of all sizes" for the v and w forms.
std::string blocks_of(int size_class) {
    if (size_class < 0) return "blocks of any size";
    const std::size_t low = size_class == 0 ? 0 : size_class_limit(size_class - 1) + 1;
    if (size_class == size_classes - 1) return "blocks above " + std::to_string(low - 1) + " B";
    return "blocks of " + std::to_string(low) + " to " + std::to_string(size_class_limit(size_class)) + " B";
}

// What a shape's decision runs: native or a candidate's name.
const char* decision_name(const Decision& decision, const Topology& topology) {
    return decision.combined ? topology.candidates[static_cast<std::size_t>(decision.candidate)].algorithm->name
                             : "native";
}

// What decided a shape and why, on the first of the processes that take part (NBRCOMB_LOG=2).
void tell(const Verdict& verdict, const TopoState& state, bool first) {
    if (!first || !log_enabled(LogLevel::info)) return;
    const Decision& decision = verdict.decision;
    const TrialResult& result = verdict.result;
    const std::string limit = decision.cutoff == SIZE_MAX || !decision.combined
                                  ? std::string()
                                  : ", up to " + std::to_string(decision.cutoff) + " B per block";
    char why[160] = "";
    switch (decision.source) {
    case Source::forced: std::snprintf(why, sizeof why, "NBRCOMB_FORCE"); break;
    case Source::rules: std::snprintf(why, sizeof why, "rules file %s", state.created.config.rules.c_str()); break;
    case Source::estimate: std::snprintf(why, sizeof why, "estimate: no candidate can beat native there"); break;
    case Source::trial:
        if (result.reference_seconds > 0)
            std::snprintf(why, sizeof why, "trial: median %.2f us %s, %.2f us native, p %.3g",
                          result.combined_seconds * 1e6, decision.combined ? "combined" : "at best", result.reference_seconds * 1e6,
                          result.p);
        else
            std::snprintf(why, sizeof why, "trial: combining was not faster");
        break;
    }
    log(LogLevel::info, "auto: neighbor_%s %s, %s: %s%s (%s)", collective_name(verdict.collective),
        form_name(verdict.form), blocks_of(verdict.size_class).c_str(), decision_name(decision, *state.topology),
        limit.c_str(), why);
}

// A decision of a trial or the estimate, for the rules file that rank 0 of MPI_COMM_WORLD writes at
// MPI_Finalize: the next run then needs neither, nor Phase 1 where the shapes stay native.
void remember(const Verdict& verdict, const TopoState& state) {
    RuleKey key = state.decisions.choices().key;
    key.collective = verdict.collective;
    key.form = verdict.form;
    key.size_class = verdict.size_class;
    remember_rule({.key = key,
                   .decision = decision_name(verdict.decision, *state.topology),
                   .cutoff = verdict.decision.combined ? verdict.decision.cutoff : SIZE_MAX,
                   .native_us = verdict.result.reference_seconds * 1e6,
                   .chosen_us = verdict.result.combined_seconds * 1e6,
                   .p = verdict.result.p,
                   .date = today()});
}

// A decision: the statistics, the log, and the rules file, the last two once.
void take(const Verdict& verdict, TopoState& state) {
    count_decisions(state);
    int rank = 0;
    PMPI_Comm_rank(state.agreement_comm(), &rank);
    tell(verdict, state, rank == 0);
    const bool transferable = verdict.decision.source == Source::trial || verdict.decision.source == Source::estimate;
    if (rank == 0 && transferable && !environment_config().rules_out.empty()) remember(verdict, state);
}

// The largest block the settings let be combined.
std::size_t combine_limit(const Config& config) {
    return config.combine_limit > 0 ? static_cast<std::size_t>(config.combine_limit) : SIZE_MAX;
}

template <class Typical>
Choice choose(TopoState& state, Collective collective, Form form, int size_class, const Typical& typical_block) {
    Choice choice = state.decisions.tuner()->choose(
        collective, form, size_class, typical_block,
        [&state](std::vector<double>& values) {
            allreduce_progressing(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX,
                                  state.agreement_comm());
        },
        [&state](const Verdict& verdict) { take(verdict, state); });
    if (choice.trial) ++state.stats.lock()->trial_calls;
    choice.cutoff = std::min(choice.cutoff, combine_limit(state.created.config));
    return choice;
}

}  // namespace

Choice route_call(TopoState& state, const CallArgs& args, Form form) {
    if (state.created.gpu_somewhere) return {};
    if (state.created.config.mode != NBRCOMB_MODE_AUTO) return {Route::combined, 0, combine_limit(state.created.config), {}};
    // A process without edges sends and receives nothing, and never joins an agreement, which
    // the processes that skip such calls (PETSc) would never join either.
    if (state.created.idle) return {};
    if (state.decisions.phase1_pending() || !state.decisions.has_candidate()) return {};
    if (form == Form::persistent) return {Route::combined, 0, combine_limit(state.created.config), {}};
    // The first call of a communicator's duplicate may agree on a shape before it runs anything.
    if (ensure_private_comm(args.comm, state) != MPI_SUCCESS) return {};
    const Topology& topology = *state.topology;
    return choose(state, args.collective, form, shape_class(args, topology),
                  [&] { return mean_block(args, topology.indegree(), topology.outdegree()); });
}

Choice route_start(TopoState& state, Collective collective, int size_class, std::size_t typical_block) {
    return choose(state, collective, Form::persistent, size_class, [typical_block] { return typical_block; });
}

}  // namespace nbrcomb::detail
