#include "schedule/algorithm_table.h"
#include "src/decision/forced_choices.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

using namespace nbrcomb::detail;

namespace {

// The library's algorithm table, as the settings pass it.
bool known_algorithm(std::string_view name) { return find_algorithm(name) != nullptr; }

ForcedChoices parse(std::string_view text, std::vector<std::string>& problems) {
    return parse_forced_choices(text, "NBRCOMB_FORCE", known_algorithm, problems);
}

// Parses text that must have no problems.
ForcedChoices parse(std::string_view text) {
    std::vector<std::string> problems;
    ForcedChoices choices = parse(text, problems);
    EXPECT_TRUE(problems.empty()) << text << ": " << (problems.empty() ? "" : problems.front());
    return choices;
}

// The size classes (0 .. size_classes - 1) that a one-rule text forces for allgather, blocking.
std::vector<int> forced_classes(std::string_view text) {
    const ForcedChoices choices = parse(text);
    std::vector<int> classes;
    for (int c = 0; c < size_classes; ++c)
        if (choices.find(Collective::allgather, Form::blocking, c)) classes.push_back(c);
    return classes;
}

constexpr std::array forms{Form::blocking, Form::nonblocking, Form::persistent};

}  // namespace

TEST(ForcedChoices, the_issues_example_forces_its_shapes) {
    const ForcedChoices choices = parse("alltoallv:nonblocking=aggregate;allgather:*:>16KiB=native");
    ASSERT_EQ(choices.choices.size(), 2u);
    for (int c = -1; c < size_classes; ++c)
        EXPECT_EQ(choices.find(Collective::alltoallv, Form::nonblocking, c), "aggregate") << c;
    EXPECT_EQ(choices.find(Collective::alltoallv, Form::blocking, -1), std::nullopt);
    EXPECT_EQ(choices.find(Collective::alltoallv, Form::persistent, -1), std::nullopt);
    EXPECT_EQ(choices.find(Collective::allgather, Form::blocking, size_class(64 * 1024)), "native");
    EXPECT_EQ(choices.find(Collective::allgather, Form::persistent, size_classes - 1), "native");
    EXPECT_EQ(choices.find(Collective::allgather, Form::blocking, size_class(16 * 1024)), std::nullopt);
    EXPECT_EQ(choices.find(Collective::allgather, Form::blocking, -1), std::nullopt)
        << "a SIZE never applies to the v and w forms' class";
    EXPECT_EQ(choices.find(Collective::alltoall, Form::blocking, size_class(64 * 1024)), std::nullopt);
}

TEST(ForcedChoices, a_wildcard_rule_applies_everywhere) {
    const ForcedChoices choices = parse("*=pairs");
    for (int collective = 0; collective < collective_count; ++collective)
        for (const Form form : forms)
            for (int c = -1; c < size_classes; ++c)
                EXPECT_EQ(choices.find(static_cast<Collective>(collective), form, c), "pairs");
    const ForcedChoices both_wild = parse("*:*=groups");
    EXPECT_EQ(both_wild.find(Collective::alltoallw, Form::persistent, -1), "groups");
    EXPECT_EQ(parse("").find(Collective::allgather, Form::blocking, 0), std::nullopt);
}

TEST(ForcedChoices, the_last_rule_that_applies_wins) {
    const ForcedChoices narrow_last = parse("*=aggregate;allgather:*:>16KiB=native");
    EXPECT_EQ(narrow_last.find(Collective::allgather, Form::blocking, 6), "native");
    EXPECT_EQ(narrow_last.find(Collective::allgather, Form::blocking, 5), "aggregate");
    EXPECT_EQ(narrow_last.find(Collective::allgather, Form::blocking, -1), "aggregate");
    EXPECT_EQ(narrow_last.find(Collective::alltoall, Form::blocking, 6), "aggregate");
    // The other way round, the wildcard hides the narrower rule.
    const ForcedChoices wide_last = parse("allgather:*:>16KiB=native;*=aggregate");
    EXPECT_EQ(wide_last.find(Collective::allgather, Form::blocking, 6), "aggregate");
    const ForcedChoices same_shape = parse("alltoall=pairs;alltoall=groups");
    EXPECT_EQ(same_shape.find(Collective::alltoall, Form::nonblocking, 2), "groups");
}

