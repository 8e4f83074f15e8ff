#include "src/decision/rules_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace nbrcomb::detail;

namespace {

Rule example() {
    Rule rule;
    rule.key = {.mpi = "Open MPI v4.1.4",
                .processes = 64,
                .per_node = 16,
                .graph = 0x0123456789abcdefULL,
                .collective = Collective::alltoall,
                .form = Form::nonblocking,
                .size_class = 3};
    rule.decision = "pairs";
    rule.cutoff = 1024;
    rule.native_us = 12.5;
    rule.chosen_us = 7.25;
    rule.p = 0.0123;
    rule.date = "2024-05-17";
    return rule;
}

// Rules that differ in every field, with the extreme classes and both kinds of cutoff.
std::vector<Rule> several() {
    std::vector<Rule> rules;
    rules.push_back(example());
    Rule v = example();
    v.key = {.mpi = "MPICH Version: 4.0.2",
             .processes = 1,
             .per_node = 1,
             .graph = 0,
             .collective = Collective::alltoallw,
             .form = Form::persistent,
             .size_class = -1};
    v.decision = "native";
    v.cutoff = SIZE_MAX;
    v.p = 1;
    rules.push_back(v);
    Rule large = example();
    large.key.collective = Collective::allgather;
    large.key.form = Form::blocking;
    large.key.size_class = size_classes - 1;
    large.key.graph = ~std::uint64_t{0};
    large.decision = "aggregate";
    large.cutoff = 0;
    large.native_us = 123456.75;
    large.chosen_us = 0;
    large.p = 0.000123;
    rules.push_back(large);
    return rules;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
}

std::string temp_path(const std::string& name) { return ::testing::TempDir() + "rules_file_" + name; }

}  // namespace

TEST(RulesFile, formats_the_documented_line) {
    EXPECT_EQ(format_rule(example()),
              "Open MPI v4.1.4 | 64 | 16 | 0123456789abcdef | alltoall | nonblocking | 1KiB | pairs | 1024 | 12.50 | "
              "7.25 | 0.0123 | 2024-05-17");
}

TEST(RulesFile, format_then_parse_gives_the_same_rule) {
    for (const Rule& rule : several()) {
        std::string why;
        const std::optional<Rule> parsed = parse_rule(format_rule(rule), why);
        ASSERT_TRUE(parsed) << format_rule(rule) << ": " << why;
        EXPECT_EQ(*parsed, rule) << format_rule(rule);
    }
}

TEST(RulesFile, names_every_size_class_and_reads_it_back) {
    const char* names[] = {"16B", "64B", "256B", "1KiB", "4KiB", "16KiB", "64KiB", ">64KiB"};
    static_assert(std::size(names) == size_classes);
    Rule rule = example();
    for (int c = -1; c < size_classes; ++c) {
        rule.key.size_class = c;
        const std::string line = format_rule(rule);
        EXPECT_NE(line.find(std::string(" | ") + (c < 0 ? "any" : names[c]) + " | "), std::string::npos) << line;
        std::string why;
        const std::optional<Rule> parsed = parse_rule(line, why);
        ASSERT_TRUE(parsed) << line << ": " << why;
        EXPECT_EQ(parsed->key.size_class, c);
    }
}

TEST(RulesFile, parse_accepts_any_spaces_around_bars) {
    std::string why;
    const std::optional<Rule> parsed =
        parse_rule("Open MPI v4.1.4|64 |\t16|  0123456789abcdef|alltoall|nonblocking|1KiB|pairs|1024|12.5|7.25|"
                   "0.0123|2024-05-17\r",
                   why);
    ASSERT_TRUE(parsed) << why;
    EXPECT_EQ(*parsed, example());
}

TEST(RulesFile, parse_rejects_each_malformed_field_with_a_reason) {
    const std::string good = format_rule(example());
    std::string why;
    ASSERT_TRUE(parse_rule(good, why)) << why;
    // Replaces field index of the good line.
    const auto with = [&](int index, const std::string& text) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (std::size_t bar; (bar = good.find(" | ", start)) != std::string::npos; start = bar + 3)
            fields.push_back(good.substr(start, bar - start));
        fields.push_back(good.substr(start));
        fields[static_cast<std::size_t>(index)] = text;
        std::string line;
        for (const std::string& field : fields) line += (line.empty() ? "" : " | ") + field;
        return line;
    };
    const std::vector<std::string> bad = {
        good + " | extra",
        good.substr(0, good.rfind(" | ")),
        "",
        with(0, " "),
        with(1, "0"),
        with(1, "-4"),
        with(1, "64x"),
        with(1, "99999999999"),
        with(2, "0"),
        with(2, "128"),  // more than the 64 processes
        with(3, "0123456789abcde"),
        with(3, "0123456789abcdefa"),
        with(3, "0123456789abcdeg"),
        with(3, "0x23456789abcdef"),
        with(4, "allgatherw"),
        with(5, "immediate"),
        with(6, "2KiB"),
        with(6, ""),
        with(7, ""),
        with(8, "-1"),
        with(8, "1 KiB"),
        with(8, "nothing"),
        with(9, "1,5"),
        with(9, "nan"),
        with(9, "-1.00"),
        with(10, "inf"),
        with(10, ""),
        with(11, "1.5"),
        with(11, "-0.1"),
        with(11, "0.05x"),
        with(12, "2024-5-17"),
        with(12, "2024-13-01"),
        with(12, "2024-02-30"),
        with(12, "17.05.2024"),
    };
    for (const std::string& line : bad) {
        why.clear();
        EXPECT_FALSE(parse_rule(line, why)) << line;
        EXPECT_FALSE(why.empty()) << line;
    }
}

