#include "src/decision/auto_decisions.h"

#include "schedule/algorithm_table.h"

#include <gtest/gtest.h>

using namespace nbrcomb::detail;

namespace {

StatedChoices forcing(std::string_view text) {
    std::vector<std::string> problems;
    StatedChoices choices;
    choices.forced = parse_forced_choices(
        text, "NBRCOMB_FORCE", [](std::string_view name) { return find_algorithm(name) != nullptr; }, problems);
    EXPECT_TRUE(problems.empty());
    return choices;
}

using Before = AutoDecisions::Before;

}  // namespace

// Phase 1 comes in the lazy-th call of the shapes left open; a shape a setting keeps native is
// counted once, at its first call, and its calls do not bring Phase 1 nearer.
TEST(AutoDecisions, phase1_is_due_after_lazy_calls_of_open_shapes) {
    AutoDecisions decisions;
    decisions.take_choices(forcing("alltoall=native"));
    decisions.defer_phase1(3);
    ASSERT_TRUE(decisions.phase1_pending());
    EXPECT_EQ(decisions.call_before_phase1(Collective::alltoall, Form::blocking, 0, 4), Before::settled_native_now);
    EXPECT_EQ(decisions.call_before_phase1(Collective::alltoall, Form::blocking, 0, 4), Before::settled_native);
    EXPECT_EQ(decisions.decided_by(Source::forced), 1u);
    EXPECT_EQ(decisions.decided_native(), 1u);
    EXPECT_EQ(decisions.call_before_phase1(Collective::allgather, Form::blocking, 0, 4), Before::waiting);
    EXPECT_EQ(decisions.call_before_phase1(Collective::allgather, Form::blocking, 1, 100), Before::waiting);
    EXPECT_EQ(decisions.call_before_phase1(Collective::allgather, Form::blocking, 0, 8), Before::phase1_due);
    EXPECT_FALSE(decisions.phase1_pending());
    EXPECT_EQ(decisions.largest_called(), (std::array<double, 2>{100, -1})) << "allgather's kind only";
    const std::vector<std::pair<int, Source>> settled = decisions.settled_before_phase1();
    ASSERT_EQ(settled.size(), 1u);
    EXPECT_EQ(settled[0], std::pair(AutoTuner::shape_index(Collective::alltoall, Form::blocking, 0), Source::forced));
}

// A persistent collective's init builds at once; a setting that makes a shape combine makes the
// first open call Phase 1's.
TEST(AutoDecisions, a_persistent_init_or_a_forced_combination_needs_no_wait) {
    AutoDecisions persistent;
    persistent.defer_phase1(32);
    EXPECT_EQ(persistent.call_before_phase1(Collective::alltoallv, Form::persistent, -1, 64), Before::phase1_due);

    AutoDecisions forced;
    forced.take_choices(forcing("allgather=dimwise"));
    forced.defer_phase1(32);
    EXPECT_EQ(forced.call_before_phase1(Collective::alltoall, Form::blocking, 0, 4), Before::phase1_due);
}

// Once the tuner runs, it counts every shape, those settled before Phase 1 included.
TEST(AutoDecisions, the_tuner_counts_from_phase1_on) {
    AutoDecisions decisions;
    decisions.take_choices(forcing("alltoall=native"));
    decisions.defer_phase1(2);
    decisions.call_before_phase1(Collective::alltoall, Form::blocking, 0, 4);
    decisions.call_before_phase1(Collective::allgather, Form::blocking, 0, 4);
    ASSERT_EQ(decisions.call_before_phase1(Collective::allgather, Form::blocking, 0, 4), Before::phase1_due);
    const Opener nothing_to_race = [](Collective, Form, int, std::size_t) { return Opening{}; };
    decisions.start(std::make_unique<AutoTuner>(nothing_to_race, 1, decisions.settled_before_phase1()), false);
    EXPECT_FALSE(decisions.has_candidate());
    EXPECT_EQ(decisions.decided_by(Source::forced), 1u);
    EXPECT_EQ(decisions.decided_native(), 1u);
    EXPECT_EQ(decisions.decided_combined(), 0u);
}
