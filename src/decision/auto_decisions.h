// Auto mode's state for one communicator, in one place: the choices the tiers above the trial
// state (NBRCOMB_FORCE's and the rules file's), the calls before Phase 1 (how many are left, the
// largest blocks they had, the shapes a setting or a rule kept native), and from Phase 1 on the
// tuner that decides the other shapes. It counts every shape decided, by tier. Pure: the caller
// runs Phase 1 and its reductions, and builds the tuner.
#pragma once

#include "src/decision/auto_tuner.h"
#include "src/decision/decision_tiers.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace nbrcomb::detail {

class AutoDecisions {
public:
    // At creation: NBRCOMB_FORCE's choices and the rules file's rules for this communicator.
    void take_choices(StatedChoices choices) { choices_ = std::move(choices); }
    const StatedChoices& choices() const { return choices_; }

    // Phase 1 lazily: in the lazy-th call of a shape left open, or in the first such call where a
    // setting or a rule makes some shape combine.
    void defer_phase1(int lazy) { calls_until_phase1_ = combining_settled(choices_) ? 1 : lazy; }
    bool phase1_pending() const { return calls_until_phase1_ > 0; }

    // A call while Phase 1 is pending. A shape a setting or a rule keeps native is settled at its
    // first call (and counted) and its calls count for nothing; another's count toward Phase 1,
    // with their largest block by kind (block_kind), and the one that makes it due ends the wait
    // (a persistent call's init makes it due at once).
    // on_device: the call's buffers are device memory here, which Phase 1's opening agrees.
    enum class Before { waiting, settled_native_now, settled_native, phase1_due };
    Before call_before_phase1(Collective collective, Form form, int size_class, std::size_t largest_block,
                              bool on_device = false);
    // Whether a call that counted passed device memory.
    bool device_called() const { return device_called_; }
    // The largest block of the calls that counted, by kind of blocks; -1 for a kind not called.
    // Phase 1's opening agrees their size classes (src/setup/adopt_topology.cpp).
    const std::array<double, 2>& largest_called() const { return largest_called_; }

    // The shapes a setting or a rule kept native before Phase 1, by shape_index, for the tuner.
    std::vector<std::pair<int, Source>> settled_before_phase1() const;
    // From Phase 1 on: the tuner, and whether Phase 1 planned a candidate (every process alike).
    void start(std::unique_ptr<AutoTuner> tuner, bool has_candidate);
    bool has_candidate() const { return has_candidate_; }
    AutoTuner* tuner() const { return tuner_.get(); }

    // Shapes decided: by tier, combined, native (those settled before Phase 1 included).
    std::uint64_t decided_by(Source source) const;
    std::uint64_t decided_combined() const { return tuner_ ? tuner_->decided_combined() : 0; }
    std::uint64_t decided_native() const;

private:
    enum class Early : std::uint8_t { unseen, open, forced_native, rules_native };

    StatedChoices choices_;
    int calls_until_phase1_ = 0;
    std::array<Early, AutoTuner::shape_count> early_{};
    std::array<double, 2> largest_called_{-1, -1};
    bool device_called_ = false;
    bool has_candidate_ = false;
    std::unique_ptr<AutoTuner> tuner_;
};

}  // namespace nbrcomb::detail
