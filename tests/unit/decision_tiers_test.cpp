#include "src/decision/decision_tiers.h"

#include "schedule/algorithm_table.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nbrcomb::detail;

// A candidate is raced when the estimate puts it below native and near the best; the library's
// own one message per edge (NaN), which native MPI's is, never is.
TEST(DecisionTiers, the_estimate_races_what_might_win) {
    EXPECT_EQ(estimated_contenders({NAN, 6.0, 12.0, 8.0}, 10.0), (std::vector<int>{1, 3})) << "12 is above native's 10";
    EXPECT_TRUE(estimated_contenders({NAN, 10.0}, 10.0).empty()) << "no better than native";
    EXPECT_EQ(estimated_contenders({NAN, 4.0, 7.0}, 10.0), (std::vector<int>{1})) << "7 is beyond 1.5 times 4";
}

// Bandwidth-bound: every candidate forwards each byte again, so none can beat native, and the shape
// runs no trial.
TEST(DecisionTiers, nothing_is_raced_where_no_candidate_can_beat_native) {
    EXPECT_TRUE(estimated_contenders({NAN, 20.0, 25.0}, 10.0).empty());
    EXPECT_TRUE(estimated_contenders({NAN, 10.5}, 10.0).empty());
    EXPECT_TRUE(estimated_contenders({NAN}, 10.0).empty());
}

TEST(DecisionTiers, at_most_three_are_raced_fastest_first) {
    EXPECT_EQ(estimated_contenders({5.0, 4.0, 4.5, 3.9, NAN}, 10.0), (std::vector<int>{3, 1, 2}));
}

namespace {

// Estimates that take at_zero microseconds at 0 B and per_byte more per block byte (one round
// within a node), for both kinds of blocks.
KindCosts line(double at_zero, double per_byte) {
    const MessageOverheads overheads;
    RoundCosts costs;
    costs.overhead[0] = at_zero - overheads.wire_local;
    costs.local_blocks[0] = per_byte / overheads.byte_local;
    return {costs, costs};
}

constexpr std::array<double, 2> both_kinds{INFINITY, INFINITY};

}  // namespace

// A costly candidate is planned only where its best case beats every planned estimate, native's
// included, by the trial's 5 % somewhere.
TEST(DecisionTiers, plans_what_can_still_win) {
    const KindCosts native = line(20, 0.05), grid = line(7, 0.02);
    EXPECT_FALSE(can_still_win(line(7, 0.02), {native, grid}, both_kinds)) << "equal to the grid's: no gain";
    EXPECT_FALSE(can_still_win(line(6.8, 0.02), {native, grid}, both_kinds)) << "3 % better: within the noise";
    EXPECT_TRUE(can_still_win(line(6, 0.02), {native, grid}, both_kinds));
    EXPECT_TRUE(can_still_win(line(30, 0), {native, grid}, both_kinds)) << "the best at large blocks";
    EXPECT_TRUE(can_still_win(line(1, 1), {}, both_kinds)) << "nothing else planned";
}

// Where the lowest of the others changes between the small blocks' and the large blocks' winners,
// the best case must beat the lower of the two at their crossing.
TEST(DecisionTiers, judged_where_the_others_cross) {
    const KindCosts small_blocks = line(5, 0.02), large_blocks = line(15, 0.01);  // cross at 1000 B
    EXPECT_FALSE(can_still_win(line(10, 0.015), {small_blocks, large_blocks}, both_kinds)) << "25 us at 1000 B: equal";
    EXPECT_TRUE(can_still_win(line(8, 0.015), {small_blocks, large_blocks}, both_kinds)) << "23 us at 1000 B";
}

// Only the kinds of blocks the communicator's calls have had count, up to their largest.
TEST(DecisionTiers, judged_on_the_blocks_called) {
    KindCosts best_case = line(6, 0.02);
    best_case[1] = line(30, 0.05)[1];
    const KindCosts grid = line(7, 0.02);
    EXPECT_TRUE(can_still_win(best_case, {grid}, {16, -1}));
    EXPECT_FALSE(can_still_win(best_case, {grid}, {-1, 16}));
    const KindCosts small_blocks = line(5, 0.02);
    const KindCosts flatter = line(30, 0.001);  // below 0.95 times small_blocks' from about 1400 B
    EXPECT_FALSE(can_still_win(flatter, {small_blocks}, {1024, -1}));
    EXPECT_TRUE(can_still_win(flatter, {small_blocks}, {4096, -1}));
    EXPECT_TRUE(can_still_win(flatter, {small_blocks}, both_kinds));
}

