// Auto mode, the default: calls stay native until the NBRCOMB_LAZY-th, where Phase 1 runs; then
// each call shape alternates between the native side and combining, and all processes take one
// decision. Every call, whichever way it went, gives native results byte for byte.
#include "all_ranks.h"
#include "datatypes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

using namespace nbrcomb::test;

namespace {

// Calls enough to take a shape through its trial and past its decision: the third checkpoint,
// right after the three stages of a race of three candidates and native (4 warm-up calls, then 1,
// 2 and 3 pairs each, the second of each timed) and one.
constexpr int calls_past_decision = 4 * (1 + 2 * 1) + 4 * 2 * 2 + 4 * 2 * 3 + 1 + 1;

Hints auto_hints(int lazy) {
    return {{"nbrcomb_mode", "auto"}, {"nbrcomb_theta", "1"}, {"nbrcomb_lazy", std::to_string(lazy)}};
}

nbrcomb_stats stats_of(MPI_Comm comm) {
    nbrcomb_stats stats{};
    EXPECT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    return stats;
}

// Collective: the same value on every rank that counts (a process without edges decides nothing).
bool same_everywhere(unsigned long long value, bool counts = true) {
    unsigned long long low = counts ? value : ULLONG_MAX, high = counts ? value : 0;
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return low == high || low == ULLONG_MAX;
}

// Whether the calling process has an edge of comm.
bool has_edges(MPI_Comm comm) {
    const Neighborhood mine = neighborhood_of(comm);
    return !mine.sources.empty() || !mine.destinations.empty();
}

// Collective: runs call repeatedly through the library, each time against native MPI.
void expect_repeated_calls_match(const Call& call, int times, const std::string& what) {
    for (int i = 0; i < times; ++i)
        if (!expect_matches_native(call, what + ", call " + std::to_string(i + 1), Expect::any_route)) return;
}

TEST(AutoMode, calls_before_the_lazy_one_are_native_and_phase1_runs_in_it) {
    if (!expect_library_loaded()) return;
    const Comm comm =
        create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 21), {.hints = auto_hints(4)});
    const TypeCatalog catalog;
    const Call call = make_call(Collective::alltoallv, comm, catalog, {.types = &catalog.pair("int"), .units = 3});
    expect_repeated_calls_match(call, 3, "before Phase 1");
    const nbrcomb_stats before = stats_of(comm);
    // One message per edge, by native MPI or, where that is known wrong, by the library.
    const unsigned long long by_library = native_known_wrong(call) ? 3 : 0;
    EXPECT_EQ(before.calls, by_library);
    EXPECT_EQ(before.native_calls, 3 - by_library);
    EXPECT_EQ(before.pattern_seconds, 0.0) << "Phase 1 ran before the lazy call";
    EXPECT_EQ(before.requested_mode, NBRCOMB_MODE_AUTO);

    expect_repeated_calls_match(call, 1, "the lazy call");
    // A process without edges has no part in Phase 1, whose reductions take time even where it
    // plans nothing that exchanges messages (pairs' best case cannot win: decision_tiers.h).
    if (has_edges(comm)) {
        EXPECT_GT(stats_of(comm).pattern_seconds, 0.0) << "Phase 1 did not run in the lazy call";
    }
}

TEST(AutoMode, every_collective_and_form_matches_native_through_trial_and_decision) {
    if (!expect_library_loaded()) return;
    const Comm comm =
        create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 22), {.hints = auto_hints(1)});
    const TypeCatalog catalog;
    std::vector<Form> forms{Form::blocking, Form::nonblocking};
    if (has_persistent_collectives) forms.push_back(Form::persistent);
    for (const Collective collective : all_collectives)
        for (const Form form : forms) {
            Call call = make_call(collective, comm, catalog,
                                  {.types = &catalog.pair("ints_to_vector"), .units = 5, .vary = has_edge_arrays(collective)});
            call.form = form;
            // A persistent check starts its request twice.
            const int checks = form == Form::persistent ? calls_past_decision / 2 + 1 : calls_past_decision;
            expect_repeated_calls_match(call, checks, std::string(name_of(form)) + " " + name_of(collective));
        }
    // Every process with edges tried and decided every shape, alike.
    const nbrcomb_stats stats = stats_of(comm);
    const bool decides = has_edges(comm);
    EXPECT_TRUE(same_everywhere(stats.auto_combined, decides)) << "processes took different decisions";
    EXPECT_TRUE(same_everywhere(stats.auto_native, decides)) << "processes took different decisions";
    if (decides) {
        EXPECT_EQ(stats.auto_combined + stats.auto_native, 5 * forms.size());
    }
}

