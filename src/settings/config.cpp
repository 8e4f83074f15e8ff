#include "src/settings/config.h"

#include "src/base/text.h"

#include "schedule/algorithm_table.h"
#include "src/decision/forced_choices.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace nbrcomb::detail {

namespace {

constexpr std::array locality_names{"0", "node", "package", "numa"};

std::optional<int> parse_int(std::string_view text, int min, int max) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) return std::nullopt;
    return value;
}

std::optional<bool> parse_bool(std::string_view text) {
    const std::string value = lower(text);
    if (value == "1" || value == "on" || value == "yes" || value == "true") return true;
    if (value == "0" || value == "off" || value == "no" || value == "false") return false;
    return std::nullopt;
}

// 0/off/... for agnostic, 1/on/... for node, or a level by name.
std::optional<Locality> parse_locality(std::string_view text) {
    if (const auto flag = parse_bool(text)) return *flag ? Locality::node : Locality::agnostic;
    const std::string value = lower(text);
    for (std::size_t i = 1; i < locality_names.size(); ++i)
        if (value == locality_names[i]) return static_cast<Locality>(i);
    return std::nullopt;
}

std::optional<Reorder> parse_reorder(std::string_view text) {
    const auto value = parse_bool(text);
    if (!value) return std::nullopt;
    return *value ? Reorder::on : Reorder::off;
}

// A setting stored in a member of Config by a parser that gives an optional value.
template <class T, class Parse, class Show>
Setting setting(std::string key, std::string type, std::string allowed, T Config::*member, Parse parse, Show show,
                SettingScope scope, SettingAgreement agreement, std::string description) {
    return {.key = std::move(key),
            .type = std::move(type),
            .allowed = std::move(allowed),
            .scope = scope,
            .agreement = agreement,
            .description = std::move(description),
            .set = [member, parse](std::string_view text, const std::string&, Config& config,
                                   std::vector<std::string>&) {
                const auto value = parse(text);
                if (value) config.*member = *value;
                return value.has_value();
            },
            .show = [member, show](const Config& config) { return std::string(show(config.*member)); }};
}

Setting integer(std::string key, int Config::*member, int min, int max, SettingScope scope,
                SettingAgreement agreement, std::string description) {
    std::string allowed = max == 1 << 30 ? "an integer >= " + std::to_string(min)
                                         : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    return setting(
        std::move(key), "integer", std::move(allowed), member,
        [min, max](std::string_view text) { return parse_int(text, min, max); },
        [](int value) { return std::to_string(value); }, scope, agreement, std::move(description));
}

// empty_allowed: an empty value is the setting's "none" (a file name), not a mistake.
Setting text(std::string key, std::string type, std::string allowed, std::string Config::*member, bool empty_allowed,
             SettingScope scope, SettingAgreement agreement, std::string description) {
    return setting(
        std::move(key), std::move(type), std::move(allowed), member,
        [empty_allowed](std::string_view text) {
            return text.empty() && !empty_allowed ? std::nullopt : std::optional<std::string>(text);
        },
        [](const std::string& value) { return value; }, scope, agreement, std::move(description));
}