namespace {

// Two candidates as Phase 1 plans them: dimwise, estimated at dimwise_us for allgather's small
// blocks, and the one message per edge that stands for native, at 10 us.
PlannedCandidates dimwise_and_direct(double dimwise_us) {
    PlannedCandidates planned{{find_algorithm("dimwise"), find_algorithm("direct")}, {}};
    for (const double us : {dimwise_us, 10.0}) {
        planned.busiest[0].push_back(line(us, 0)[0]);
        planned.busiest[1].push_back(line(us, 0)[1]);
    }
    return planned;
}

Rule rule(Collective collective, const char* decision) {
    Rule rule;
    rule.key.any_graph = true;
    rule.key.collective = collective;
    rule.key.size_class = 0;
    rule.decision = decision;
    return rule;
}

ForcedChoices forced(std::string_view text) {
    std::vector<std::string> problems;
    return parse_forced_choices(text, "NBRCOMB_FORCE", [](std::string_view name) { return find_algorithm(name) != nullptr; },
                                problems);
}

}  // namespace

// A shape opens by the strongest tier that speaks: NBRCOMB_FORCE, then the rules file, then a trial
// of the contenders the estimate leaves, and where it leaves none the estimate alone (native).
TEST(DecisionTiers, open_forced_then_rules_then_trial_then_estimate) {
    StatedChoices choices{.forced = forced("allgather=native"),
                          .rules = {rule(Collective::allgather, "dimwise"), rule(Collective::alltoall, "native")},
                          .key = {}};
    std::vector<std::string> left_out;
    const Opener open = make_opener(choices, dimwise_and_direct(5), [&](const std::string& m) { left_out.push_back(m); });

    const Opening allgather = open(Collective::allgather, Form::blocking, 0, 4);
    ASSERT_TRUE(allgather.decided.has_value());
    EXPECT_EQ(allgather.decided->source, Source::forced) << "forced over the rule that says dimwise";
    EXPECT_FALSE(allgather.decided->combined);

    const Opening alltoall = open(Collective::alltoall, Form::blocking, 0, 4);
    ASSERT_TRUE(alltoall.decided.has_value());
    EXPECT_EQ(alltoall.decided->source, Source::rules) << "the rule over the estimate, which races dimwise";
    EXPECT_FALSE(alltoall.decided->combined);

    const Opening raced = open(Collective::alltoall, Form::nonblocking, 0, 4);
    EXPECT_FALSE(raced.decided.has_value());
    EXPECT_EQ(raced.contenders, (std::vector<int>{0})) << "neither speaks: dimwise's 5 us raced against native's 10";

    const Opener slower = make_opener({}, dimwise_and_direct(20), [](const std::string&) {});
    const Opening estimated = slower(Collective::allgather, Form::blocking, 0, 4);
    EXPECT_FALSE(estimated.decided.has_value());
    EXPECT_TRUE(estimated.contenders.empty()) << "no candidate can beat native: native from the first call, no trial";
    EXPECT_TRUE(left_out.empty());
}

// A name the communicator did not plan is left out, and said, and the next tier decides.
TEST(DecisionTiers, a_name_not_planned_is_left_out) {
    std::vector<std::string> left_out;
    const Opener open = make_opener({.forced = forced("allgather=forward"), .rules = {}, .key = {}},
                                    dimwise_and_direct(5), [&](const std::string& m) { left_out.push_back(m); });
    const Opening opening = open(Collective::allgather, Form::blocking, 0, 4);
    EXPECT_FALSE(opening.decided.has_value());
    EXPECT_EQ(opening.contenders, (std::vector<int>{0}));
    ASSERT_EQ(left_out.size(), 1u);
    EXPECT_NE(left_out[0].find("NBRCOMB_FORCE names forward"), std::string::npos) << left_out[0];
}

// Settings and rules that settle a shape native before Phase 1, and that make one combine.
TEST(DecisionTiers, settled_before_phase1) {
    const StatedChoices choices{.forced = forced("alltoall=native"),
                                .rules = {rule(Collective::allgather, "native")}, .key = {}};
    EXPECT_EQ(native_settled_by(choices, Collective::alltoall, Form::blocking, 0), Source::forced);
    EXPECT_EQ(native_settled_by(choices, Collective::allgather, Form::blocking, 0), Source::rules);
    EXPECT_EQ(native_settled_by(choices, Collective::allgatherv, Form::blocking, -1), std::nullopt);
    EXPECT_FALSE(combining_settled(choices));
    EXPECT_TRUE(combining_settled({.forced = forced("alltoall=dimwise"), .rules = {}, .key = {}}));
    EXPECT_TRUE(names_algorithm({.forced = {}, .rules = {rule(Collective::allgather, "pairs")}, .key = {}}, "pairs"));
}
