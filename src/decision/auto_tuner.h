// Auto mode (the default): for each shape of call on a communicator (collective, form, block-size
// class), what runs: the MPI's own collective, or one of the combining candidates Phase 1
// planned. One decision layer in tiers, strongest first (src/decision/decision_tiers.h opens each shape):
// forced by NBRCOMB_FORCE, learned from a rules file of an earlier run, measured by a trial that
// races the candidates the estimate cannot rule out against native, or estimated: where no
// candidate can beat native at the shape's block size, native from its first call.
//
// A trial's calls go to each contender in turn and are timed, in three stages; after each, every
// process contributes its timings to a reduction and all take the same step from its result: drop
// the contenders that lost, decide, or race the rest once more. Every process with edges
// calls the collectives in the same order, but the block sizes of allgather and alltoall, and so
// their shapes, may differ between the connected components of the graph: the reductions
// therefore come at fixed calls of each collective and form (checkpoints), the same on every
// process, each carrying every shape of that collective and form.
#pragma once

#include "src/base/vocabulary.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace nbrcomb::detail {

// How one call runs.
enum class Route {
    native,     // the MPI's own collective
    reference,  // a trial of the native side: the MPI itself when blocking, else the library's
                // one-message-per-edge schedule, whose completion the library sees
    combined,   // a combining candidate's schedule
};

// Where a shape's decision came from, strongest first.
enum class Source { forced, rules, trial, estimate };
inline constexpr int source_count = 4;
const char* source_name(Source source);

// What a shape runs once decided.
struct Decision {
    bool combined = false;
    int candidate = 0;  // combined: the index of the candidate among the topology's
    // Blocks larger than this go as direct messages inside the combining schedule: the v and w
    // forms' sizes differ between processes, so only each edge's two ends agree on its size.
    std::size_t cutoff = SIZE_MAX;
    Source source = Source::estimate;
};

// How a shape begins: decided by a tier above the trial, or raced among contenders (candidate
// indices) and native. Every process opens a shape alike: the tiers read agreed settings, an
// agreed rules file and the busiest process's estimates, at block_bytes: the class's
// representative block, or for the v and w forms the largest of the processes' mean blocks at the
// shape's first call: one process's few large blocks would otherwise price every combining candidate
// out of a mesh exchange whose blocks are mostly small.
struct Opening {
    std::optional<Decision> decided;
    std::vector<int> contenders;
};
using Opener = std::function<Opening(Collective collective, Form form, int size_class, std::size_t block_bytes)>;

// Where a trial call's time goes: record() it when the call has completed.
struct TrialTicket {
    int shape = -1;  // -1: not a timed trial call
    int stage = 0;
    int slot = 0;  // the contender's position in the race times samples_per_contender, plus the sample
};

struct Choice {
    Route route = Route::native;
    int candidate = 0;  // combined: which
    std::size_t cutoff = SIZE_MAX;
    TrialTicket ticket;
    bool trial = false;  // a call of a trial, either way
};

// One contender's timed calls as the slowest process saw them: seconds and the size class of the
// largest block any process had, per call; negative seconds where nobody timed the call.
struct Timings {
    std::vector<double> seconds;
    std::vector<int> classes;
};

// What a race found for a candidate against the reference: whether combining runs, up to which
// block size, and the medians (of the slowest process) and the rank-sum p-value it was decided
// on, at the largest class it was decided for.
struct TrialResult {
    bool combined = false;
    std::size_t cutoff = 0;
    double reference_seconds = 0;
    double combined_seconds = 0;
    double p = 1;
};

// A shape's decision, for the log, the report and the rules file.
struct Verdict {
    Collective collective;
    Form form;
    int size_class;  // -1 for the v and w forms, whose calls mix sizes
    Decision decision;
    TrialResult result;  // measured decisions: the winner's race (or the best loser's)
};

// Combining runs up to the largest timed class at or below which every timed class found the
// candidate faster than the reference: by required_gain at the median of the slowest process,
// and with a one-sided rank-sum p <= required_p, so that the machine's noise does not decide.
// Native when the smallest timed class did not, or nothing was timed both ways.
TrialResult race_result(const Timings& reference, const Timings& candidate);

// Which contenders (position 0 is the reference, never dropped) clearly lost to the fastest: their
// median slower by required_gain and every one of their times slower than every one of its, in
// every block-size class where they were timed beside another contender.
std::vector<bool> clearly_lost(const std::vector<Timings>& contenders);