TEST(RulesFile, parse_rejects_every_truncation_of_a_line) {
    for (const Rule& rule : several()) {
        const std::string line = format_rule(rule);
        for (std::size_t length = 0; length < line.size(); ++length) {
            std::string why;
            EXPECT_FALSE(parse_rule(std::string_view(line).substr(0, length), why)) << line.substr(0, length);
        }
    }
}

TEST(RulesFile, mpi_library_id_of_open_mpi_and_mpich) {
    EXPECT_EQ(mpi_library_id("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022"),
              "Open MPI v4.1.4");
    EXPECT_EQ(mpi_library_id("MPICH Version:\t4.0.2\nMPICH Release date: Thu Mar 31 10:25:29 CDT 2022\n"),
              "MPICH Version: 4.0.2");
    EXPECT_EQ(mpi_library_id("  Some  MPI |  2 \r\nmore"), "Some MPI / 2");
    EXPECT_EQ(mpi_library_id(""), "unknown");
    EXPECT_EQ(mpi_library_id(" \t, v1"), "unknown");
}

TEST(RulesFile, find_rule_needs_every_key_field_to_match) {
    const std::vector<Rule> rules = {example()};
    ASSERT_EQ(find_rule(rules, example().key), &rules[0]);
    std::vector<RuleKey> others(7, example().key);
    others[0].mpi = "Open MPI v5.0.3";
    others[1].processes = 32;
    others[2].per_node = 8;
    others[3].graph ^= 1;
    others[4].collective = Collective::allgather;
    others[5].form = Form::persistent;
    others[6].size_class = 4;
    for (std::size_t i = 0; i < others.size(); ++i) EXPECT_EQ(find_rule(rules, others[i]), nullptr) << "field " << i;
    EXPECT_EQ(find_rule({}, example().key), nullptr);
}

TEST(RulesFile, find_rule_takes_the_last_of_a_key) {
    std::vector<Rule> rules = several();
    Rule later = example();
    later.decision = "native";
    rules.push_back(later);
    rules.push_back(several()[1]);
    EXPECT_EQ(find_rule(rules, example().key), &rules[3]);
}

TEST(RulesFile, write_then_read_gives_the_rules_back) {
    const std::string path = temp_path("round_trip.rules");
    std::string error;
    ASSERT_TRUE(write_rules(path, several(), error)) << error;
    const RulesFile file = read_rules(path);
    EXPECT_TRUE(file.problems.empty()) << file.problems.front();
    EXPECT_EQ(file.rules, several());

    const std::string text = read_text(path);
    EXPECT_NE(text.find("NBRCOMB_RULES=FILE"), std::string::npos);
    EXPECT_NE(text.find("# mpi | processes | per_node | graph | collective | form | blocks | decision | cutoff | "
                        "native_us | chosen_us | p | date\n"),
              std::string::npos);

    // Written again over the old: replaced whole, nothing left beside it.
    ASSERT_TRUE(write_rules(path, {example()}, error)) << error;
    EXPECT_EQ(read_rules(path).rules, std::vector<Rule>{example()});
    ASSERT_TRUE(write_rules(path, {}, error)) << error;
    const RulesFile empty = read_rules(path);
    EXPECT_TRUE(empty.rules.empty());
    EXPECT_TRUE(empty.problems.empty());
    std::remove(path.c_str());
}

TEST(RulesFile, read_skips_a_corrupt_line_and_names_it) {
    const std::string path = temp_path("corrupt.rules");
    const std::vector<Rule> rules = several();
    write_text(path, "# a comment\n\n" + format_rule(rules[0]) + "\n" + "not a rule at all\n   \n  # indented comment\n" +
                         format_rule(rules[1]) + "\n" + format_rule(rules[2]) + "\n");
    const RulesFile file = read_rules(path);
    EXPECT_EQ(file.rules, rules);
    ASSERT_EQ(file.problems.size(), 1u);
    EXPECT_EQ(file.problems[0].rfind(path + ":4: ", 0), 0u) << file.problems[0];
    std::remove(path.c_str());
}

