#include "src/auto_tuner.h"

#include <gtest/gtest.h>

#include <vector>

using namespace nbrcomb::detail;

namespace {

constexpr int timed = AutoTuner::timed_calls;

// The slowest process's times of a trial whose calls were all of class size_class: reference
// calls (even) take reference seconds, combined ones (odd) combined seconds, each spread by
// +-spread so that the two sides overlap when they are close.
std::vector<double> trial(int size_class, double reference, double combined, double spread = 0.01) {
    std::vector<double> times(2 * timed);
    for (int i = 0; i < timed; ++i) {
        const double jitter = spread * ((i / 2) % 4 - 1.5);
        times[i] = (i % 2 == 1 ? combined : reference) * (1 + jitter);
        times[timed + i] = size_class;
    }
    return times;
}

}  // namespace

TEST(AutoTuner, size_classes_are_powers_of_four_from_16_bytes) {
    EXPECT_EQ(size_class(0), 0);
    EXPECT_EQ(size_class(16), 0);
    EXPECT_EQ(size_class(17), 1);
    EXPECT_EQ(size_class(64), 1);
    EXPECT_EQ(size_class(65536), 6);
    EXPECT_EQ(size_class(65537), 7);
    EXPECT_EQ(size_class_limit(1), 64u);
    EXPECT_EQ(size_class_limit(size_classes - 1), SIZE_MAX);
}

TEST(AutoTuner, combining_wins_only_clearly) {
    const TrialResult faster = decide_from_times(trial(2, 10e-6, 6e-6));
    EXPECT_TRUE(faster.combined);
    EXPECT_EQ(faster.cutoff, size_class_limit(2));
    EXPECT_NEAR(faster.combined_seconds, 6e-6, 1e-6);
    EXPECT_FALSE(decide_from_times(trial(2, 10e-6, 9.8e-6)).combined) << "2% is noise";
    EXPECT_FALSE(decide_from_times(trial(2, 10e-6, 14e-6)).combined);
    // Faster at the median, but the two sides overlap too much to tell.
    EXPECT_FALSE(decide_from_times(trial(2, 10e-6, 9e-6, 0.5)).combined);
}

TEST(AutoTuner, a_loss_at_a_small_class_keeps_larger_ones_native) {
    std::vector<double> times = trial(1, 10e-6, 12e-6);
    const std::vector<double> large = trial(5, 100e-6, 50e-6);
    for (int i = 0; i < timed; i += 4) {  // half the calls of the larger class
        times[i] = large[i];
        times[i + 1] = large[i + 1];
        times[timed + i] = times[timed + i + 1] = 5;
    }
    EXPECT_FALSE(decide_from_times(times).combined);
}

TEST(AutoTuner, nothing_timed_both_ways_is_native) {
    std::vector<double> times(2 * timed, -1);
    EXPECT_FALSE(decide_from_times(times).combined);
}

// After two warm-ups, one each way, the calls of a shape go each way twice in a row, the second
// timed; the one after the trial agrees the decision through the reduction, and later ones follow it.
TEST(AutoTuner, a_shape_is_tried_then_decided_once) {
    AutoTuner tuner;
    int reductions = 0;
    const AutoTuner::ReduceMax reduce = [&](std::vector<double>& values) {
        ++reductions;
        EXPECT_EQ(values.size(), static_cast<std::size_t>(AutoTuner::shapes_per_form) * 2 * timed);
    };
    std::vector<Verdict> verdicts;
    const auto tell = [&](const Verdict& verdict) { verdicts.push_back(verdict); };
    for (int call = 0; call < AutoTuner::trial_calls; ++call) {
        const Choice choice = tuner.choose(Collective::allgather, Form::blocking, 1, reduce, tell);
        const int paired = call - AutoTuner::warmup_calls;
        const bool combined = paired < 0 ? call % 2 == 1 : paired / 2 % 2 == 1;
        EXPECT_EQ(choice.route, combined ? Route::combined : Route::reference) << call;
        EXPECT_EQ(choice.ticket.shape >= 0, paired >= 0 && paired % 2 == 1) << call;
        if (choice.ticket.shape >= 0) tuner.record(choice.ticket, 1, combined ? 5e-6 : 10e-6);
    }
    EXPECT_EQ(reductions, 0);
    for (int call = 0; call < 3; ++call)
        EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 1, reduce, tell).route, Route::combined);
    EXPECT_EQ(reductions, 1);
    ASSERT_EQ(verdicts.size(), 1u);
    EXPECT_TRUE(verdicts[0].result.combined);
    EXPECT_EQ(tuner.decided_combined(), 1u);
    // Another form of the same collective has a trial of its own.
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::nonblocking, 1, reduce, tell).route, Route::reference);
}