// Classes stand for their largest block (16 B, 64 B, ... 64 KiB), the last for 256 KiB, as in
// auto mode's estimates.
TEST(ForcedChoices, every_size_operator_selects_classes_by_their_representative) {
    EXPECT_EQ(forced_classes("allgather:*:<=4KiB=pairs"), (std::vector{0, 1, 2, 3, 4}));
    EXPECT_EQ(forced_classes("allgather:*:<4KiB=pairs"), (std::vector{0, 1, 2, 3}));
    EXPECT_EQ(forced_classes("allgather:*:>=64KiB=pairs"), (std::vector{6, 7}));
    EXPECT_EQ(forced_classes("allgather:*:>16KiB=pairs"), (std::vector{6, 7}));
    EXPECT_EQ(forced_classes("allgather:*:>64KiB=pairs"), (std::vector{7}));
    EXPECT_EQ(forced_classes("allgather:*:>=65537=pairs"), (std::vector{7}));
    EXPECT_EQ(forced_classes("allgather:*:<=100KiB=pairs"), (std::vector{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(forced_classes("allgather:*:65537-256KiB=pairs"), (std::vector{7}));
    EXPECT_EQ(forced_classes("allgather:*:1KiB-16KiB=pairs"), (std::vector{3, 4, 5}));
    EXPECT_EQ(forced_classes("allgather:*:64-64=pairs"), (std::vector{1}));
    EXPECT_EQ(forced_classes("allgather:*:17-63=pairs"), (std::vector<int>{})) << "no class stands for these";

    const auto range = [](std::string_view text) {
        const ForcedChoices choices = parse(text);
        EXPECT_EQ(choices.choices.size(), 1u) << text;
        EXPECT_TRUE(choices.choices.front().sized) << text;
        return std::pair{choices.choices.front().min_bytes, choices.choices.front().max_bytes};
    };
    EXPECT_EQ(range("*:*:<=100=pairs"), std::pair(std::size_t{0}, std::size_t{100}));
    EXPECT_EQ(range("*:*:<100=pairs"), std::pair(std::size_t{0}, std::size_t{99}));
    EXPECT_EQ(range("*:*:>=100=pairs"), std::pair(std::size_t{100}, SIZE_MAX));
    EXPECT_EQ(range("*:*:>100=pairs"), std::pair(std::size_t{101}, SIZE_MAX));
    EXPECT_EQ(range("*:*:100-200=pairs"), std::pair(std::size_t{100}, std::size_t{200}));
    EXPECT_FALSE(parse("allgather:blocking=pairs").choices.front().sized);
}

TEST(ForcedChoices, units_names_and_spaces_are_case_insensitive) {
    const auto min_bytes = [](std::string_view text) { return parse(text).choices.front().min_bytes; };
    EXPECT_EQ(min_bytes("*:*:>=4096=pairs"), 4096u);
    EXPECT_EQ(min_bytes("*:*:>=4096B=pairs"), 4096u);
    EXPECT_EQ(min_bytes("*:*:>=4096b=pairs"), 4096u);
    EXPECT_EQ(min_bytes("*:*:>=16KiB=pairs"), 16384u);
    EXPECT_EQ(min_bytes("*:*:>=64kib=pairs"), 65536u);
    EXPECT_EQ(min_bytes("*:*:>=1MiB=pairs"), 1048576u);
    EXPECT_EQ(min_bytes("*:*:>=2MIB=pairs"), 2097152u);
    EXPECT_EQ(min_bytes("*:*:>= 16 KiB=pairs"), 16384u);

    const ForcedChoices choices =
        parse("  AllGather : NonBlocking : 1KiB - 16KIB = Aggregate ;  ALLTOALLW:PERSISTENT = Off ");
    ASSERT_EQ(choices.choices.size(), 2u);
    EXPECT_EQ(choices.choices[0].collective, Collective::allgather);
    EXPECT_EQ(choices.choices[0].form, Form::nonblocking);
    EXPECT_EQ(choices.choices[0].min_bytes, 1024u);
    EXPECT_EQ(choices.choices[0].max_bytes, 16384u);
    EXPECT_EQ(choices.choices[0].decision, "aggregate");
    EXPECT_EQ(choices.find(Collective::alltoallw, Form::persistent, -1), "native");
}

TEST(ForcedChoices, empty_rules_are_ignored) {
    EXPECT_TRUE(parse("").empty());
    EXPECT_TRUE(parse(" ; ;; ").empty());
    EXPECT_EQ(parse(";alltoall=pairs;;allgather=groups;").choices.size(), 2u);
}

TEST(ForcedChoices, each_bad_rule_gives_one_problem_and_the_rules_around_it_still_apply) {
    const std::vector<std::string_view> bad_rules{
        "gather=pairs",               // unknown collective
        ":blocking=pairs",            // no collective
        "allgather:sometimes=pairs",  // unknown form
        "allgather:*:>abc=pairs",     // bad size
        "allgather:*:5-2=pairs",      // empty range
        "allgather:*:<0=pairs",       // empty range
        "allgather:*:>16GiB=pairs",   // unknown unit
        "allgather:*:16KiB=pairs",    // no operator
        "allgather:*:>1.5KiB=pairs",  // not an integer
        "allgather:*:>=99999999999999999999=pairs",  // too large
        "allgather:*:<=1:2=pairs",    // four parts
        "allgather=fastest",          // unknown algorithm
        "allgather pairs",            // missing "="
        "allgather:*:>=16KiB",        // missing "=": it is the operator's
        "allgather=",                 // empty decision
        "allgather=  ",               // empty decision
    };
    for (const std::string_view bad : bad_rules) {
        std::vector<std::string> problems;
        const std::string text = "alltoall=pairs; " + std::string(bad) + " ;allgather:blocking=groups";
        const ForcedChoices choices = parse(text, problems);
        ASSERT_EQ(problems.size(), 1u) << bad;
        // The problem quotes the rule without the spaces around it.
        const std::string_view shown = bad.substr(0, bad.find_last_not_of(' ') + 1);
        const std::string prefix = "NBRCOMB_FORCE rule \"" + std::string(shown) + "\": ";
        EXPECT_TRUE(problems[0].starts_with(prefix)) << problems[0];
        EXPECT_TRUE(problems[0].ends_with("; left out")) << problems[0];
        EXPECT_GT(problems[0].size(), prefix.size() + std::string_view("; left out").size()) << "says why";
        ASSERT_EQ(choices.choices.size(), 2u) << bad;
        EXPECT_EQ(choices.find(Collective::alltoall, Form::blocking, 3), "pairs") << bad;
        EXPECT_EQ(choices.find(Collective::allgather, Form::blocking, 3), "groups") << bad;
    }

    // All at once, and under the hint's name.
    std::string text = "alltoall=pairs";
    for (const std::string_view bad : bad_rules) text += ";" + std::string(bad);
    std::vector<std::string> problems;
    const ForcedChoices choices = parse_forced_choices(text, "nbrcomb_force", known_algorithm, problems);
    EXPECT_EQ(problems.size(), bad_rules.size());
    EXPECT_EQ(choices.choices.size(), 1u);
    for (const std::string& problem : problems) EXPECT_TRUE(problem.starts_with("nbrcomb_force rule \"")) << problem;
}

TEST(ForcedChoices, problems_say_what_is_wrong) {
    const auto problem = [](std::string_view rule) {
        std::vector<std::string> problems;
        parse(rule, problems);
        return problems.empty() ? std::string() : problems.front();
    };
    EXPECT_EQ(problem("gather=pairs"),
              "NBRCOMB_FORCE rule \"gather=pairs\": \"gather\" is not a collective (allgather, allgatherv, alltoall, "
              "alltoallv, alltoallw, or *); left out");
    EXPECT_EQ(problem("allgather:sometimes=pairs"),
              "NBRCOMB_FORCE rule \"allgather:sometimes=pairs\": \"sometimes\" is not a form (blocking, "
              "nonblocking, persistent, or *); left out");
    EXPECT_EQ(problem("allgather:*:5-2=pairs"),
              "NBRCOMB_FORCE rule \"allgather:*:5-2=pairs\": the size range \"5-2\" is empty; left out");
    EXPECT_EQ(problem("allgather=Fastest"),
              "NBRCOMB_FORCE rule \"allgather=Fastest\": \"Fastest\" is not native, off or an algorithm; left out");
    EXPECT_EQ(problem("allgather=pairs"), "");
}

TEST(ForcedChoices, off_is_native) {
    const ForcedChoices off = parse("alltoall:persistent=off");
    const ForcedChoices native = parse("alltoall:persistent=native");
    EXPECT_EQ(off.choices.front().decision, "native");
    EXPECT_EQ(off.find(Collective::alltoall, Form::persistent, 2), "native");
    EXPECT_EQ(format_forced_choices(off), format_forced_choices(native));
    EXPECT_EQ(parse("*=OFF").find(Collective::allgatherv, Form::blocking, -1), "native");
}

TEST(ForcedChoices, format_round_trips_through_parse) {
    const ForcedChoices example = parse("alltoallv:nonblocking=aggregate;allgather:*:>16KiB=native");
    EXPECT_EQ(format_forced_choices(example), "alltoallv:nonblocking=aggregate;allgather:*:>16384=native");

    const ForcedChoices choices = parse(
        " * = Aggregate ;; AllGather:*:>16KiB=off; alltoall:Blocking:<=4KiB=PAIRS; alltoall:*:<64=direct;"
        "allgatherv:persistent=dimwise; *:*:1KiB-2KiB=groups; *:nonblocking:>=0=forward; alltoallw:*=global;");
    const std::string text = format_forced_choices(choices);
    EXPECT_EQ(text,
              "*=aggregate;allgather:*:>16384=native;alltoall:blocking:<=4096=pairs;alltoall:*:<=63=direct;"
              "allgatherv:persistent=dimwise;*:*:1024-2048=groups;*:nonblocking:>=0=forward;alltoallw=global");
    const ForcedChoices again = parse(text);
    EXPECT_EQ(format_forced_choices(again), text);
    for (int collective = 0; collective < collective_count; ++collective)
        for (const Form form : forms)
            for (int c = -1; c < size_classes; ++c)
                EXPECT_EQ(again.find(static_cast<Collective>(collective), form, c),
                          choices.find(static_cast<Collective>(collective), form, c));
    EXPECT_EQ(format_forced_choices(ForcedChoices{}), "");
}
