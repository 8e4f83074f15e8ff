#include "src/auto_tuner.h"

#include <algorithm>
#include <cmath>

namespace nbrcomb::detail {

namespace {

double median(std::vector<double> values) {
    std::ranges::sort(values);
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

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

}  // namespace

const char* form_name(Form form) {
    switch (form) {
    case Form::blocking: return "blocking";
    case Form::nonblocking: return "nonblocking";
    case Form::persistent: return "persistent";
    }
    return "?";
}

int size_class(std::size_t bytes) {
    int size_class = 0;
    for (std::size_t limit = 16; bytes > limit && size_class < size_classes - 1; limit *= 4) ++size_class;
    return size_class;
}

std::size_t size_class_limit(int size_class) {
    if (size_class >= size_classes - 1) return SIZE_MAX;
    return std::size_t{16} << (2 * size_class);
}

TrialResult decide_from_times(const std::vector<double>& times) {
    constexpr int enough = AutoTuner::timed_calls / 4;  // calls each way for a class to count
    TrialResult result;
    for (int c = 0; c < size_classes; ++c) {
        std::vector<double> reference, combined;
        for (int i = 0; i < AutoTuner::timed_calls; ++i) {
            const double t = times[static_cast<std::size_t>(i)];
            const double call_class = times[static_cast<std::size_t>(AutoTuner::timed_calls + i)];
            if (t >= 0 && call_class == c) (i % 2 == 1 ? combined : reference).push_back(t);
        }
        if (static_cast<int>(reference.size()) < enough || static_cast<int>(combined.size()) < enough) continue;
        const double reference_median = median(reference), combined_median = median(combined);
        const bool faster = combined_median <= reference_median * (1 - AutoTuner::required_gain) &&
                            p_faster(combined, reference) <= AutoTuner::required_p;
        if (!faster) {
            if (!result.combined) result = {false, 0, reference_median, combined_median};
            break;
        }
        result = {true, size_class_limit(c), reference_median, combined_median};
    }
    return result;
}

int AutoTuner::shape_index(Collective collective, Form form, int size_class) {
    return (static_cast<int>(collective) * form_count + static_cast<int>(form)) * shapes_per_form + size_class + 1;
}

bool AutoTuner::at_checkpoint(Collective collective, Form form) {
    Checkpoints& checkpoints = checkpoints_[static_cast<std::size_t>(static_cast<int>(collective) * form_count +
                                                                      static_cast<int>(form))];
    if (++checkpoints.calls != checkpoints.next) return false;
    checkpoints.next *= 2;
    return true;
}

Choice AutoTuner::route_of(Collective collective, Form form, int size_class) {
    const int index = shape_index(collective, form, size_class);
    Shape& shape = shapes_[static_cast<std::size_t>(index)];
    if (shape.complete()) return {Route::native, SIZE_MAX, {}};  // until the next checkpoint decides
    switch (shape.state) {
    case State::native: return {Route::native, SIZE_MAX, {}};
    case State::combined: return {Route::combined, shape.cutoff, {}};
    case State::trial: break;
    }
    const int call = shape.calls++;
    if (call < warmup_calls) return {call % 2 == 1 ? Route::combined : Route::reference, SIZE_MAX, {}};
    // Timed call i (i odd: combined) is the second of the pair of calls 2i, 2i + 1 after the warm-up.
    const int paired = call - warmup_calls, sample = paired / 2;
    Choice choice{sample % 2 == 1 ? Route::combined : Route::reference, SIZE_MAX, {}};
    if (paired % 2 == 1) choice.ticket = {index, sample};
    return choice;
}

// A call that completes after its shape's decision comes too late to count.
void AutoTuner::record(const TrialTicket& ticket, int local_class, double seconds) {
    std::lock_guard lock(samples_mutex_);
    if (shapes_[static_cast<std::size_t>(ticket.shape)].state != State::trial) return;
    samples_.push_back({ticket.shape, ticket.sample, local_class, seconds});
}

void AutoTuner::decide_complete_shapes(Collective collective, Form form, const ReduceMax& reduce,
                                       const std::function<void(const Verdict&)>& verdict) {
    // This process's times and block classes by call for each shape whose trial is complete
    // (-1 elsewhere), then the slowest process's and the largest.
    constexpr std::size_t per_shape = 2 * timed_calls;
    const int first = shape_index(collective, form, -1);
    std::vector<double> times(shapes_per_form * per_shape, -1);
    std::array<bool, shapes_per_form> complete{};
    {
        std::lock_guard lock(samples_mutex_);
        for (int s = 0; s < shapes_per_form; ++s) complete[s] = shapes_[static_cast<std::size_t>(first + s)].complete();
        for (const Sample& sample : samples_) {
            const int s = sample.shape - first;
            if (s < 0 || s >= shapes_per_form || !complete[s]) continue;
            const std::size_t at = static_cast<std::size_t>(s) * per_shape + static_cast<std::size_t>(sample.index);
            times[at] = sample.seconds;
            times[at + timed_calls] = sample.local_class;
        }
        std::erase_if(samples_, [&](const Sample& sample) {
            const int s = sample.shape - first;
            return s >= 0 && s < shapes_per_form && complete[s];
        });
        for (int s = 0; s < shapes_per_form; ++s)
            if (complete[s]) shapes_[static_cast<std::size_t>(first + s)].state = State::native;  // for record()
    }
    reduce(times);
    for (int s = 0; s < shapes_per_form; ++s) {
        if (!complete[s]) continue;
        const auto begin = times.begin() + static_cast<std::ptrdiff_t>(s * per_shape);
        const TrialResult result = decide_from_times(std::vector<double>(begin, begin + per_shape));
        Shape& shape = shapes_[static_cast<std::size_t>(first + s)];
        shape.state = result.combined ? State::combined : State::native;
        shape.cutoff = result.cutoff;
        ++(result.combined ? decided_combined_ : decided_native_);
        if (result.combined) combine_what_it_mimics(collective, form, s - 1, result.cutoff);
        if (verdict) verdict({collective, form, s - 1, result});
    }
}

// Paper 004's GL4: allgather (allgatherv) shall not be slower than alltoall (alltoallv), which can
// mimic it. Native MPIs send both alike, one message per edge, and an allgather's combining
// schedule moves no more than an alltoall's of the same blocks; so where an alltoall shape combines,
// the allgather shape of its form and block class does too, at the larger of their cutoffs, even
// where its own trial found no clear gain, or has yet to end. Every process decides the alltoall
// shape at the same call, so all change the allgather shape alike.
void AutoTuner::combine_what_it_mimics(Collective collective, Form form, int size_class, std::size_t cutoff) {
    if (collective != Collective::alltoall && collective != Collective::alltoallv) return;
    const Collective mimicked = collective == Collective::alltoall ? Collective::allgather : Collective::allgatherv;
    const int index = shape_index(mimicked, form, size_class);
    std::lock_guard lock(samples_mutex_);  // record() reads the state
    Shape& shape = shapes_[static_cast<std::size_t>(index)];
    if (shape.state == State::combined) {
        shape.cutoff = std::max(shape.cutoff, cutoff);
        return;
    }
    if (shape.state == State::native) --decided_native_;
    if (shape.state == State::trial) std::erase_if(samples_, [index](const Sample& sample) { return sample.shape == index; });
    ++decided_combined_;
    shape.state = State::combined;
    shape.cutoff = cutoff;
}

}  // namespace nbrcomb::detail