// Two processes in two components of one graph, whose allgather blocks differ in size, and the
// second changes size on the way: they try different shapes, yet reduce at the same calls, so
// neither waits in a reduction the other never makes.
TEST(AutoTuner, processes_with_different_shapes_reduce_at_the_same_calls) {
    AutoTuner first, second;
    std::vector<int> first_reductions, second_reductions;
    int call = 0;
    const auto counting = [&call](std::vector<int>& calls) {
        return [&calls, &call](std::vector<double>&) { calls.push_back(call); };
    };
    const AutoTuner::ReduceMax first_reduce = counting(first_reductions), second_reduce = counting(second_reductions);
    for (call = 0; call < 200; ++call) {
        const Choice mine = first.choose(Collective::allgather, Form::blocking, 1, first_reduce, nullptr);
        const Choice theirs = second.choose(Collective::allgather, Form::blocking, call < 40 ? 2 : 3, second_reduce, nullptr);
        if (mine.ticket.shape >= 0) first.record(mine.ticket, 1, mine.route == Route::combined ? 5e-6 : 10e-6);
        if (theirs.ticket.shape >= 0) second.record(theirs.ticket, 3, theirs.route == Route::combined ? 5e-6 : 10e-6);
    }
    EXPECT_EQ(first_reductions, second_reductions);
    EXPECT_GE(first_reductions.size(), 3u);
    EXPECT_EQ(first.decided_combined(), 1u) << "the first process's one shape";
    EXPECT_EQ(second.decided_combined(), 2u) << "the second process's two shapes";
}

// Paper 004's GL4: where an alltoall shape combines, the allgather shape of its form and class
// does too, whether its own trial found native MPI as fast, or has not ended; other classes and
// forms keep their own trials.
TEST(AutoTuner, allgather_combines_where_alltoall_does) {
    AutoTuner tuner;
    const AutoTuner::ReduceMax reduce = [](std::vector<double>&) {};
    // Allgather of class 1: its trial finds both ways alike, and it is decided native.
    for (int call = 0; call < AutoTuner::first_checkpoint; ++call) {
        const Choice choice = tuner.choose(Collective::allgather, Form::blocking, 1, reduce, nullptr);
        if (choice.ticket.shape >= 0) tuner.record(choice.ticket, 1, 10e-6);
    }
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 1, reduce, nullptr).route, Route::native);
    EXPECT_EQ(tuner.decided_native(), 1u);
    // Alltoall of class 1 combines, clearly faster: allgather follows it.
    for (int call = 0; call < AutoTuner::first_checkpoint; ++call) {
        const Choice choice = tuner.choose(Collective::alltoall, Form::blocking, 1, reduce, nullptr);
        if (choice.ticket.shape >= 0) tuner.record(choice.ticket, 1, choice.route == Route::combined ? 5e-6 : 10e-6);
    }
    EXPECT_EQ(tuner.choose(Collective::alltoall, Form::blocking, 1, reduce, nullptr).route, Route::combined);
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 1, reduce, nullptr).route, Route::combined);
    EXPECT_EQ(tuner.decided_combined(), 2u);
    EXPECT_EQ(tuner.decided_native(), 0u);
    // Another class and another form still try.
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 2, reduce, nullptr).route, Route::reference);
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::nonblocking, 1, reduce, nullptr).route, Route::reference);
}
