#include "src/call_routing.h"

#include "src/log.h"
#include "src/progressing_wait.h"

#include <algorithm>

namespace nbrcomb::detail {

namespace {

// "blocks of 65 B to 256 B", or "blocks of all sizes" for the v and w forms.
std::string blocks_of(int size_class) {
    if (size_class < 0) return "blocks of any size";
    const std::size_t low = size_class == 0 ? 0 : size_class_limit(size_class - 1) + 1;
    if (size_class == size_classes - 1) return "blocks above " + std::to_string(low - 1) + " B";
    return "blocks of " + std::to_string(low) + " to " + std::to_string(size_class_limit(size_class)) + " B";
}

// What a shape's trial decided, on the first of the processes that took part (NBRCOMB_LOG=2).
void tell(const Verdict& verdict, const TopoState& state) {
    int rank = 0;
    PMPI_Comm_rank(state.agreement_comm(), &rank);
    if (rank != 0 || !log_enabled(LogLevel::info)) return;
    const TrialResult& result = verdict.result;
    const std::string limit = result.cutoff == SIZE_MAX || !result.combined
                                  ? std::string()
                                  : ", up to " + std::to_string(result.cutoff) + " B per block";
    if (result.reference_seconds > 0)
        log(LogLevel::info, "auto: neighbor_%s %s, %s: %s%s (median %.2f us combined, %.2f us native)",
            collective_name(verdict.collective), form_name(verdict.form), blocks_of(verdict.size_class).c_str(),
            result.combined ? "combining" : "native", limit.c_str(), result.combined_seconds * 1e6,
            result.reference_seconds * 1e6);
    else
        log(LogLevel::info, "auto: neighbor_%s %s, %s: native (combining was not faster)",
            collective_name(verdict.collective), form_name(verdict.form), blocks_of(verdict.size_class).c_str());
}

// The largest block the settings let be combined.
std::size_t combine_limit(const Config& config) {
    return config.combine_limit > 0 ? static_cast<std::size_t>(config.combine_limit) : SIZE_MAX;
}

Choice choose(TopoState& state, Collective collective, Form form, int size_class) {
    Choice choice = state.tuner->choose(
        collective, form, size_class,
        [&state](std::vector<double>& values) {
            allreduce_progressing(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX,
                                  state.agreement_comm());
        },
        [&](const Verdict& verdict) {
            state.stats.lock()->auto_combined = state.tuner->decided_combined();
            state.stats.lock()->auto_native = state.tuner->decided_native();
            tell(verdict, state);
        });
    choice.cutoff = std::min(choice.cutoff, combine_limit(state.config));
    return choice;
}

}  // namespace

int shape_class(const CallArgs& args, const Topology& topology) {
    if (topology.combined_plan().relays_across_components()) return -1;
    const std::optional<std::size_t> uniform = uniform_block_bytes(args);
    return uniform ? size_class(*uniform) : -1;
}

Choice route_call(TopoState& state, const CallArgs& args, Form form) {
    if (state.config.mode != NBRCOMB_MODE_AUTO) return {Route::combined, combine_limit(state.config), {}};
    // A process without edges sends and receives nothing, and never joins an agreement, which
    // the processes that skip such calls (PETSc) would never join either.
    if (state.idle) return {};
    if (state.calls_until_pattern > 0 || !state.has_candidate) return {};
    if (form == Form::persistent) return {Route::combined, combine_limit(state.config), {}};
    return choose(state, args.collective, form, shape_class(args, *state.topology));
}

Choice route_start(TopoState& state, Collective collective, int size_class) {
    return choose(state, collective, Form::persistent, size_class);
}

}  // namespace nbrcomb::detail