// Which contenders (position 0, the reference, never) cannot win: their median no faster than the
// reference's in every class where both were timed, when winning takes required_gain faster.
std::vector<bool> cannot_win(const std::vector<Timings>& contenders);

// Which contenders (position 0 never) are hopeless after a call or two: their median at least
// hopeless_factor times the fastest's, in every class where they were timed beside another: a gap
// wider than the noise a race must tell apart.
std::vector<bool> hopeless(const std::vector<Timings>& contenders);

class AutoTuner {
public:
    // Elementwise maximum over the communicator's processes, in place. Collective.
    using ReduceMax = std::function<void(std::vector<double>& values)>;

    // A trial: first one call of each contender (schedules get built), then each contender twice
    // in a row, only the second timed, in turn: a call absorbs the lag the one before left (the
    // processes leave a multi-round schedule at different times), and the first after a switch
    // would be charged with the other way's. stage_samples[s] of them each in stage s. After the
    // first, a checkpoint drops the hopeless (a losing race then costs a candidate 3 calls, not
    // 7), and decides native where no candidate is left; after the second, the clear losers and
    // those no faster than the reference go, and the shape is decided where one candidate is left
    // and clearly faster or none is; the rest run the third stage, and its checkpoint decides.
    static constexpr int stages = 3;
    static constexpr int stage_samples[stages] = {1, 2, 3};
    static constexpr int samples_per_contender = stage_samples[0] + stage_samples[1] + stage_samples[2];
    static constexpr double required_gain = 0.05;
    static constexpr double required_p = 0.05;
    static constexpr double hopeless_factor = 1.5;
    // Calls of a stage of a race of this many contenders, the reference included.
    static constexpr int stage_calls(int stage, int contenders) {
        return contenders * ((stage == 0 ? 1 : 0) + 2 * stage_samples[stage]);
    }

    // most_contenders: the most candidates any shape may race, which sets the checkpoints: one
    // right after each stage of the largest race that starts with the collective and form's first
    // call, the later ones each after twice as many calls as the one before; until a stage's
    // checkpoint its shape runs natively.
    // counted: shapes (shape_index) a setting or a rule kept native before Phase 1, already counted
    // by their source; opened later, they are not counted again.
    AutoTuner(Opener opener, int most_contenders, const std::vector<std::pair<int, Source>>& counted = {});

    int first_checkpoint() const { return first_checkpoint_; }

    // The route of the next call of this shape. A call at a checkpoint first agrees the results of
    // the shapes whose stage is complete with reduce (on every process alike, as one reduction)
    // and reports each decision to verdict. size_class: the class of every block of the call
    // (allgather and alltoall, whose blocks all processes size alike), or -1 (the v and w forms,
    // whose shape's first call, the same on every process, agrees a typical block by reduce: the
    // busiest process's mean, as the estimates price the busiest process). typical_block(): this
    // process's mean block in the call, asked only then. A template, so that the callbacks become
    // std::functions only at the checkpoints and openings.
    template <class Typical, class Reduce, class Tell>
    Choice choose(Collective collective, Form form, int size_class, const Typical& typical_block, const Reduce& reduce,
                  const Tell& verdict) {
        if (at_checkpoint(collective, form)) decide_complete_stages(collective, form, reduce, verdict);
        const int index = shape_index(collective, form, size_class);
        Shape& shape = shapes_[static_cast<std::size_t>(index)];
        if (shape.state == State::unopened) open(shape, collective, form, size_class, typical_block(), reduce, verdict);
        return route_of(shape, index);
    }

    // Whether the next call of this shape runs natively as decided, at no checkpoint: then it is
    // the native route's, which counts it with count_native, and choose() never sees it. A bit
    // and a compare where choose() takes callbacks and the shape's whole record.
    bool decided_native(Collective collective, Form form, int size_class) const {
        const std::size_t pair = pair_index(collective, form);
        const Checkpoints& checkpoints = checkpoints_[pair];
        return (checkpoints.native_shapes & (1U << (size_class + 1))) != 0 && checkpoints.calls + 1 != checkpoints.next;
    }
    // Counts a call the native route took, for the checkpoints and for the statistics
    // (settled_calls), in the line decided_native read: the only line of the communicator's
    // that such a call writes. calls = -1 takes one back.
    void count_native(Collective collective, Form form, int calls = 1) {
        Checkpoints& checkpoints = checkpoints_[pair_index(collective, form)];
        checkpoints.calls += calls;
        checkpoints.settled.store(checkpoints.settled.load(std::memory_order_relaxed) + static_cast<std::uint64_t>(calls),
                                  std::memory_order_relaxed);
    }
    // The calls count_native counted since the tuner started or reset_settled_calls, every
    // collective and form together.
    std::uint64_t settled_calls() const;
    void reset_settled_calls();
    // Asks the cache for what decided_native reads, ahead of the checks before it.
    void prefetch_native(Collective collective, Form form) const {
        __builtin_prefetch(&checkpoints_[pair_index(collective, form)]);
    }