// Every call counts once, whichever way it went (the library's, the MPI's on the native route,
// whose calls the tuner counts), from a reset on; a call whose arguments the checks refuse counts
// nowhere, though on the native route the MPI refused it after the library counted it. Past the
// decisions with something to combine (theta 1), and where Phase 1 planned nothing (every shape
// native).
TEST(AutoMode, each_call_counts_once_from_a_reset_and_a_refused_one_not_at_all) {
    if (!expect_library_loaded()) return;
    const TypeCatalog catalog;
    for (const char* theta : {"1", "1000000"}) {
        const Hints hints{{"nbrcomb_mode", "auto"}, {"nbrcomb_theta", theta}, {"nbrcomb_lazy", "2"}};
        const Comm comm = create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 26), {.hints = hints});
        const Call call = make_call(Collective::alltoall, comm, catalog, {.types = &catalog.pair("int")});
        expect_repeated_calls_match(call, calls_past_decision, std::string("theta ") + theta);
        ASSERT_EQ(comm_reset_stats(comm), MPI_SUCCESS);
        const nbrcomb_stats reset = stats_of(comm);
        EXPECT_EQ(reset.calls + reset.native_calls, 0u) << "theta " << theta;
        EXPECT_EQ(reset.native_call_messages, 0u) << "theta " << theta;

        constexpr int more_calls = 5;
        expect_repeated_calls_match(call, more_calls, std::string("theta ") + theta + ", after the reset");
        const nbrcomb_stats counted = stats_of(comm);
        EXPECT_EQ(counted.calls + counted.native_calls, static_cast<unsigned long long>(more_calls)) << "theta " << theta;
        EXPECT_EQ(counted.native_call_messages, counted.native_calls * neighborhood_of(comm).destinations.size())
            << "theta " << theta;

        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        std::vector<int> buffer(neighborhood_of(comm).sources.size() + neighborhood_of(comm).destinations.size() + 1);
        EXPECT_NE(MPI_Neighbor_alltoall(buffer.data(), 1, MPI_INT, buffer.data(), -1, MPI_INT, comm), MPI_SUCCESS)
            << "theta " << theta;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
        const nbrcomb_stats refused = stats_of(comm);
        EXPECT_EQ(refused.calls + refused.native_calls, counted.calls + counted.native_calls) << "theta " << theta;
        EXPECT_EQ(refused.native_call_messages, counted.native_call_messages) << "theta " << theta;
        // The processes still agree where their checkpoints fall.
        expect_repeated_calls_match(call, more_calls, std::string("theta ") + theta + ", after the refused call");
    }
}

