#include "src/settings/config.h"

#include <gtest/gtest.h>

#include <map>

using nbrcomb::detail::Config;
using nbrcomb::detail::Locality;
using nbrcomb::detail::mapping_settings;
using nbrcomb::detail::MappingSettings;
using nbrcomb::detail::read_config;
using nbrcomb::detail::Reorder;

namespace {

Config read(const std::map<std::string, std::string>& values, std::vector<std::string>& problems,
            const Config& base = Config{}) {
    return read_config(
        base,
        [&](std::string_view key) -> std::optional<std::string> {
            const auto it = values.find(std::string(key));
            return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
        },
        "NBRCOMB_", problems);
}

}  // namespace

TEST(Config, defaults_when_nothing_is_set) {
    std::vector<std::string> problems;
    EXPECT_EQ(read({}, problems), Config{});
    EXPECT_TRUE(problems.empty());
}

TEST(Config, reads_every_setting) {
    std::vector<std::string> problems;
    const Config config = read({{"mode", "Groups"},
                                {"theta", "2"},
                                {"k", "5"},
                                {"max_hyperedges", "64"},
                                {"topo_aware", "yes"},
                                {"node_size", "4"},
                                {"reorder", "on"},
                                {"reorder_max_edges", "1000"},
                                {"log", "3"},
                                {"report", "/tmp/out"}},
                               problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(config.mode, NBRCOMB_MODE_GROUPS);
    EXPECT_EQ(config.theta, 2);
    EXPECT_EQ(config.k, 5);
    EXPECT_EQ(config.max_hyperedges, 64);
    EXPECT_EQ(config.topo_aware, Locality::node);
    EXPECT_EQ(config.node_size, 4);
    EXPECT_EQ(config.reorder, Reorder::on);
    EXPECT_EQ(config.reorder_max_edges, 1000);
    EXPECT_EQ(config.log_level, 3);
    EXPECT_EQ(config.report, "/tmp/out");
}

TEST(Config, bad_values_keep_the_base_and_name_the_variable) {
    std::vector<std::string> problems;
    Config base;
    base.theta = 7;
    const Config config = read({{"mode", "fast"}, {"theta", "0"}, {"k", "17"}, {"node_size", "4x"}}, problems, base);
    EXPECT_EQ(config, base);
    ASSERT_EQ(problems.size(), 4u);
    EXPECT_NE(problems[0].find("NBRCOMB_MODE=\"fast\""), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("NBRCOMB_THETA"), std::string::npos) << problems[1];
    EXPECT_NE(problems[2].find("from 2 to 16"), std::string::npos) << problems[2];
    EXPECT_NE(problems[3].find("NBRCOMB_NODE_SIZE"), std::string::npos) << problems[3];
}

TEST(Config, topology_awareness_by_level) {
    const std::vector<std::pair<std::string, Locality>> cases{{"0", Locality::agnostic},  {"off", Locality::agnostic},
                                                              {"1", Locality::node},      {"Node", Locality::node},
                                                              {"package", Locality::package}, {"NUMA", Locality::numa}};
    for (const auto& [text, level] : cases) {
        std::vector<std::string> problems;
        EXPECT_EQ(read({{"topo_aware", text}}, problems).topo_aware, level) << text;
        EXPECT_TRUE(problems.empty());
    }
    std::vector<std::string> problems;
    EXPECT_EQ(read({{"topo_aware", "socket"}, {"max_hyperedges", "0"}}, problems), Config{});
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_NE(problems[0].find("NBRCOMB_MAX_HYPEREDGES"), std::string::npos) << problems[0];
    EXPECT_NE(problems[1].find("node, package, numa"), std::string::npos) << problems[1];
}

TEST(Config, hint_names_are_lower_case) {
    std::vector<std::string> problems;
    read_config(
        Config{}, [](std::string_view key) { return key == "k" ? std::optional<std::string>("one") : std::nullopt; },
        "nbrcomb_", problems);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("nbrcomb_k=\"one\""), std::string::npos) << problems[0];
}

