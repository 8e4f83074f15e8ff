#include "src/decision/auto_tuner.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// Timings of n calls of one class around seconds, spread by +-spread so that two contenders
// overlap when they are close.
Timings timings(int n, double seconds, int size_class = 2, double spread = 0.01) {
    Timings result;
    for (int i = 0; i < n; ++i) {
        result.seconds.push_back(seconds * (1 + spread * (i % 4 - 1.5)));
        result.classes.push_back(size_class);
    }
    return result;
}

// The largest block of a call, as choose() asks for it.
auto block(std::size_t bytes) {
    return [bytes] { return bytes; };
}

// A single process's reduction: the maximum is its own values.
const AutoTuner::ReduceMax alone = [](std::vector<double>&) {};

// The opening every shape gets: a race of these contenders.
Opener race(std::vector<int> contenders) {
    return [contenders](Collective, Form, int, std::size_t) { return Opening{std::nullopt, contenders}; };
}

// Runs calls of one shape on tuner, each contender's calls taking its seconds (the reference's
// under key -1); counts the calls each way and the trial's.
struct Calls {
    std::map<int, int> calls;  // by candidate, -1 for native and reference
    int trial_calls = 0;
    std::vector<Verdict> verdicts;
};
Calls run(AutoTuner& tuner, Collective collective, int size_class, int calls, const std::map<int, double>& seconds) {
    Calls result;
    for (int call = 0; call < calls; ++call) {
        const Choice choice = tuner.choose(collective, Form::blocking, size_class, block(100), alone,
                                           [&](const Verdict& verdict) { result.verdicts.push_back(verdict); });
        const int way = choice.route == Route::combined ? choice.candidate : -1;
        ++result.calls[way];
        result.trial_calls += choice.trial ? 1 : 0;
        if (choice.ticket.shape >= 0) tuner.record(choice.ticket, size_class, seconds.at(way));
    }
    return result;
}

// The call (counted from 1) of the k-th checkpoint (k from 1) of each collective and form of a tuner
// whose largest race has this many contenders, the reference included.
int checkpoint(int k, int contenders) {
    int call = AutoTuner::stage_calls(0, contenders) + 1;
    for (int passed = 1; passed < k; ++passed)
        call += passed < AutoTuner::stages ? AutoTuner::stage_calls(passed, contenders) : call;
    return call;
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
    EXPECT_EQ(representative_block(1), 64u);
    EXPECT_EQ(representative_block(size_classes - 1), 262144u);
}

TEST(AutoTuner, combining_wins_only_clearly) {
    const int n = AutoTuner::samples_per_contender;
    const TrialResult faster = race_result(timings(n, 10e-6), timings(n, 6e-6));
    EXPECT_TRUE(faster.combined);
    EXPECT_EQ(faster.cutoff, size_class_limit(2));
    EXPECT_NEAR(faster.combined_seconds, 6e-6, 1e-6);
    EXPECT_LE(faster.p, AutoTuner::required_p);
    EXPECT_FALSE(race_result(timings(n, 10e-6), timings(n, 9.8e-6)).combined) << "2% is noise";
    EXPECT_FALSE(race_result(timings(n, 10e-6), timings(n, 14e-6)).combined);
    // Faster at the median, but the two sides overlap too much to tell.
    EXPECT_FALSE(race_result(timings(n, 10e-6), timings(n, 9e-6, 2, 0.5)).combined);
}

TEST(AutoTuner, a_loss_at_a_small_class_keeps_larger_ones_native) {
    Timings reference = timings(4, 10e-6, 1), combined = timings(4, 12e-6, 1);
    const Timings large_reference = timings(4, 100e-6, 5), large_combined = timings(4, 50e-6, 5);
    for (const auto& [into, from] : {std::pair{&reference, &large_reference}, std::pair{&combined, &large_combined}}) {
        into->seconds.insert(into->seconds.end(), from->seconds.begin(), from->seconds.end());
        into->classes.insert(into->classes.end(), from->classes.begin(), from->classes.end());
    }
    EXPECT_FALSE(race_result(reference, combined).combined);
}

