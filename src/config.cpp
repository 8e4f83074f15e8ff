#include "src/config.h"

#include "schedule/algorithm_table.h"
#include "src/forced_choices.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace nbrcomb::detail {

namespace {

constexpr std::array locality_names{"0", "node", "package", "numa"};

std::string lower(std::string_view text) {
    std::string result(text);
    for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return result;
}

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

// off and auto, which are no algorithm, or an algorithm's name.
std::optional<nbrcomb_mode> parse_mode(std::string_view text) {
    const std::string value = lower(text);
    if (value == "off") return NBRCOMB_MODE_OFF;
    if (value == "auto") return NBRCOMB_MODE_AUTO;
    if (const Algorithm* algorithm = find_algorithm(value)) return algorithm->mode;
    return std::nullopt;
}

std::string allowed_modes() {
    std::string allowed = "one of off, auto";
    for (const Algorithm& algorithm : algorithms()) allowed += std::string(", ") + algorithm.name;
    return allowed;
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

// Applies one setting: parse, and on failure report what is allowed.
template <class T, class Parse>
void apply(const SettingLookup& lookup, std::string_view source, std::string_view key, const char* allowed,
           Parse parse, T& setting, std::vector<std::string>& problems) {
    const auto text = lookup(key);
    if (!text) return;
    if (const auto value = parse(*text)) {
        setting = *value;
        return;
    }
    // Name the setting as the user spelled its kind: NBRCOMB_THETA or nbrcomb_theta.
    const bool upper_case = std::isupper(static_cast<unsigned char>(source.front()));
    std::string name(source);
    for (char c : key) name += upper_case ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    problems.push_back(name + "=\"" + *text + "\" is not " + allowed + "; using the default");
}

// NBRCOMB_FORCE: each rule that parses applies, each that does not says so.
void apply_force(const SettingLookup& lookup, std::string_view source, std::string& setting,
                 std::vector<std::string>& problems) {
    const auto text = lookup("force");
    if (!text) return;
    const std::string name = std::isupper(static_cast<unsigned char>(source.front())) ? "NBRCOMB_FORCE" : "nbrcomb_force";
    const auto known = [](std::string_view algorithm) { return find_algorithm(algorithm) != nullptr; };
    setting = format_forced_choices(parse_forced_choices(*text, name, known, problems));
}

}  // namespace

// FNV-1a, folded to a non-negative int.
int digest(std::string_view text) {
    std::uint32_t hash = 2166136261u;
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    return static_cast<int>(hash & 0x7fffffff);
}

Config read_config(const Config& base, const SettingLookup& lookup, std::string_view source,
                   std::vector<std::string>& problems) {
    Config config = base;
    apply(lookup, source, "mode", allowed_modes().c_str(), parse_mode, config.mode, problems);
    apply(lookup, source, "theta", "an integer >= 1", [](std::string_view t) { return parse_int(t, 1, 1 << 30); },
          config.theta, problems);
    apply(lookup, source, "k", "an integer from 2 to 16", [](std::string_view t) { return parse_int(t, 2, 16); },
          config.k, problems);
    apply(lookup, source, "max_hyperedges", "an integer from 1 to 65536",
          [](std::string_view t) { return parse_int(t, 1, 1 << 16); }, config.max_hyperedges, problems);
    apply(lookup, source, "topo_aware", "one of 0, 1, node, package, numa", parse_locality, config.topo_aware,
          problems);
    apply(lookup, source, "node_size", "an integer >= 0",
          [](std::string_view t) { return parse_int(t, 0, 1 << 30); }, config.node_size, problems);
    apply(lookup, source, "reorder", "on or off", parse_reorder, config.reorder, problems);
    apply(lookup, source, "reorder_max_edges", "an integer from 0 to 1073741824",
          [](std::string_view t) { return parse_int(t, 0, 1 << 30); }, config.reorder_max_edges, problems);
    apply(lookup, source, "lazy", "an integer >= 0", [](std::string_view t) { return parse_int(t, 0, 1 << 30); },
          config.lazy, problems);
    apply(lookup, source, "combine_limit", "an integer >= 0",
          [](std::string_view t) { return parse_int(t, 0, 1 << 30); }, config.combine_limit, problems);
    apply(lookup, source, "check", "0 or 1", parse_bool, config.check, problems);
    apply_force(lookup, source, config.force, problems);
    const auto path = [](std::string_view t) { return std::optional<std::string>(t); };
    apply(lookup, source, "rules", "a file name", path, config.rules, problems);
    apply(lookup, source, "rules_out", "a file name", path, config.rules_out, problems);
    apply(lookup, source, "log", "an integer from 0 to 3", [](std::string_view t) { return parse_int(t, 0, 3); },
          config.log_level, problems);
    apply(lookup, source, "report", "0, 1 or a file name prefix",
          [](std::string_view t) { return t.empty() ? std::nullopt : std::optional<std::string>(t); },
          config.report, problems);
    return config;
}

std::vector<int> schedule_shaping_values(const Config& config) {
    return {static_cast<int>(config.mode), config.theta, config.k, config.max_hyperedges,
            static_cast<int>(config.topo_aware), config.node_size, config.lazy, config.combine_limit,
            config.check ? 1 : 0, digest(config.force)};
}

MappingSettings mapping_settings(const Config& config) {
    return {.locality = config.topo_aware,
            .node_size = config.node_size,
            .reorder = config.mode != NBRCOMB_MODE_OFF && config.reorder == Reorder::on,
            .reorder_max_edges = config.reorder_max_edges};
}

const char* locality_name(Locality locality) { return locality_names[static_cast<std::size_t>(locality)]; }

const char* mode_name(nbrcomb_mode mode) {
    if (mode == NBRCOMB_MODE_OFF) return "off";
    if (mode == NBRCOMB_MODE_AUTO) return "auto";
    const Algorithm* algorithm = find_algorithm(mode);
    return algorithm != nullptr ? algorithm->name : "?";
}

}  // namespace nbrcomb::detail
