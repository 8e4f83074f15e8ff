// Auto mode (the default): for each shape of call on a communicator, whether the combining
// schedule runs or the MPI's own collective does, decided from the application's own calls.
// The first calls of a shape alternate between the two and are timed; then every process
// contributes its timings to a reduction and all take the same decision from its result.
// Every process with edges calls the collectives in the same order, but the block sizes of
// allgather and alltoall, and so their shapes, may differ between the connected components of the
// graph: the reductions therefore come at fixed calls of each collective and form (checkpoints),
// the same on every process, each carrying every shape of that collective and form.
#pragma once

#include "src/call_args.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace nbrcomb::detail {

enum class Form { blocking, nonblocking, persistent };
inline constexpr int form_count = 3;
const char* form_name(Form form);

// Blocks are sized into classes by powers of 4: up to 16 B, 64 B, ... 64 KiB, and larger.
inline constexpr int size_classes = 8;
int size_class(std::size_t bytes);
// The largest block of a class; SIZE_MAX for the last.
std::size_t size_class_limit(int size_class);

// How one call runs.
enum class Route {
    native,     // the MPI's own collective
    reference,  // a trial of the native side: the MPI itself when blocking, else the library's
                // one-message-per-edge schedule, whose completion the library sees
    combined,   // the combining schedule
};

// Where a trial call's time goes: record() it when the call has completed.
struct TrialTicket {
    int shape = -1;  // -1: not a timed trial call
    int sample = 0;  // the timed call's index: odd ones run combined
};

struct Choice {
    Route route = Route::native;
    // Blocks larger than this go as direct messages inside the combining schedule: the v and w
    // forms' sizes differ between processes, so only each edge's two ends agree on its size.
    std::size_t cutoff = SIZE_MAX;
    TrialTicket ticket;
};

// What a trial found: whether combining runs, up to which block size, and the medians (of the
// slowest process) it was decided on, at the largest class it was decided for.
struct TrialResult {
    bool combined = false;
    std::size_t cutoff = 0;
    double reference_seconds = 0;
    double combined_seconds = 0;
};

// A shape's decision, for the log.
struct Verdict {
    Collective collective;
    Form form;
    int size_class;  // -1 for the v and w forms, whose calls mix sizes
    TrialResult result;
};

class AutoTuner {
public:
    // Elementwise maximum over the communicator's processes, in place. Collective.
    using ReduceMax = std::function<void(std::vector<double>& values)>;

    static constexpr int warmup_calls = 2;  // one each way: schedules get built
    // Then each way twice in a row, only the second timed: a call absorbs the lag the one before
    // left (the processes leave a multi-round schedule at different times), and the first after a
    // switch would be charged with the other way's. timed_calls of them, half each way.
    static constexpr int timed_calls = 16;
    static constexpr int trial_calls = warmup_calls + 2 * timed_calls;
    // Combining is chosen for a class only when the slowest process's times show it faster by
    // this much at the median, and a one-sided rank-sum test of the two sides' times gives
    // p <= required_p: the machine's noise must not decide.
    static constexpr double required_gain = 0.05;
    static constexpr double required_p = 0.05;

    // The call after a trial: its shape's decision comes at the next checkpoint of its collective
    // and form, the first right after a trial that starts with their first call, the later ones
    // each after twice as many calls; until then the shape runs natively.
    static constexpr int first_checkpoint = trial_calls + 1;

    // The route of the next call of this shape. A call at a checkpoint first agrees the
    // decisions of the shapes whose trials are complete with reduce (on every process alike, as
    // one reduction of shape_count * 2 * timed_calls values) and reports each to verdict.
    // size_class: the class of every block of the call (allgather and alltoall, whose blocks all
    // processes size alike), or -1 (the v and w forms). A template, so that the callbacks become
    // std::functions only at the checkpoints, not on every call.
    template <class Reduce, class Tell>
    Choice choose(Collective collective, Form form, int size_class, const Reduce& reduce, const Tell& verdict) {
        if (at_checkpoint(collective, form)) decide_complete_shapes(collective, form, reduce, verdict);
        return route_of(collective, form, size_class);
    }

    // A timed trial call of ticket took seconds; local_class is the size class of its largest
    // block on this process. May come from another thread (a nonblocking call completing).
    void record(const TrialTicket& ticket, int local_class, double seconds);

    // Shapes decided so far, combined and native.
    std::uint64_t decided_combined() const { return decided_combined_; }
    std::uint64_t decided_native() const { return decided_native_; }

    // Shapes of one collective and form: the v and w forms' one, and one per size class.
    static constexpr int shapes_per_form = size_classes + 1;

private:
    enum class State : std::uint8_t { trial, native, combined };
    struct Shape {
        State state = State::trial;
        int calls = 0;
        std::size_t cutoff = SIZE_MAX;
        bool complete() const { return state == State::trial && calls == trial_calls; }
    };
    // The calls of one collective and form, the same count on every process with edges.
    struct Checkpoints {
        int calls = 0;
        int next = first_checkpoint;
    };
    struct Sample {
        int shape;
        int index;  // of the timed call: even ones ran the reference, odd ones combined
        int local_class;
        double seconds;
    };

    static int shape_index(Collective collective, Form form, int size_class);
    // Counts a call of the collective and form; whether it is at a checkpoint.
    bool at_checkpoint(Collective collective, Form form);
    Choice route_of(Collective collective, Form form, int size_class);
    void decide_complete_shapes(Collective collective, Form form, const ReduceMax& reduce,
                                const std::function<void(const Verdict&)>& verdict);
    void combine_what_it_mimics(Collective collective, Form form, int size_class, std::size_t cutoff);

    std::array<Shape, collective_count * form_count * shapes_per_form> shapes_{};
    std::array<Checkpoints, collective_count * form_count> checkpoints_{};
    std::mutex samples_mutex_;
    std::vector<Sample> samples_;  // of the shapes in trial
    std::uint64_t decided_combined_ = 0, decided_native_ = 0;
};

// The decision from the trial's timed calls as the slowest process saw them: times[i] is the
// longest any process took for timed call i (negative where none timed it), times[timed_calls +
// i] the size class of the largest block any process had in it. Combining runs up to the largest
// timed class at or below which every timed class found it faster (required_gain, required_p);
// the cutoff is that class's limit. Native when the smallest timed class did not, or nothing was
// timed both ways.
TrialResult decide_from_times(const std::vector<double>& times);

}  // namespace nbrcomb::detail