TEST(AutoTuner, nothing_timed_both_ways_is_native) {
    Timings none;
    none.seconds.assign(6, -1);
    none.classes.assign(6, -1);
    EXPECT_FALSE(race_result(none, timings(6, 1e-6)).combined);
    EXPECT_FALSE(race_result(timings(6, 1e-6), none).combined);
}

// Clear losers go after the second stage: slower by the required gain at the median, with no time
// overlapping the fastest's; the reference stays whatever its times.
TEST(AutoTuner, clear_losers_are_dropped_and_the_reference_never) {
    const int n = AutoTuner::stage_samples[0] + AutoTuner::stage_samples[1];
    const std::vector<bool> lost =
        clearly_lost({timings(n, 30e-6), timings(n, 6e-6), timings(n, 20e-6), timings(n, 6.1e-6)});
    EXPECT_EQ(lost, (std::vector<bool>{false, false, true, false}));
    EXPECT_EQ(clearly_lost({timings(n, 10e-6), timings(n, 10.2e-6), timings(n, 10e-6, 2, 0.5)}),
              (std::vector<bool>{false, false, false}))
        << "close or overlapping times are no clear loss";
}

// After the second stage a candidate no faster than the reference goes too, though close to it: the
// third stage would rarely turn it; faster in one class of two keeps it.
TEST(AutoTuner, candidates_no_faster_than_the_reference_cannot_win) {
    const int n = AutoTuner::stage_samples[0] + AutoTuner::stage_samples[1];
    EXPECT_EQ(cannot_win({timings(n, 10e-6), timings(n, 10.2e-6), timings(n, 9e-6), timings(n, 10e-6)}),
              (std::vector<bool>{false, true, false, true}));
    Timings mixed = timings(n, 11e-6, 1);
    mixed.seconds.back() = 8e-6;
    mixed.classes.back() = 5;
    Timings reference = timings(n, 10e-6, 1);
    reference.classes.back() = 5;
    EXPECT_EQ(cannot_win({reference, mixed}), (std::vector<bool>{false, false})) << "faster in class 5";
}

// The hopeless go after the first stage, one timed call each: a median at least hopeless_factor
// times the fastest contender's; the reference stays whatever its time.
TEST(AutoTuner, hopeless_candidates_are_dropped_after_one_call_and_the_reference_never) {
    const int n = AutoTuner::stage_samples[0];
    EXPECT_EQ(hopeless({timings(n, 30e-6), timings(n, 10e-6), timings(n, 15e-6), timings(n, 14e-6)}),
              (std::vector<bool>{false, false, true, false}));
    EXPECT_EQ(hopeless({timings(n, 10e-6), timings(n, 14.9e-6), timings(0, 1e-6)}), (std::vector<bool>{false, false, false}))
        << "within the factor, or never timed, is no loss yet";
}

// The v and w forms' calls mix block sizes: a candidate timed on a large call is no loser beside a
// small call of the fastest, and loses only in every class where both were timed.
TEST(AutoTuner, losses_count_only_within_a_block_size_class) {
    const int n = AutoTuner::stage_samples[0];
    EXPECT_EQ(hopeless({timings(n, 10e-6, 1), timings(n, 100e-6, 5)}), (std::vector<bool>{false, false}));
    Timings mixed = timings(2, 30e-6, 1);
    const Timings large = timings(2, 100e-6, 5);
    mixed.seconds.insert(mixed.seconds.end(), large.seconds.begin(), large.seconds.end());
    mixed.classes.insert(mixed.classes.end(), large.classes.begin(), large.classes.end());
    Timings reference = timings(2, 10e-6, 1);
    const Timings reference_large = timings(2, 90e-6, 5);
    reference.seconds.insert(reference.seconds.end(), reference_large.seconds.begin(), reference_large.seconds.end());
    reference.classes.insert(reference.classes.end(), reference_large.classes.begin(), reference_large.classes.end());
    EXPECT_EQ(hopeless({reference, mixed}), (std::vector<bool>{false, false})) << "close in class 5";
    EXPECT_EQ(clearly_lost({reference, mixed}), (std::vector<bool>{false, true})) << "slower in both classes";
}