std::vector<Setting> make_settings() {
    using enum SettingScope;
    using enum SettingAgreement;
    std::string algorithm_names;
    for (const Algorithm& algorithm : algorithms()) algorithm_names += std::string(", ") + algorithm.name;
    std::vector<Setting> all;
    all.push_back(setting(
        "mode", "mode", "one of auto, off" + algorithm_names, &Config::mode, mode_named, mode_name,
        environment_and_hint, at_creation,
        "auto: native MPI per call shape until combining is measured faster; off: native MPI (in the environment, "
        "the library off); an algorithm: it runs every call"));
    all.push_back(integer("lazy", &Config::lazy, 0, 1 << 30, environment_and_hint, at_creation,
                          "auto mode: Phase 1 runs in a communicator's N-th neighborhood collective call (0: at "
                          "its creation); native MPI before"));
    Setting force{.key = "force",
                  .type = "rules",
                  .allowed = "COLLECTIVE[:FORM[:SIZE]]=DECISION;...",
                  .scope = environment_and_hint,
                  .agreement = at_creation,
                  .description = "auto mode: what runs per collective, form and block size, whatever else decides",
                  .set = [](std::string_view text, const std::string& name, Config& config,
                            std::vector<std::string>& problems) {
                      // Each rule that parses applies, each that does not says so itself.
                      const auto known = [](std::string_view algorithm) { return find_algorithm(algorithm) != nullptr; };
                      config.force = format_forced_choices(parse_forced_choices(text, name, known, problems));
                      return true;
                  },
                  .show = [](const Config& config) { return config.force; }};
    all.push_back(std::move(force));
    all.push_back(text("rules", "file", "a file name", &Config::rules, true, environment_and_hint, rules_in_file,
                       "auto mode: a rules file whose decisions matching call shapes take without a trial"));
    all.push_back(text("rules_out", "file", "a file name", &Config::rules_out, true, environment, none,
                       "rank 0 writes this run's decisions there at MPI_Finalize (set it on every process)"));
    all.push_back(integer("combine_limit", &Config::combine_limit, 0, 1 << 30, environment_and_hint, at_creation,
                          "blocks of more bytes go as direct messages even on combined edges (0: no limit); auto "
                          "mode never combines above it"));
    all.push_back(integer("theta", &Config::theta, 1, 1 << 30, environment_and_hint, at_creation,
                          "friendship threshold: common out-neighbors two processes need to combine messages"));
    all.push_back(integer("k", &Config::k, 2, 16, environment_and_hint, at_creation, "friends per group in groups mode"));
    all.push_back(integer("max_hyperedges", &Config::max_hyperedges, 1, 1 << 16, environment_and_hint, at_creation,
                          "groups mode: candidate groups one process keeps in each Phase 1 iteration"));
    all.push_back(setting("topo_aware", "level", "one of 0, 1, node, package, numa", &Config::topo_aware,
                          parse_locality, locality_name, environment_and_hint, at_creation,
                          "combine only with processes on the same node (1), package or NUMA domain"));
    all.push_back(integer("node_size", &Config::node_size, 0, 1 << 30, environment_and_hint, at_creation,
                          "emulate nodes of this many consecutive ranks (0: the real nodes)"));
    all.push_back(setting(
        "reorder", "boolean", "on or off", &Config::reorder, parse_reorder,
        [](Reorder reorder) { return reorder == Reorder::on ? "on" : "off"; }, environment_and_hint, at_reordering,
        "on: reorder=1 of a constructor gives new ranks that keep heavy edges on a node; off: the ranks stay"));
    all.push_back(integer("reorder_max_edges", &Config::reorder_max_edges, 0, 1 << 30, environment_and_hint,
                          at_reordering, "reordering gathers graphs of up to this many edges to one process; above, "
                                         "the ranks stay"));
    all.push_back(setting(
        "check", "boolean", "0 or 1", &Config::check, parse_bool, [](bool check) { return check ? "1" : "0"; },
        environment_and_hint, at_creation,
        "after Phase 1, prove every plan with a probe call; where one fails, log it and use the direct schedule"));
    all.push_back(integer("log", &Config::log_level, 0, 3, environment, none,
                          "0 quiet, 1 warnings, 2 settings and decisions, 3 every schedule"));
    all.push_back(text("report", "prefix", "0, 1 or a file name prefix", &Config::report, false, environment, none,
                       "summary at MPI_Finalize: 1 to standard error, a prefix to a new file PREFIX.N.txt"));
    return all;
}

// The variable or hint of key as the user spells it: NBRCOMB_THETA or nbrcomb_theta.
std::string spelled(std::string_view source, std::string_view key) {
    const bool upper_case = std::isupper(static_cast<unsigned char>(source.front()));
    std::string name(source);
    for (char c : key) name += upper_case ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    return name;
}

bool from_environment(std::string_view source) { return std::isupper(static_cast<unsigned char>(source.front())); }

}  // namespace

// FNV-1a, folded to a non-negative int.
int digest(std::string_view text) {
    std::uint32_t hash = 2166136261u;
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    return static_cast<int>(hash & 0x7fffffff);
}

