#include "src/decision/auto_tuner.h"

#include "src/decision/median.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace nbrcomb::detail {

namespace {

// One-sided Wilcoxon rank-sum (Mann-Whitney) p-value that faster's values tend to be smaller
// than slower's, by the normal approximation with continuity correction.
double p_faster(const std::vector<double>& faster, const std::vector<double>& slower) {
    double u = 0;
    for (const double a : faster)
        for (const double b : slower) u += a < b ? 1.0 : (a == b ? 0.5 : 0.0);
    const double n = static_cast<double>(faster.size()), m = static_cast<double>(slower.size());
    const double z = (u - n * m / 2 - 0.5) / std::sqrt(n * m * (n + m + 1) / 12);
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

// The timed seconds of a contender, of one class or (size_class -1) of all.
std::vector<double> timed(const Timings& timings, int size_class = -1) {
    std::vector<double> seconds;
    for (std::size_t i = 0; i < timings.seconds.size(); ++i)
        if (timings.seconds[i] >= 0 && (size_class < 0 || timings.classes[i] == size_class))
            seconds.push_back(timings.seconds[i]);
    return seconds;
}

// Which contenders (position 0 never) lost, by lost_in, in every size class where they and another
// contender were timed, and in one at least: the v and w forms' calls mix block sizes, and a large
// call's time says nothing against a small one's. lost_in judges one class: every contender's
// seconds there (empty where it was not timed) and the one with the least median.
template <class LostIn>
std::vector<bool> lost_in_every_class(const std::vector<Timings>& contenders, const LostIn& lost_in) {
    const std::size_t count = contenders.size();
    std::vector<int> compared(count, 0), lost(count, 0);
    for (int c = 0; c < size_classes; ++c) {
        std::vector<std::vector<double>> seconds;
        std::optional<std::size_t> fastest;
        for (const Timings& timings : contenders) {
            seconds.push_back(timed(timings, c));
            const std::size_t i = seconds.size() - 1;
            if (!seconds[i].empty() && (!fastest || median(seconds[i]) < median(seconds[*fastest]))) fastest = i;
        }
        if (std::ranges::count_if(seconds, [](const std::vector<double>& s) { return !s.empty(); }) < 2) continue;
        const std::vector<bool> lost_here = lost_in(seconds, *fastest);
        for (std::size_t i = 0; i < count; ++i)
            if (!seconds[i].empty()) {
                ++compared[i];
                lost[i] += lost_here[i] ? 1 : 0;
            }
    }
    std::vector<bool> result(count, false);
    for (std::size_t i = 1; i < count; ++i) result[i] = compared[i] > 0 && lost[i] == compared[i];
    return result;
}

}  // namespace

const char* source_name(Source source) {
    switch (source) {
    case Source::forced: return "forced";
    case Source::rules: return "rules";
    case Source::trial: return "trial";
    case Source::estimate: return "estimate";
    }
    return "?";
}

TrialResult race_result(const Timings& reference, const Timings& candidate) {
    constexpr std::size_t enough = 2;  // calls each way for a class to count
    TrialResult result;
    bool compared = false;
    for (int c = 0; c < size_classes; ++c) {
        const std::vector<double> native = timed(reference, c), combined = timed(candidate, c);
        if (native.size() < enough || combined.size() < enough) continue;
        compared = true;
        const double reference_median = median(native), combined_median = median(combined);
        const double p = p_faster(combined, native);
        const bool faster = combined_median <= reference_median * (1 - AutoTuner::required_gain) &&
                            p <= AutoTuner::required_p;
        if (!faster) {
            if (!result.combined) result = {false, 0, reference_median, combined_median, p};
            break;
        }
        result = {true, size_class_limit(c), reference_median, combined_median, p};
    }
    // Too few calls to test (a race ended by its first stage): native, with the medians for the log.
    const std::vector<double> native = timed(reference), combined = timed(candidate);
    if (!compared && !native.empty() && !combined.empty()) result = {false, 0, median(native), median(combined), 1};
    return result;
}

std::vector<bool> clearly_lost(const std::vector<Timings>& contenders) {
    return lost_in_every_class(contenders, [](const std::vector<std::vector<double>>& seconds, std::size_t fastest) {
        const double best_median = median(seconds[fastest]);
        const double best_slowest = std::ranges::max(seconds[fastest]);
        std::vector<bool> lost(seconds.size(), false);
        for (std::size_t i = 0; i < seconds.size(); ++i)
            lost[i] = i != fastest && !seconds[i].empty() &&
                      median(seconds[i]) >= best_median * (1 + AutoTuner::required_gain) &&
                      std::ranges::min(seconds[i]) > best_slowest;
        return lost;
    });
}

std::vector<bool> cannot_win(const std::vector<Timings>& contenders) {
    return lost_in_every_class(contenders, [](const std::vector<std::vector<double>>& seconds, std::size_t) {
        std::vector<bool> lost(seconds.size(), false);
        if (seconds[0].empty()) return lost;
        const double reference = median(seconds[0]);
        for (std::size_t i = 1; i < seconds.size(); ++i)
            lost[i] = !seconds[i].empty() && median(seconds[i]) >= reference;
        return lost;
    });
}

std::vector<bool> hopeless(const std::vector<Timings>& contenders) {
    return lost_in_every_class(contenders, [](const std::vector<std::vector<double>>& seconds, std::size_t fastest) {
        const double best_median = median(seconds[fastest]);
        std::vector<bool> lost(seconds.size(), false);
        for (std::size_t i = 0; i < seconds.size(); ++i)
            lost[i] = !seconds[i].empty() && median(seconds[i]) >= best_median * AutoTuner::hopeless_factor;
        return lost;
    });
}

AutoTuner::AutoTuner(Opener opener, int most_contenders, const std::vector<std::pair<int, Source>>& counted)
    : opener_(std::move(opener)), most_contenders_(most_contenders),
      first_checkpoint_(stage_calls(0, most_contenders + 1) + 1) {
    for (Checkpoints& checkpoints : checkpoints_) checkpoints.next = first_checkpoint_;
    for (const auto& [index, source] : counted) {
        shapes_[static_cast<std::size_t>(index)].counted = true;
        ++decided_native_;
        ++decided_by_[static_cast<std::size_t>(source)];
    }
}

int AutoTuner::shape_index(Collective collective, Form form, int size_class) {
    return (static_cast<int>(collective) * form_count + static_cast<int>(form)) * shapes_per_form + size_class + 1;
}

void AutoTuner::mark_native(Collective collective, Form form, int size_class, bool native) {
    const auto bit = static_cast<std::uint16_t>(1U << (size_class + 1));
    std::uint16_t& shapes = checkpoints_[pair_index(collective, form)].native_shapes;
    shapes = static_cast<std::uint16_t>(native ? shapes | bit : shapes & ~bit);
}

std::uint64_t AutoTuner::settled_calls() const {
    std::uint64_t calls = 0;
    for (const Checkpoints& checkpoints : checkpoints_) calls += checkpoints.settled.load(std::memory_order_relaxed);
    return calls;
}

void AutoTuner::reset_settled_calls() {
    for (Checkpoints& checkpoints : checkpoints_) checkpoints.settled.store(0, std::memory_order_relaxed);
}

bool AutoTuner::at_checkpoint(Collective collective, Form form) {
    Checkpoints& checkpoints = checkpoints_[pair_index(collective, form)];
    if (++checkpoints.calls != checkpoints.next) return false;
    // Right after each stage of the largest race begun with the first call, then doubling.
    const int passed = ++checkpoints.passed;
    checkpoints.next += passed < stages ? stage_calls(passed, most_contenders_ + 1) : checkpoints.next;
    return true;
}

void AutoTuner::open(Shape& shape, Collective collective, Form form, int size_class, std::size_t typical_block,
                     const ReduceMax& reduce, const Tell& verdict) {
    std::size_t block_bytes = 0;
    if (size_class >= 0) {
        block_bytes = representative_block(size_class);
    } else {
        std::vector<double> typical{static_cast<double>(typical_block)};
        reduce(typical);
        block_bytes = static_cast<std::size_t>(typical[0]);
    }
    Opening opening = opener_(collective, form, size_class, block_bytes);
    if (!opening.decided && (opening.contenders.empty() || most_contenders_ == 0))
        opening.decided = Decision{.source = Source::estimate};
    if (opening.decided) {
        decide(shape, *opening.decided, {collective, form, size_class, *opening.decided, {}}, verdict);
        return;
    }
    std::lock_guard lock(samples_mutex_);  // record() reads the state
    shape.contenders = {-1};
    const auto raced = std::min(opening.contenders.size(), static_cast<std::size_t>(most_contenders_));
    shape.contenders.insert(shape.contenders.end(), opening.contenders.begin(),
                            opening.contenders.begin() + static_cast<std::ptrdiff_t>(raced));
    shape.live.resize(shape.contenders.size());
    for (std::size_t p = 0; p < shape.live.size(); ++p) shape.live[p] = static_cast<int>(p);
    const std::size_t slots = shape.contenders.size() * samples_per_contender;
    shape.seconds.assign(slots, -1);
    shape.classes.assign(slots, -1);
    shape.state = State::trial;
}

Choice AutoTuner::route_of(Shape& shape, int index) {
    switch (shape.state) {
    case State::decided:
        if (!shape.decision.combined) return {};
        return {Route::combined, shape.decision.candidate, shape.decision.cutoff, {}};
    case State::trial: return trial_call(shape, index);
    default: return {};  // waiting for its stage's checkpoint
    }
}

Choice AutoTuner::trial_call(Shape& shape, int index) {
    const int racing = static_cast<int>(shape.live.size());
    const int call = shape.calls++;
    const auto route = [&shape](int position) {
        const int candidate = shape.contenders[static_cast<std::size_t>(position)];
        return candidate < 0 ? Choice{Route::reference, 0, SIZE_MAX, {}, true}
                             : Choice{Route::combined, candidate, SIZE_MAX, {}, true};
    };
    if (shape.calls == stage_calls(shape.stage, racing)) {
        std::lock_guard lock(samples_mutex_);
        shape.state = State::waiting;
    }
    const int warmup = shape.stage == 0 ? racing : 0;
    if (call < warmup) return route(shape.live[static_cast<std::size_t>(call)]);
    const int paired = call - warmup, sample = paired / 2;
    const int position = shape.live[static_cast<std::size_t>(sample % racing)];
    Choice choice = route(position);
    if (paired % 2 == 1) {
        int number = sample / racing;
        for (int stage = 0; stage < shape.stage; ++stage) number += stage_samples[stage];
        choice.ticket = {index, shape.stage, position * samples_per_contender + number};
    }
    return choice;
}

// A call that completes after its stage's checkpoint comes too late to count.
void AutoTuner::record(const TrialTicket& ticket, int local_class, double seconds) {
    std::lock_guard lock(samples_mutex_);
    const Shape& shape = shapes_[static_cast<std::size_t>(ticket.shape)];
    if ((shape.state != State::trial && shape.state != State::waiting) || shape.stage != ticket.stage) return;
    samples_.push_back({ticket.shape, ticket, local_class, seconds});
}

void AutoTuner::decide_complete_stages(Collective collective, Form form, const ReduceMax& reduce,
                                       const Tell& verdict) {
    // This process's times and block classes by slot for each shape whose stage is complete (-1
    // elsewhere), then the slowest process's and the largest.
    const std::size_t per_shape = static_cast<std::size_t>(most_contenders_ + 1) * samples_per_contender;
    const int first = shape_index(collective, form, -1);
    std::vector<double> values(shapes_per_form * 2 * per_shape, -1);
    std::array<bool, shapes_per_form> complete{};
    {
        std::lock_guard lock(samples_mutex_);
        for (int s = 0; s < shapes_per_form; ++s)
            complete[s] = shapes_[static_cast<std::size_t>(first + s)].state == State::waiting;
        for (const Sample& sample : samples_) {
            const int s = sample.shape - first;
            if (s < 0 || s >= shapes_per_form || !complete[s]) continue;
            const std::size_t at = static_cast<std::size_t>(s) * 2 * per_shape + static_cast<std::size_t>(sample.ticket.slot);
            values[at] = sample.seconds;
            values[at + per_shape] = sample.local_class;
        }
        std::erase_if(samples_, [&](const Sample& sample) {
            const int s = sample.shape - first;
            return s >= 0 && s < shapes_per_form && complete[s];
        });
        // Until the step below, late calls of the stage are not recorded.
        for (int s = 0; s < shapes_per_form; ++s)
            if (complete[s]) ++shapes_[static_cast<std::size_t>(first + s)].stage;
    }
    reduce(values);
    for (int s = 0; s < shapes_per_form; ++s) {
        if (!complete[s]) continue;
        Shape& shape = shapes_[static_cast<std::size_t>(first + s)];
        for (std::size_t slot = 0; slot < shape.seconds.size(); ++slot) {
            const std::size_t at = static_cast<std::size_t>(s) * 2 * per_shape + slot;
            if (values[at] < 0) continue;
            shape.seconds[slot] = values[at];
            shape.classes[slot] = static_cast<int>(values[at + per_shape]);
        }
        conclude_stage(shape, collective, form, s - 1, verdict);
    }
}

void AutoTuner::conclude_stage(Shape& shape, Collective collective, Form form, int size_class, const Tell& verdict) {
    const std::size_t count = shape.contenders.size();
    std::vector<Timings> timings(count);
    for (std::size_t p = 0; p < count; ++p) {
        const auto begin = static_cast<std::ptrdiff_t>(p * samples_per_contender);
        timings[p].seconds.assign(shape.seconds.begin() + begin, shape.seconds.begin() + begin + samples_per_contender);
        timings[p].classes.assign(shape.classes.begin() + begin, shape.classes.begin() + begin + samples_per_contender);
    }
    std::vector<bool> racing(count, false);
    for (const int p : shape.live) racing[static_cast<std::size_t>(p)] = true;
    // The hopeless go after the first stage; after the second the clear losers, and those no faster
    // than the reference, which a third stage would rarely turn.
    if (shape.stage < stages) {
        std::vector<Timings> live;
        for (const int p : shape.live) live.push_back(timings[static_cast<std::size_t>(p)]);
        std::vector<bool> lost = shape.stage == 1 ? hopeless(live) : clearly_lost(live);
        if (shape.stage == 2) {
            const std::vector<bool> behind = cannot_win(live);
            for (std::size_t i = 0; i < lost.size(); ++i) lost[i] = lost[i] || behind[i];
        }
        for (std::size_t i = 0; i < lost.size(); ++i)
            if (lost[i]) racing[static_cast<std::size_t>(shape.live[i])] = false;
    }
    // The fastest of the candidates racing on that beat the reference; where none did, the
    // nearest, and where all were dropped, the nearest of all, for the log and the rules file.
    const auto left = std::count(racing.begin() + 1, racing.end(), true);
    Verdict told{collective, form, size_class, {.source = Source::trial}, {}};
    bool first = true;
    for (std::size_t p = 1; p < count; ++p) {
        if (!racing[p] && left > 0) continue;
        const TrialResult result = race_result(timings[0], timings[p]);
        const bool better = first || result.combined > told.result.combined ||
                            (result.combined == told.result.combined &&
                             result.combined_seconds < told.result.combined_seconds);
        first = false;
        if (!better) continue;
        told.result = result;
        told.decision = {.combined = result.combined, .candidate = shape.contenders[p], .cutoff = result.cutoff,
                         .source = Source::trial};
    }
    // Decided after the last stage, or before where one candidate or none is left and that one's
    // result is clear; else the rest race again.
    if (shape.stage == stages || left == 0 || (left == 1 && told.decision.combined)) {
        if (!told.decision.combined) told.decision = {.source = Source::trial};
        decide(shape, told.decision, told, verdict);
        return;
    }
    std::lock_guard lock(samples_mutex_);
    shape.live.clear();
    for (std::size_t p = 0; p < count; ++p)
        if (racing[p]) shape.live.push_back(static_cast<int>(p));
    shape.calls = 0;
    shape.state = State::trial;
}

void AutoTuner::decide(Shape& shape, Decision decision, Verdict verdict, const Tell& tell) {
    if (shape.mimicked && (decision.source == Source::trial || decision.source == Source::estimate)) {
        if (decision.combined)
            decision.cutoff = std::max(decision.cutoff, shape.mimicked->cutoff);
        else
            decision = *shape.mimicked;
        verdict.decision = decision;
    }
    {
        std::lock_guard lock(samples_mutex_);  // record() reads the state
        shape.state = State::decided;
        shape.decision = decision;
    }
    mark_native(verdict.collective, verdict.form, verdict.size_class, !decision.combined);
    if (!shape.counted) {
        ++(decision.combined ? decided_combined_ : decided_native_);
        ++decided_by_[static_cast<std::size_t>(decision.source)];
    }
    if (decision.combined && decision.source == Source::trial)
        combine_what_it_mimics(verdict.collective, verdict.form, verdict.size_class, decision);
    if (tell) tell(verdict);
}

// Guideline GL4 of "Performance guidelines and a microbenchmark for MPI neighborhood collectives"
// (bench/nbrbench/README.md): allgather (allgatherv) shall not be slower than alltoall (alltoallv),
// which can mimic it. Native MPIs send both alike, one message per edge, and an allgather's combining
// schedule moves no more than an alltoall's of the same blocks; so where a trial finds an alltoall
// shape combining, the allgather shape of its form and block class runs the same candidate, at the
// larger of their cutoffs, where its own trial or estimate found no gain; where its trial or
// opening is still to come, that decides first (decide()): an allgather's best candidate may differ
// from an alltoall's. Not where a setting or a rule decided it. Every process decides the alltoall
// shape at the same call, so all change the allgather shape alike.
void AutoTuner::combine_what_it_mimics(Collective collective, Form form, int size_class, const Decision& decision) {
    if (collective != Collective::alltoall && collective != Collective::alltoallv) return;
    const Collective mimicked = collective == Collective::alltoall ? Collective::allgather : Collective::allgatherv;
    const int index = shape_index(mimicked, form, size_class);
    std::lock_guard lock(samples_mutex_);
    Shape& shape = shapes_[static_cast<std::size_t>(index)];
    if (shape.counted) return;  // a setting or a rule keeps it native
    if (shape.state != State::decided) {
        shape.mimicked = decision;
        return;
    }
    if (shape.decision.source == Source::forced || shape.decision.source == Source::rules) return;
    if (shape.decision.combined) {
        shape.decision.cutoff = std::max(shape.decision.cutoff, decision.cutoff);
        return;
    }
    --decided_native_;
    --decided_by_[static_cast<std::size_t>(shape.decision.source)];
    ++decided_combined_;
    ++decided_by_[static_cast<std::size_t>(Source::trial)];
    shape.decision = decision;
    mark_native(mimicked, form, size_class, false);
}

}  // namespace nbrcomb::detail
