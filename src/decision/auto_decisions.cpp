#include "src/decision/auto_decisions.h"

#include <algorithm>

namespace nbrcomb::detail {

AutoDecisions::Before AutoDecisions::call_before_phase1(Collective collective, Form form, int size_class,
                                                        std::size_t largest_block, bool on_device) {
    Early& early = early_[static_cast<std::size_t>(AutoTuner::shape_index(collective, form, size_class))];
    if (early == Early::unseen) {
        const std::optional<Source> source = native_settled_by(choices_, collective, form, size_class);
        early = !source ? Early::open : *source == Source::forced ? Early::forced_native : Early::rules_native;
        if (early != Early::open) return Before::settled_native_now;
    }
    if (early != Early::open) return Before::settled_native;
    device_called_ = device_called_ || on_device;
    double& largest = largest_called_[static_cast<std::size_t>(block_kind(collective))];
    largest = std::max(largest, static_cast<double>(largest_block));
    if (form != Form::persistent && --calls_until_phase1_ > 0) return Before::waiting;
    calls_until_phase1_ = 0;
    return Before::phase1_due;
}

std::vector<std::pair<int, Source>> AutoDecisions::settled_before_phase1() const {
    std::vector<std::pair<int, Source>> settled;
    for (std::size_t shape = 0; shape < early_.size(); ++shape)
        if (early_[shape] == Early::forced_native || early_[shape] == Early::rules_native)
            settled.emplace_back(static_cast<int>(shape),
                                 early_[shape] == Early::forced_native ? Source::forced : Source::rules);
    return settled;
}

void AutoDecisions::start(std::unique_ptr<AutoTuner> tuner, bool has_candidate) {
    tuner_ = std::move(tuner);
    has_candidate_ = has_candidate;
}

// The tuner counts the shapes settled before Phase 1 from its start (settled_before_phase1).
std::uint64_t AutoDecisions::decided_by(Source source) const {
    if (tuner_) return tuner_->decided_by(source);
    const Early settled = source == Source::forced ? Early::forced_native
                          : source == Source::rules ? Early::rules_native
                                                    : Early::unseen;
    if (settled == Early::unseen) return 0;
    return static_cast<std::uint64_t>(std::ranges::count(early_, settled));
}

std::uint64_t AutoDecisions::decided_native() const {
    if (tuner_) return tuner_->decided_native();
    return decided_by(Source::forced) + decided_by(Source::rules);
}

}  // namespace nbrcomb::detail