const std::vector<Setting>& settings() {
    static const std::vector<Setting> all = make_settings();
    return all;
}

Config read_config(const Config& base, const SettingLookup& lookup, std::string_view source,
                   std::vector<std::string>& problems) {
    Config config = base;
    for (const Setting& setting : settings()) {
        const auto text = lookup(setting.key);
        if (!text) continue;
        const std::string name = spelled(source, setting.key);
        if (!from_environment(source) && setting.scope == SettingScope::environment) {
            problems.push_back(name + " is a setting of the environment only (" + spelled("NBRCOMB_", setting.key) +
                               "); the hint is ignored");
            continue;
        }
        if (!setting.set(*text, name, config, problems))
            problems.push_back(name + "=\"" + *text + "\" is not " + setting.allowed + "; using the default");
    }
    return config;
}

void report_unknown_settings(const std::vector<std::string>& names, std::string_view source,
                             std::vector<std::string>& problems) {
    for (const std::string& name : names) {
        const std::string key = lower(std::string_view(name).substr(source.size()));
        const bool known = std::ranges::any_of(settings(), [&](const Setting& s) {
            return s.key == key && spelled(source, s.key) == name;
        });
        if (!known) problems.push_back(name + " is no setting of nbrcomb (README.md, Settings); ignored");
    }
}

std::string settings_line(const Config& config) {
    std::string line;
    for (const Setting& setting : settings()) {
        if (!line.empty()) line += ' ';
        line += setting.key + "=" + setting.show(config);
    }
    return line;
}

std::string settings_table() {
    std::string table = "| variable | hint | type | default | values | processes agree | meaning |\n"
                        "|---|---|---|---|---|---|---|\n";
    const Config defaults;
    for (const Setting& setting : settings()) {
        const std::string value = setting.show(defaults);
        const char* agree = "";
        switch (setting.agreement) {
        case SettingAgreement::none: agree = "no"; break;
        case SettingAgreement::at_creation: agree = "yes"; break;
        case SettingAgreement::at_reordering: agree = "to reorder"; break;
        case SettingAgreement::rules_in_file: agree = "on its rules"; break;
        }
        table += "| `" + spelled("NBRCOMB_", setting.key) + "` | " +
                 (setting.scope == SettingScope::environment ? std::string("—") : "`" + spelled("nbrcomb_", setting.key) + "`") +
                 " | " + setting.type + " | " + (value.empty() ? std::string("(none)") : "`" + value + "`") + " | " +
                 setting.allowed + " | " + agree + " | " + setting.description + " |\n";
    }
    return table;
}

std::vector<int> schedule_shaping_values(const Config& config) {
    std::vector<int> values;
    for (const Setting& setting : settings())
        if (setting.agreement == SettingAgreement::at_creation) values.push_back(digest(setting.show(config)));
    return values;
}

MappingSettings mapping_settings(const Config& config) {
    return {.locality = config.topo_aware,
            .node_size = config.node_size,
            .reorder = config.mode != NBRCOMB_MODE_OFF && config.reorder == Reorder::on,
            .reorder_max_edges = config.reorder_max_edges};
}

const char* locality_name(Locality locality) { return locality_names[static_cast<std::size_t>(locality)]; }

// off and auto, which are no algorithm, or an algorithm's name.
std::optional<nbrcomb_mode> mode_named(std::string_view name) {
    const std::string value = lower(name);
    if (value == "off") return NBRCOMB_MODE_OFF;
    if (value == "auto") return NBRCOMB_MODE_AUTO;
    if (const Algorithm* algorithm = find_algorithm(value)) return algorithm->mode;
    return std::nullopt;
}

const char* mode_name(nbrcomb_mode mode) {
    if (mode == NBRCOMB_MODE_OFF) return "off";
    if (mode == NBRCOMB_MODE_AUTO) return "auto";
    const Algorithm* algorithm = find_algorithm(mode);
    return algorithm != nullptr ? algorithm->name : "?";
}

}  // namespace nbrcomb::detail