// Decisions hold per size class: a shape decided at one size is decided again at another, by its
// estimate or its own trial. Where a candidate relays blocks through processes of other connected
// components (aggregation, grids), one decision holds for every size, so that every process takes
// the same route, and the count stays.
// MPI_Neighbor_alltoallv_init with the default settings and with pairs forced: native's bytes,
// and the calls counted whichever way they ran: each start of an operation the library runs, and
// the init of one it leaves to the MPI (a process without edges here), whose starts are the MPI's.
TEST(AutoMode, persistent_alltoallv_is_counted_with_default_and_forced_settings) {
    if (!has_persistent_collectives) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
    const TypeCatalog catalog;
    for (const Hints& hints : {Hints{{"nbrcomb_mode", "auto"}}, pairs_hints}) {
        const Comm comm = create_dist_graph(MPI_COMM_WORLD, complete_digraph(size_of(MPI_COMM_WORLD)), {.hints = hints});
        for (int round = 0; round < 3; ++round) {
            Call call = make_call(Collective::alltoallv, comm, catalog, {.types = &catalog.pair("int"), .units = 2});
            call.form = Form::persistent;
            nbrcomb_stats before{}, after{};
            ASSERT_EQ(comm_stats(comm, before), MPI_SUCCESS);
            const Outcome library = run(Path::library, call);
            ASSERT_EQ(comm_stats(comm, after), MPI_SUCCESS);
            EXPECT_EQ(library.code, MPI_SUCCESS);
            // run() starts a persistent call twice.
            const bool library_ran = after.calls > before.calls;
            EXPECT_EQ((after.calls + after.native_calls) - (before.calls + before.native_calls), library_ran ? 2u : 1u)
                << hints[0].second << ", round " << round;
            if (hints == pairs_hints && size_of(MPI_COMM_WORLD) > 1) {
                EXPECT_TRUE(library_ran) << "pairs, round " << round;
            }
            EXPECT_TRUE(expect_matches_native(call, hints[0].second, Expect::any_route));
        }
    }
}

TEST(AutoMode, sizes_are_decided_apart) {
    if (!expect_library_loaded()) return;
    const Comm comm =
        create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 23), {.hints = auto_hints(1)});
    const TypeCatalog catalog;
    // Collective: the most any process decided (one without edges decides nothing).
    const auto decided = [&] {
        const nbrcomb_stats stats = stats_of(comm);
        unsigned long long count = stats.auto_combined + stats.auto_native;
        MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
        return count;
    };
    std::vector<unsigned long long> counts;
    for (const int units : {1, 4000}) {
        const Call call = make_call(Collective::allgather, comm, catalog, {.types = &catalog.pair("int"), .units = units});
        expect_repeated_calls_match(call, calls_past_decision, std::to_string(units) + " ints");
        counts.push_back(decided());
    }
    EXPECT_EQ(counts[0], 1u);
    EXPECT_TRUE(counts[1] == 1u || counts[1] == 2u) << counts[1];
    EXPECT_TRUE(same_everywhere(stats_of(comm).auto_combined, has_edges(comm)));
}

// A communicator used a few times, as DOLFINx uses most of its: not one message more than native
// MPI, and nothing collective at its creation.
TEST(AutoMode, default_settings_leave_short_lived_communicators_native) {
    if (!expect_library_loaded()) return;
    const Digraph graph = random_digraph(size_of(MPI_COMM_WORLD), 24);
    const int rank = rank_of(MPI_COMM_WORLD);
    const std::vector<int>& sources = graph.in[static_cast<std::size_t>(rank)];
    const std::vector<int>& destinations = graph.out[static_cast<std::size_t>(rank)];
    for (int communicator = 0; communicator < 10; ++communicator) {
        MPI_Comm raw = MPI_COMM_NULL;
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                       static_cast<int>(destinations.size()), destinations.data(), MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &raw);
        const Comm comm(raw);
        const TypeCatalog catalog;
        unsigned long long by_library = 0;
        for (const Collective collective : {Collective::alltoall, Collective::alltoallv}) {
            const Call call = make_call(collective, comm, catalog, {.types = &catalog.pair("int"), .units = 2});
            expect_repeated_calls_match(call, 1, name_of(collective));
            by_library += native_known_wrong(call) ? 1 : 0;
        }
        // Native MPI's one message per edge or, where that is known wrong, the library's direct
        // schedule, which copies self-loops and sends no more.
        const nbrcomb_stats stats = stats_of(comm);
        EXPECT_EQ(stats.requested_mode, NBRCOMB_MODE_AUTO);
        EXPECT_EQ(stats.native_calls, 2 - by_library);
        EXPECT_EQ(stats.calls, by_library);
        EXPECT_EQ(stats.pattern_messages, 0u);
        EXPECT_LE(stats.native_call_messages + stats.messages_sent, 2 * destinations.size());
    }
}