// One candidate against native: a warm-up call each, then each twice in a row with the second
// timed; a clear winner is decided at the second checkpoint, and later calls follow it.
TEST(AutoTuner, a_clear_winner_is_decided_after_the_second_stage) {
    AutoTuner tuner(race({0}), 1);
    EXPECT_EQ(tuner.first_checkpoint(), AutoTuner::stage_calls(0, 2) + 1);
    const int stage = checkpoint(2, 2) - 1;  // the calls of the first two stages
    std::vector<Route> routes;
    for (int call = 0; call < 6; ++call) {
        const Choice choice = tuner.choose(Collective::allgather, Form::blocking, 1, block(16), alone, nullptr);
        routes.push_back(choice.route);
        EXPECT_EQ(choice.ticket.shape >= 0, call >= 2 && call % 2 == 1) << call;
        EXPECT_TRUE(choice.trial);
        if (choice.ticket.shape >= 0) tuner.record(choice.ticket, 1, choice.route == Route::combined ? 5e-6 : 10e-6);
    }
    EXPECT_EQ(routes, (std::vector<Route>{Route::reference, Route::combined, Route::reference, Route::reference,
                                          Route::combined, Route::combined}));
    const Calls rest = run(tuner, Collective::allgather, 1, stage - 6 + 3, {{-1, 10e-6}, {0, 5e-6}});
    ASSERT_EQ(rest.verdicts.size(), 1u);
    EXPECT_TRUE(rest.verdicts[0].decision.combined);
    EXPECT_EQ(rest.verdicts[0].decision.source, Source::trial);
    EXPECT_EQ(rest.trial_calls, stage - 6);
    EXPECT_EQ(tuner.decided_by(Source::trial), 1u);
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 1, block(16), alone, nullptr).route, Route::combined);
    // Another form of the same collective has a trial of its own.
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::nonblocking, 1, block(16), alone, nullptr).route, Route::reference);
}

// Three candidates raced with native on simulated timings: the hopeless one goes at the first
// checkpoint, the two close ones race on, and the faster wins at the third; racing three costs
// the later stages of two, not of three.
TEST(AutoTuner, a_race_drops_the_loser_and_decides_between_the_close_ones) {
    AutoTuner tuner(race({0, 1, 2}), 3);
    const std::map<int, double> seconds{{-1, 10e-6}, {0, 5.6e-6}, {1, 20e-6}, {2, 5.4e-6}};
    const Calls trial = run(tuner, Collective::alltoall, 2, checkpoint(3, 4) + 2, seconds);
    ASSERT_EQ(trial.verdicts.size(), 1u);
    EXPECT_EQ(trial.verdicts[0].decision.candidate, 2);
    EXPECT_TRUE(trial.verdicts[0].decision.combined);
    EXPECT_EQ(trial.trial_calls,
              AutoTuner::stage_calls(0, 4) + AutoTuner::stage_calls(1, 3) + AutoTuner::stage_calls(2, 3));
    EXPECT_EQ(trial.calls.at(1), 1 + 2 * AutoTuner::stage_samples[0]) << "the loser's first-stage calls only";
    EXPECT_EQ(tuner.choose(Collective::alltoall, Form::blocking, 2, block(64), alone, nullptr).candidate, 2);
}

// Where native is clearly fastest, the hopeless candidate goes at the first checkpoint, the clear
// loser at the second, and the shape stays native.
TEST(AutoTuner, native_wins_as_soon_as_every_candidate_clearly_lost) {
    AutoTuner tuner(race({0, 1}), 2);
    const Calls trial = run(tuner, Collective::allgather, 3, checkpoint(2, 3) + 1, {{-1, 10e-6}, {0, 25e-6}, {1, 14e-6}});
    ASSERT_EQ(trial.verdicts.size(), 1u);
    EXPECT_FALSE(trial.verdicts[0].decision.combined);
    EXPECT_EQ(trial.trial_calls, AutoTuner::stage_calls(0, 3) + AutoTuner::stage_calls(1, 2));
    EXPECT_EQ(tuner.decided_native(), 1u);
}

