#include "src/decision/forced_choices.h"

#include "src/base/text.h"

#include <cctype>
#include <charconv>
#include <variant>

namespace nbrcomb::detail {

namespace {

// The parts of text between separators, empty ones included.
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    for (std::size_t at = text.find(separator); at != std::string_view::npos; at = text.find(separator)) {
        parts.push_back(text.substr(0, at));
        text.remove_prefix(at + 1);
    }
    parts.push_back(text);
    return parts;
}

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

bool applies(const ForcedChoice& choice, Collective collective, Form form, int size_class) {
    if (choice.collective && *choice.collective != collective) return false;
    if (choice.form && *choice.form != form) return false;
    if (!choice.sized) return true;
    // The v and w forms' blocks differ per edge: no one size stands for the call.
    if (size_class < 0) return false;
    const std::size_t bytes = representative_block(size_class);
    return choice.min_bytes <= bytes && bytes <= choice.max_bytes;
}

// A parsed part, or why it does not parse.
template <class T>
using Parsed = std::variant<T, std::string>;

// A wildcard is none; otherwise the value whose name matches, case-insensitively.
template <class T, class Name>
Parsed<std::optional<T>> parse_named(std::string_view text, std::string_view what, int count, Name name) {
    if (text.empty()) return "no " + std::string(what);
    if (text == "*") return std::optional<T>();
    if (const std::optional<T> named = enumerator_named<T>(text, count, name)) return named;
    std::string allowed;
    for (int i = 0; i < count; ++i) allowed += std::string(name(static_cast<T>(i))) + ", ";
    return quoted(text) + " is not a " + std::string(what) + " (" + allowed + "or *)";
}

// N: decimal digits, then an optional unit.
std::optional<std::size_t> parse_bytes(std::string_view text) {
    text = trim(text);
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end == text.data()) return std::nullopt;
    const std::string unit = lower(trim(text.substr(static_cast<std::size_t>(end - text.data()))));
    std::size_t scale = 0;
    if (unit.empty() || unit == "b") scale = 1;
    else if (unit == "kib") scale = std::size_t{1} << 10;
    else if (unit == "mib") scale = std::size_t{1} << 20;
    if (scale == 0 || value > SIZE_MAX / scale) return std::nullopt;
    return value * scale;
}

struct ByteRange {
    std::size_t min, max;
};

// The range a SIZE names, min > max where it holds no size; nullopt if the text is no SIZE.
std::optional<ByteRange> size_range(std::string_view text) {
    if (text.starts_with('<') || text.starts_with('>')) {
        const bool or_equal = text.size() > 1 && text[1] == '=';
        const auto n = parse_bytes(text.substr(or_equal ? 2 : 1));
        if (!n) return std::nullopt;
        if (text.front() == '<') {
            if (or_equal) return ByteRange{0, *n};
            return *n == 0 ? ByteRange{1, 0} : ByteRange{0, *n - 1};
        }
        if (or_equal) return ByteRange{*n, SIZE_MAX};
        return *n == SIZE_MAX ? ByteRange{1, 0} : ByteRange{*n + 1, SIZE_MAX};
    }
    const std::size_t dash = text.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    const auto low = parse_bytes(text.substr(0, dash)), high = parse_bytes(text.substr(dash + 1));
    if (!low || !high) return std::nullopt;
    return ByteRange{*low, *high};
}

Parsed<ByteRange> parse_range(std::string_view text) {
    const auto range = size_range(text);
    if (!range)
        return quoted(text) + " is not a size (<=N, <N, >=N, >N or A-B; N in bytes, or with a unit B, KiB or MiB)";
    if (range->min > range->max) return "the size range " + quoted(text) + " is empty";
    return *range;
}

// One rule, already trimmed and not empty.
Parsed<ForcedChoice> parse_rule(std::string_view rule, const std::function<bool(std::string_view)>& known_algorithm) {
    // A DECISION holds no "=", so the rule's is the last; one right after "<" or ">" belongs to a
    // SIZE's operator, and then the rule has none.
    const std::size_t equals = rule.rfind('=');
    if (equals == std::string_view::npos || (equals > 0 && (rule[equals - 1] == '<' || rule[equals - 1] == '>')))
        return std::string("no \"=\" between shape and decision");
    const std::string_view decision_text = trim(rule.substr(equals + 1));
    const std::string decision = lower(decision_text);
    if (decision.empty()) return std::string("no decision after \"=\"");
    const std::vector<std::string_view> shape = split(rule.substr(0, equals), ':');
    if (shape.size() > 3) return std::string("a shape has at most three parts, COLLECTIVE:FORM:SIZE");

    ForcedChoice choice;
    const auto collective =
        parse_named<Collective>(trim(shape[0]), "collective", collective_count, collective_name);
    if (const auto* why = std::get_if<std::string>(&collective)) return *why;
    choice.collective = std::get<std::optional<Collective>>(collective);
    if (shape.size() > 1) {
        const auto form = parse_named<Form>(trim(shape[1]), "form", form_count, form_name);
        if (const auto* why = std::get_if<std::string>(&form)) return *why;
        choice.form = std::get<std::optional<Form>>(form);
    }
    if (shape.size() > 2) {
        const auto range = parse_range(trim(shape[2]));
        if (const auto* why = std::get_if<std::string>(&range)) return *why;
        choice.sized = true;
        choice.min_bytes = std::get<ByteRange>(range).min;
        choice.max_bytes = std::get<ByteRange>(range).max;
    }

    if (decision == "native" || decision == "off") choice.decision = "native";
    else if (known_algorithm(decision)) choice.decision = decision;
    else return quoted(decision_text) + " is not native, off or an algorithm";
    return choice;
}

std::string format_range(const ForcedChoice& choice) {
    if (choice.max_bytes == SIZE_MAX)
        return choice.min_bytes == 0 ? ">=0" : ">" + std::to_string(choice.min_bytes - 1);
    if (choice.min_bytes == 0) return "<=" + std::to_string(choice.max_bytes);
    return std::to_string(choice.min_bytes) + "-" + std::to_string(choice.max_bytes);
}

}  // namespace

std::optional<std::string> ForcedChoices::find(Collective collective, Form form, int size_class) const {
    for (auto choice = choices.rbegin(); choice != choices.rend(); ++choice)
        if (applies(*choice, collective, form, size_class)) return choice->decision;
    return std::nullopt;
}

ForcedChoices parse_forced_choices(std::string_view text, std::string_view source_name,
                                   const std::function<bool(std::string_view)>& known_algorithm,
                                   std::vector<std::string>& problems) {
    ForcedChoices result;
    for (const std::string_view part : split(text, ';')) {
        const std::string_view rule = trim(part);
        if (rule.empty()) continue;
        auto parsed = parse_rule(rule, known_algorithm);
        if (auto* choice = std::get_if<ForcedChoice>(&parsed)) {
            result.choices.push_back(std::move(*choice));
            continue;
        }
        problems.push_back(std::string(source_name) + " rule " + quoted(rule) + ": " + std::get<std::string>(parsed) +
                           "; left out");
    }
    return result;
}

std::string format_forced_choices(const ForcedChoices& choices) {
    std::string text;
    for (const ForcedChoice& choice : choices.choices) {
        if (!text.empty()) text += ';';
        text += choice.collective ? collective_name(*choice.collective) : "*";
        if (choice.form || choice.sized) text += std::string(":") + (choice.form ? form_name(*choice.form) : "*");
        if (choice.sized) text += ":" + format_range(choice);
        text += "=" + choice.decision;
    }
    return text;
}

}  // namespace nbrcomb::detail