// A duplicate's calls are its own: it reaches its lazy call and tries its shapes afresh.
TEST(AutoMode, a_duplicate_tries_its_shapes_afresh) {
    if (!expect_library_loaded()) return;
    const Comm original =
        create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 25), {.hints = auto_hints(2)});
    const TypeCatalog catalog;
    expect_repeated_calls_match(make_call(Collective::alltoall, original, catalog, {.types = &catalog.pair("int")}),
                                calls_past_decision, "original");
    MPI_Comm raw = MPI_COMM_NULL;
    MPI_Comm_dup(original, &raw);
    const Comm copy(raw);
    EXPECT_EQ(stats_of(copy).auto_combined + stats_of(copy).auto_native, 0u);
    expect_repeated_calls_match(make_call(Collective::alltoall, copy, catalog, {.types = &catalog.pair("int")}),
                                calls_past_decision, "duplicate");
    EXPECT_TRUE(same_everywhere(stats_of(copy).auto_combined, has_edges(copy)));
}

}  // namespace

// NBRCOMB_FORCE: each algorithm, and native, forced for every collective and form, and a mix per
// shape; Phase 1 in the first call wherever a shape is forced to combine. Every call gives native
// results, every shape is decided by the setting, and no call is a trial's.
class ForcedShapes : public ::testing::TestWithParam<const char*> {};

TEST_P(ForcedShapes, run_what_the_setting_names_byte_for_byte) {
    if (!expect_library_loaded()) return;
    const std::string force = GetParam();
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 26),
                                        {.hints = {{"nbrcomb_mode", "auto"}, {"nbrcomb_node_size", "2"},
                                                   {"nbrcomb_theta", "1"}, {"nbrcomb_force", force}}});
    const TypeCatalog catalog;
    std::vector<Form> forms{Form::blocking, Form::nonblocking};
    if (has_persistent_collectives) forms.push_back(Form::persistent);
    // Allgather and alltoall take a shape per size class, or one for all where a candidate relays
    // blocks between connected components (auto_mode_test's sizes_are_decided_apart).
    unsigned long long shapes = 0, classed_shapes = 0;
    for (const Collective collective : all_collectives)
        for (const Form form : forms)
            for (const int units : {1, 40}) {  // 4 and 160 bytes: two size classes
                Call call = make_call(collective, comm, catalog,
                                      {.types = &catalog.pair("int"), .units = units, .vary = has_edge_arrays(collective)});
                call.form = form;
                expect_repeated_calls_match(call, 3, force + ", " + name_of(form) + " " + name_of(collective));
                const bool sized = collective == Collective::allgather || collective == Collective::alltoall;
                shapes += units == 1 ? 1 : 0;
                classed_shapes += units == 1 || sized ? 1 : 0;
            }
    const nbrcomb_stats stats = stats_of(comm);
    EXPECT_EQ(stats.trial_calls, 0u);
    EXPECT_EQ(stats.auto_trial + stats.auto_estimate, 0u);
    if (force == "*=native") {
        EXPECT_EQ(stats.pattern_seconds, 0.0) << "Phase 1 ran where every shape is native";
    } else if (has_edges(comm)) {
        EXPECT_GE(stats.auto_forced, shapes);
        EXPECT_LE(stats.auto_forced, classed_shapes);
    }
}

INSTANTIATE_TEST_SUITE_P(AutoMode, ForcedShapes,
                         ::testing::Values("*=native", "*=direct", "*=pairs", "*=groups", "*=aggregate", "*=dimwise",
                                           "*=forward", "*=global",
                                           "allgather=pairs; allgatherv:nonblocking=aggregate; alltoall=forward; alltoall:*:>64B=dimwise;"
                                           "alltoallv=groups; alltoallw:persistent=direct;"
                                           "alltoallw:nonblocking=pairs; allgatherv:persistent=forward; *:blocking=native"));