// Where every candidate is hopeless, the first checkpoint decides native: racing three losers
// costs three calls of each, and the log still gets the best loser's times.
TEST(AutoTuner, hopeless_candidates_cost_three_calls_each) {
    AutoTuner tuner(race({0, 1, 2}), 3);
    const Calls trial =
        run(tuner, Collective::allgather, 3, checkpoint(1, 4) + 1, {{-1, 10e-6}, {0, 25e-6}, {1, 30e-6}, {2, 16e-6}});
    ASSERT_EQ(trial.verdicts.size(), 1u);
    EXPECT_FALSE(trial.verdicts[0].decision.combined);
    EXPECT_EQ(trial.verdicts[0].decision.source, Source::trial);
    EXPECT_DOUBLE_EQ(trial.verdicts[0].result.combined_seconds, 16e-6);
    EXPECT_DOUBLE_EQ(trial.verdicts[0].result.reference_seconds, 10e-6);
    EXPECT_EQ(trial.trial_calls, AutoTuner::stage_calls(0, 4));
    for (const int candidate : {0, 1, 2}) EXPECT_EQ(trial.calls.at(candidate), 3) << candidate;
}

// The tiers above the trial open a shape decided: no trial call, and the decision counted by its
// source; an estimate with no contender is native.
TEST(AutoTuner, shapes_decided_above_the_trial_run_no_trial) {
    AutoTuner tuner(
        [](Collective collective, Form, int size_class, std::size_t) {
            if (collective == Collective::alltoallv) return Opening{Decision{true, 1, 4096, Source::forced}, {}};
            if (size_class == 6) return Opening{Decision{false, 0, SIZE_MAX, Source::rules}, {}};
            return Opening{std::nullopt, {}};
        },
        2);
    const Calls forced = run(tuner, Collective::alltoallv, -1, 3, {});
    EXPECT_EQ(forced.calls.at(1), 3);
    const Calls learned = run(tuner, Collective::allgather, 6, 3, {});
    const Calls estimated = run(tuner, Collective::allgather, 0, 3, {});
    EXPECT_EQ(learned.calls.at(-1) + estimated.calls.at(-1), 6);
    EXPECT_EQ(forced.trial_calls + learned.trial_calls + estimated.trial_calls, 0);
    EXPECT_EQ(tuner.decided_by(Source::forced), 1u);
    EXPECT_EQ(tuner.decided_by(Source::rules), 1u);
    EXPECT_EQ(tuner.decided_by(Source::estimate), 1u);
    EXPECT_EQ(tuner.choose(Collective::alltoallv, Form::blocking, -1, block(100), alone, nullptr).cutoff, 4096u);
}

// The v and w forms' shape opens at the block size the processes agree on, the largest of their
// mean blocks.
TEST(AutoTuner, the_v_forms_open_at_the_busiest_processes_mean_block) {
    std::size_t opened_at = 0;
    AutoTuner tuner(
        [&](Collective, Form, int, std::size_t block_bytes) {
            opened_at = block_bytes;
            return Opening{};
        },
        1);
    const AutoTuner::ReduceMax with_a_larger_process = [](std::vector<double>& values) {
        for (double& value : values) value = std::max(value, 5000.0);
    };
    tuner.choose(Collective::alltoallv, Form::nonblocking, -1, block(300), with_a_larger_process, nullptr);
    EXPECT_EQ(opened_at, 5000u);
    tuner.choose(Collective::allgather, Form::nonblocking, 3, block(300), with_a_larger_process, nullptr);
    EXPECT_EQ(opened_at, representative_block(3));
}

// Two processes in two components of one graph, whose allgather blocks differ in size, and the
// second changes size on the way: they try different shapes, yet reduce at the same calls, so
// neither waits in a reduction the other never makes.
TEST(AutoTuner, processes_with_different_shapes_reduce_at_the_same_calls) {
    AutoTuner first(race({0, 1}), 2), second(race({0, 1}), 2);
    std::vector<int> first_reductions, second_reductions;
    int call = 0;
    const auto counting = [&call](std::vector<int>& calls) {
        return [&calls, &call](std::vector<double>&) { calls.push_back(call); };
    };
    const AutoTuner::ReduceMax first_reduce = counting(first_reductions), second_reduce = counting(second_reductions);
    const auto seconds = [](const Choice& choice) { return choice.route == Route::combined ? 5e-6 : 10e-6; };
    for (call = 0; call < 400; ++call) {
        const Choice mine = first.choose(Collective::allgather, Form::blocking, 1, block(64), first_reduce, nullptr);
        const Choice theirs =
            second.choose(Collective::allgather, Form::blocking, call < 40 ? 2 : 3, block(1024), second_reduce, nullptr);
        if (mine.ticket.shape >= 0) first.record(mine.ticket, 1, seconds(mine));
        if (theirs.ticket.shape >= 0) second.record(theirs.ticket, 3, seconds(theirs));
    }
    EXPECT_EQ(first_reductions, second_reductions);
    EXPECT_GE(first_reductions.size(), 3u);
    EXPECT_EQ(first.decided_combined(), 1u) << "the first process's one shape";
    EXPECT_EQ(second.decided_combined(), 2u) << "the second process's two shapes";
}