    // A timed trial call of ticket took seconds; local_class is the size class of its largest
    // block on this process. May come from another thread (a nonblocking call completing).
    void record(const TrialTicket& ticket, int local_class, double seconds);

    // Shapes decided so far, combined and native, and by source.
    std::uint64_t decided_combined() const { return decided_combined_; }
    std::uint64_t decided_native() const { return decided_native_; }
    std::uint64_t decided_by(Source source) const { return decided_by_[static_cast<std::size_t>(source)]; }

    // Shapes of one collective and form: the v and w forms' one, and one per size class.
    static constexpr int shapes_per_form = size_classes + 1;
    static constexpr int shape_count = collective_count * form_count * shapes_per_form;
    static int shape_index(Collective collective, Form form, int size_class);

private:
    enum class State : std::uint8_t { unopened, trial, waiting, decided };
    struct Shape {
        State state = State::unopened;
        Decision decision;
        std::vector<int> contenders;  // position 0: the reference (-1), then candidate indices
        std::vector<int> live;        // positions racing in this stage
        int stage = 0;
        int calls = 0;  // of this stage
        // The agreed times and classes of every contender's samples, by slot; -1 where none.
        std::vector<double> seconds;
        std::vector<int> classes;
        bool counted = false;  // its decision was counted before Phase 1
        // An allgather shape's: the combining its alltoall shape measured (GL4), which it takes
        // where its own opening or trial, still to come, finds native.
        std::optional<Decision> mimicked;
    };
    // A collective and form's calls and checkpoints, which of its shapes are decided native
    // (bit size_class + 1), and the calls of the native route: what decided_native reads and
    // count_native writes, within one cache line. settled has one writer, the thread in a
    // collective call of the communicator (MPI lets no two run at once), and any reader.
    struct alignas(32) Checkpoints {
        int calls = 0;
        int next = 0;
        int passed = 0;
        std::uint16_t native_shapes = 0;
        std::atomic<std::uint64_t> settled{0};
    };
    struct Sample {
        int shape;
        TrialTicket ticket;
        int local_class;
        double seconds;
    };
    using Tell = std::function<void(const Verdict&)>;

    static std::size_t pair_index(Collective collective, Form form) {
        return static_cast<std::size_t>(static_cast<int>(collective) * form_count + static_cast<int>(form));
    }
    // Sets what decided_native reads of a shape: whether it is decided native.
    void mark_native(Collective collective, Form form, int size_class, bool native);
    // Counts a call of the collective and form; whether it is at a checkpoint.
    bool at_checkpoint(Collective collective, Form form);
    void open(Shape& shape, Collective collective, Form form, int size_class, std::size_t typical_block,
              const ReduceMax& reduce, const Tell& verdict);
    Choice route_of(Shape& shape, int index);
    Choice trial_call(Shape& shape, int index);
    void decide_complete_stages(Collective collective, Form form, const ReduceMax& reduce, const Tell& verdict);
    // The step after a stage's checkpoint: drop, decide, or race on.
    void conclude_stage(Shape& shape, Collective collective, Form form, int size_class, const Tell& verdict);
    void decide(Shape& shape, Decision decision, Verdict verdict, const Tell& tell);
    void combine_what_it_mimics(Collective collective, Form form, int size_class, const Decision& decision);

    Opener opener_;
    int most_contenders_;
    int first_checkpoint_;
    std::array<Shape, shape_count> shapes_{};
    std::array<Checkpoints, collective_count * form_count> checkpoints_{};
    static_assert(shapes_per_form <= 16, "Checkpoints::native_shapes has a bit per shape of a form");
    std::mutex samples_mutex_;
    std::vector<Sample> samples_;  // of the shapes in trial
    std::uint64_t decided_combined_ = 0, decided_native_ = 0;
    std::array<std::uint64_t, source_count> decided_by_{};
};

}  // namespace nbrcomb::detail