TEST(RulesFile, read_refuses_a_line_cut_mid_field) {
    const std::string path = temp_path("truncated.rules");
    const std::vector<Rule> rules = several();
    const std::string last = format_rule(rules[2]);
    // Cut in the middle of the date, and in the middle of p: both refused, the whole lines kept.
    for (const std::size_t cut : {last.size() - 3, last.rfind(" | ") - 2}) {
        write_text(path, format_rule(rules[0]) + "\n" + format_rule(rules[1]) + "\n" + last.substr(0, cut));
        const RulesFile file = read_rules(path);
        EXPECT_EQ(file.rules, std::vector<Rule>(rules.begin(), rules.begin() + 2));
        ASSERT_EQ(file.problems.size(), 1u);
        EXPECT_EQ(file.problems[0].rfind(path + ":3: ", 0), 0u) << file.problems[0];
    }
    std::remove(path.c_str());
}

TEST(RulesFile, read_reports_a_file_it_cannot_read) {
    const std::string missing = temp_path("no_such_file.rules");
    std::remove(missing.c_str());
    const RulesFile file = read_rules(missing);
    EXPECT_TRUE(file.rules.empty());
    EXPECT_EQ(file.problems, std::vector<std::string>{missing + ": cannot be read"});

    // A directory opens but does not read.
    const RulesFile directory = read_rules(::testing::TempDir());
    EXPECT_TRUE(directory.rules.empty());
    EXPECT_EQ(directory.problems.size(), 1u);
}

TEST(RulesFile, write_to_a_missing_directory_fails) {
    const std::string path = temp_path("no_such_directory/sub/x.rules");
    std::string error;
    EXPECT_FALSE(write_rules(path, several(), error));
    EXPECT_NE(error.find(path), std::string::npos) << error;
}

TEST(RulesFile, write_refuses_a_rule_that_would_not_read_back) {
    const std::string path = temp_path("refused.rules");
    ASSERT_TRUE([&] {
        std::string error;
        return write_rules(path, {example()}, error);
    }());
    for (const auto& spoil : std::vector<void (*)(Rule&)>{
             [](Rule& r) { r.key.mpi = "a | b"; }, [](Rule& r) { r.key.mpi = "# MPI"; },
             [](Rule& r) { r.decision = "two\nlines"; }, [](Rule& r) { r.date = "today"; },
             [](Rule& r) { r.key.size_class = size_classes; }}) {
        std::vector<Rule> rules = several();
        spoil(rules[1]);
        std::string error;
        EXPECT_FALSE(write_rules(path, rules, error));
        EXPECT_NE(error.find("rule 2"), std::string::npos) << error;
        // The file as it was.
        EXPECT_EQ(read_rules(path).rules, std::vector<Rule>{example()});
    }
    std::remove(path.c_str());
}

// A rule for any graph reads back as '*', and holds for a graph without a line of its own.
TEST(RulesFile, a_rule_for_any_graph_holds_where_no_graph_has_its_own) {
    Rule any = example();
    any.key.graph = 0;
    any.key.any_graph = true;
    any.decision = "native";
    const std::string line = format_rule(any);
    EXPECT_NE(line.find(" | * | "), std::string::npos) << line;
    std::string why;
    EXPECT_EQ(parse_rule(line, why), any) << why;
    const std::vector<Rule> rules = {example(), any};
    EXPECT_EQ(find_rule(rules, example().key), &rules[0]) << "a graph's own rule first";
    RuleKey other = example().key;
    other.graph ^= 1;
    EXPECT_EQ(find_rule(rules, other), &rules[1]);
    other.processes = 32;
    EXPECT_EQ(find_rule(rules, other), nullptr) << "the other fields still match exactly";
}

// Where every graph of a key decided alike, one rule for any graph; where they differ, none.
TEST(RulesFile, graphs_that_agree_make_a_rule_for_any_graph) {
    Rule first = example(), second = example(), third = example();
    second.key.graph ^= 1;
    second.native_us = 20;
    third.key.graph ^= 2;
    third.native_us = 30;
    third.p = 0.04;
    const std::vector<Rule> general = any_graph_rules({first, second, third});
    ASSERT_EQ(general.size(), 1u);
    EXPECT_TRUE(general[0].key.any_graph);
    EXPECT_EQ(general[0].decision, first.decision);
    EXPECT_DOUBLE_EQ(general[0].native_us, 20);
    EXPECT_DOUBLE_EQ(general[0].p, 0.04);
    third.decision = "native";
    EXPECT_TRUE(any_graph_rules({first, second, third}).empty());
    Rule elsewhere = third;
    elsewhere.key.form = Form::blocking;  // another key: its own rule
    EXPECT_EQ(any_graph_rules({first, second, elsewhere}).size(), 2u);
}