// Paper 004's GL4: where an alltoall shape combines, the allgather shape of its form and class
// runs the same candidate where its own trial found native MPI as fast; other classes and forms
// keep their own trials.
TEST(AutoTuner, allgather_combines_where_alltoall_does) {
    AutoTuner tuner(race({0}), 1);
    // Allgather of class 1: its trial finds both ways alike, and it is decided native.
    run(tuner, Collective::allgather, 1, checkpoint(3, 2), {{-1, 10e-6}, {0, 10e-6}});
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 1, block(64), alone, nullptr).route, Route::native);
    EXPECT_EQ(tuner.decided_native(), 1u);
    // Alltoall of class 1 combines, clearly faster: allgather follows it.
    run(tuner, Collective::alltoall, 1, checkpoint(3, 2), {{-1, 10e-6}, {0, 5e-6}});
    EXPECT_EQ(tuner.choose(Collective::alltoall, Form::blocking, 1, block(64), alone, nullptr).route, Route::combined);
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 1, block(64), alone, nullptr).route, Route::combined);
    EXPECT_EQ(tuner.decided_combined(), 2u);
    EXPECT_EQ(tuner.decided_native(), 0u);
    // Another class and another form still try.
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::blocking, 2, block(256), alone, nullptr).route, Route::reference);
    EXPECT_EQ(tuner.choose(Collective::allgather, Form::nonblocking, 1, block(64), alone, nullptr).route, Route::reference);
}

// An allgather shape whose trial is still to come when its alltoall shape decides races on its
// own: its best candidate may be another; where it finds none faster than native, it takes the
// alltoall's.
TEST(AutoTuner, allgather_races_on_its_own_after_alltoall_decided) {
    AutoTuner tuner(race({0, 1}), 2);
    run(tuner, Collective::alltoall, 1, checkpoint(3, 3), {{-1, 10e-6}, {0, 5e-6}, {1, 6e-6}});
    ASSERT_EQ(tuner.choose(Collective::alltoall, Form::blocking, 1, block(64), alone, nullptr).candidate, 0);
    // Allgather of class 1: candidate 1 is its fastest.
    const Calls allgather = run(tuner, Collective::allgather, 1, checkpoint(3, 3),
                                {{-1, 10e-6}, {0, 6e-6}, {1, 5e-6}});
    EXPECT_GT(allgather.trial_calls, 0);
    const Choice raced = tuner.choose(Collective::allgather, Form::blocking, 1, block(64), alone, nullptr);
    EXPECT_EQ(raced.route, Route::combined);
    EXPECT_EQ(raced.candidate, 1);
    // Class 2: alltoall combines with candidate 0, allgather's own race finds nothing faster.
    // (Its checkpoints come at doubling calls of the collective: the class before took the first three.)
    run(tuner, Collective::alltoall, 2, 8 * checkpoint(3, 3), {{-1, 10e-6}, {0, 5e-6}, {1, 6e-6}});
    const Calls native = run(tuner, Collective::allgather, 2, 8 * checkpoint(3, 3),
                             {{-1, 10e-6}, {0, 10e-6}, {1, 10e-6}});
    ASSERT_FALSE(native.verdicts.empty());
    const Choice followed = tuner.choose(Collective::allgather, Form::blocking, 2, block(256), alone, nullptr);
    EXPECT_EQ(followed.route, Route::combined);
    EXPECT_EQ(followed.candidate, 0);
    EXPECT_EQ(tuner.decided_combined(), 4u);
    EXPECT_EQ(tuner.decided_native(), 0u);
}