TEST(Config, schedule_shaping_values_differ_when_mode_or_theta_differ) {
    Config a, b;
    b.theta = 3;
    EXPECT_NE(schedule_shaping_values(a), schedule_shaping_values(b));
    b = a;
    b.mode = NBRCOMB_MODE_OFF;
    EXPECT_NE(schedule_shaping_values(a), schedule_shaping_values(b));
    b = a;
    b.log_level = 3;  // verbosity may differ between processes
    EXPECT_EQ(schedule_shaping_values(a), schedule_shaping_values(b));
}

TEST(Config, mapping_settings_ask_to_reorder_only_when_the_library_is_on) {
    Config config;
    config.topo_aware = Locality::numa;
    config.node_size = 8;
    config.reorder = Reorder::on;
    config.reorder_max_edges = 1000;
    const MappingSettings settings = mapping_settings(config);
    EXPECT_EQ(settings.locality, Locality::numa);
    EXPECT_EQ(settings.node_size, 8);
    EXPECT_TRUE(settings.reorder);
    EXPECT_EQ(settings.reorder_max_edges, 1000);
    config.mode = NBRCOMB_MODE_OFF;
    EXPECT_FALSE(mapping_settings(config).reorder);
    config.mode = NBRCOMB_MODE_PAIRS;
    config.reorder = Reorder::off;
    EXPECT_FALSE(mapping_settings(config).reorder);
}

TEST(Config, hints_of_environment_only_settings_are_said_and_ignored) {
    std::vector<std::string> problems;
    const Config config = read_config(
        Config{},
        [](std::string_view key) -> std::optional<std::string> {
            if (key == "log" || key == "report" || key == "rules_out") return "2";
            return key == "theta" ? std::optional<std::string>("3") : std::nullopt;
        },
        "nbrcomb_", problems);
    Config expected;
    expected.theta = 3;
    EXPECT_EQ(config, expected);
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems[1], "nbrcomb_log is a setting of the environment only (NBRCOMB_LOG); the hint is ignored");
}

TEST(Config, names_that_are_no_setting_are_said) {
    std::vector<std::string> problems;
    nbrcomb::detail::report_unknown_settings({"NBRCOMB_THETA", "NBRCOMB_THETHA", "NBRCOMB_theta"}, "NBRCOMB_", problems);
    nbrcomb::detail::report_unknown_settings({"nbrcomb_k", "nbrcomb_mdoe"}, "nbrcomb_", problems);
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems[0], "NBRCOMB_THETHA is no setting of nbrcomb (README.md, Settings); ignored");
    EXPECT_NE(problems[1].find("NBRCOMB_theta"), std::string::npos);
    EXPECT_NE(problems[2].find("nbrcomb_mdoe"), std::string::npos);
}

// The settings line names every setting once, with its value.
TEST(Config, settings_line_gives_every_setting) {
    Config config;
    config.theta = 9;
    const std::string line = nbrcomb::detail::settings_line(config);
    for (const auto& setting : nbrcomb::detail::settings())
        EXPECT_NE(line.find(setting.key + "="), std::string::npos) << setting.key;
    EXPECT_NE(line.find(" theta=9 "), std::string::npos) << line;
    EXPECT_EQ(line.substr(0, 10), "mode=auto ");
}

// Every setting's row reads back the value its show() gives, so the settings line, the agreement
// and the README's defaults say what the library runs with.
TEST(Config, every_setting_reads_what_it_shows) {
    Config changed;
    changed.mode = NBRCOMB_MODE_PAIRS;
    changed.lazy = 5;
    changed.force = "allgather=native";
    changed.rules = "a";
    changed.rules_out = "b";
    changed.combine_limit = 7;
    changed.theta = 2;
    changed.k = 3;
    changed.max_hyperedges = 9;
    changed.topo_aware = Locality::numa;
    changed.node_size = 4;
    changed.reorder = Reorder::on;
    changed.reorder_max_edges = 11;
    changed.check = true;
    changed.log_level = 3;
    changed.report = "r";
    for (const auto& setting : nbrcomb::detail::settings()) {
        Config config;
        std::vector<std::string> problems;
        ASSERT_TRUE(setting.set(setting.show(changed), "NBRCOMB_X", config, problems)) << setting.key;
        EXPECT_EQ(setting.show(config), setting.show(changed)) << setting.key;
        EXPECT_NE(setting.show(config), setting.show(Config{})) << setting.key << ": the test changes every setting";
    }
}
