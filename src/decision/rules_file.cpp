#include "src/decision/rules_file.h"

#include "src/decision/median.h"
#include "src/base/text.h"

#include <algorithm>

#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nbrcomb::detail {

namespace {

// The columns in their order: the header names them from here, and the parser counts them.
constexpr std::array<const char*, 13> columns = {"mpi",      "processes", "per_node",  "graph", "collective",
                                                 "form",     "blocks",    "decision",  "cutoff", "native_us",
                                                 "chosen_us", "p",        "date"};
constexpr std::string_view separator = " | ";

// Blank lines and comments, which read_rules passes over and write_rules must never produce for a rule.
bool is_skipped(std::string_view line) {
    line = trim(line);
    return line.empty() || line.front() == '#';
}

std::string quoted(std::string_view text) {
    constexpr std::size_t most = 24;  // a phrase, not the whole line back
    return '"' + std::string(text.substr(0, most)) + (text.size() > most ? "...\"" : "\"");
}

// The whole field or nothing: from_chars stops at the first character it cannot take.
template <class T>
bool parse_number(std::string_view text, T& value, int base = 10) {
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    return ec == std::errc{} && end == text.data() + text.size();
}

bool parse_real(std::string_view text, double& value) {
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc{} && end == text.data() + text.size() && std::isfinite(value);
}

// to_chars, not printf: the application may have set a locale whose decimal point is a comma.
std::string real_text(double value, std::chars_format format, int precision) {
    std::array<char, 400> buffer;  // DBL_MAX in fixed notation takes 309 digits
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format, precision);
    return ec == std::errc{} ? std::string(buffer.data(), end) : std::string("?");
}

std::string bytes_text(std::size_t bytes) {
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + "KiB";
    return std::to_string(bytes) + "B";
}

// From auto_tuner's classes, so that the names follow their limits.
std::string blocks_text(int size_class) {
    if (size_class == -1) return "any";
    if (size_class < 0 || size_class >= size_classes) return "?";
    if (size_class == size_classes - 1) return ">" + bytes_text(size_class_limit(size_classes - 2));
    return bytes_text(size_class_limit(size_class));
}

const char* collective_text(Collective collective) {
    const int index = static_cast<int>(collective);
    return index >= 0 && index < collective_count ? collective_name(collective) : "?";
}

std::optional<int> parse_blocks(std::string_view text) {
    for (int c = -1; c < size_classes; ++c)
        if (text == blocks_text(c)) return c;
    return std::nullopt;
}

// YYYY-MM-DD of a day that exists: a date cut short, the last field of a line cut short, is refused.
bool is_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    int year = 0;
    unsigned month = 0, day = 0;
    if (!parse_number(text.substr(0, 4), year) || !parse_number(text.substr(5, 2), month) ||
        !parse_number(text.substr(8, 2), day))
        return false;
    return std::chrono::year_month_day{std::chrono::year{year}, std::chrono::month{month}, std::chrono::day{day}}.ok();
}

std::string errno_text() { return std::generic_category().message(errno); }

bool write_all(int fd, const std::string& text) {
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) errno = EIO;  // a write that takes nothing sets no errno
        if (n <= 0) return false;
        written += static_cast<std::size_t>(n);
    }
    return true;
}

// A new file next to path, unique among jobs that finalize at once on nodes sharing the
// directory; O_EXCL rather than mkstemp so that the umask, not 0600, decides who may read it.
int create_temporary(const std::string& path, std::string& temporary) {
    const auto seed = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (unsigned attempt = 0; attempt < 16; ++attempt) {
        char suffix[64];
        std::snprintf(suffix, sizeof suffix, ".tmp.%ld.%llx", static_cast<long>(::getpid()), seed + attempt);
        temporary = path + suffix;
        const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

std::string header() {
    std::string text =
        "# libnbrcomb rules: auto mode's decisions by trial or estimate, a line per communicator and shape of call.\n"
        "# A run with NBRCOMB_RULES=FILE takes the decision of the line whose key (the first seven columns)\n"
        "# matches, without a trial. Lines may be edited, reordered or deleted; a later line with the same\n"
        "# key overrides an earlier one; lines starting with '#' are comments. A graph of '*' holds for\n"
        "# every graph whose own line is missing: the writer adds one where all graphs of a run agree.\n"
        "#   blocks: the size class's largest block, 'any' for the v and w forms; decision: native or the\n"
        "#   combining algorithm; cutoff: the largest block combined, in bytes; native_us, chosen_us: median\n"
        "#   microseconds of the slowest process; p: one-sided rank-sum p-value of the decision (0, 0 and 1\n"
        "#   where the estimate decided: no candidate could beat native there).\n"
        "#";
    for (std::size_t i = 0; i < columns.size(); ++i) {
        text += i == 0 ? " " : separator;
        text += columns[i];
    }
    return text + '\n';
}

}  // namespace

std::string mpi_library_id(std::string_view library_version) {
    std::string_view first = library_version.substr(0, library_version.find('\n'));
    first = first.substr(0, first.find(','));
    std::string id;
    bool space = false;
    for (const char c : first) {
        if (is_space(c)) {
            space = !id.empty();
            continue;
        }
        if (space) id += ' ';
        space = false;
        id += c == '|' ? '/' : c;
    }
    return id.empty() ? "unknown" : id;
}

std::string format_rule(const Rule& rule) {
    char graph[17] = "*";
    if (!rule.key.any_graph)
        std::snprintf(graph, sizeof graph, "%016llx", static_cast<unsigned long long>(rule.key.graph));
    const std::string fields[] = {
        rule.key.mpi,
        std::to_string(rule.key.processes),
        std::to_string(rule.key.per_node),
        graph,
        collective_text(rule.key.collective),
        form_name(rule.key.form),
        blocks_text(rule.key.size_class),
        rule.decision,
        rule.cutoff == SIZE_MAX ? std::string("none") : std::to_string(rule.cutoff),
        real_text(rule.native_us, std::chars_format::fixed, 2),
        real_text(rule.chosen_us, std::chars_format::fixed, 2),
        real_text(rule.p, std::chars_format::general, 3),
        rule.date,
    };
    static_assert(std::size(fields) == columns.size());
    std::string line;
    for (const std::string& field : fields) {
        if (!line.empty()) line += separator;
        line += field;
    }
    return line;
}

std::optional<Rule> parse_rule(std::string_view line, std::string& why) {
    std::array<std::string_view, columns.size()> fields;
    std::size_t count = 0;
    for (std::size_t start = 0;;) {
        const std::size_t bar = line.find('|', start);
        if (count < fields.size()) fields[count] = trim(line.substr(start, bar - start));
        ++count;
        if (bar == std::string_view::npos) break;
        start = bar + 1;
    }
    if (count != fields.size()) {
        why = "expected " + std::to_string(fields.size()) + " fields, found " + std::to_string(count);
        return std::nullopt;
    }
    const auto fail = [&](const char* column, std::string_view text, const char* what = "bad") {
        why = std::string(what) + ' ' + column + ' ' + quoted(text);
        return std::nullopt;
    };

    Rule rule;
    RuleKey& key = rule.key;
    key.mpi = fields[0];
    if (key.mpi.empty()) {
        why = "empty mpi";
        return std::nullopt;
    }
    if (!parse_number(fields[1], key.processes) || key.processes <= 0) return fail("processes", fields[1]);
    if (!parse_number(fields[2], key.per_node) || key.per_node <= 0) return fail("per_node", fields[2]);
    if (key.per_node > key.processes) {
        why = "per_node more than processes";
        return std::nullopt;
    }
    key.any_graph = fields[3] == "*";
    if (!key.any_graph && (fields[3].size() != 16 || !parse_number(fields[3], key.graph, 16)))
        return fail("graph", fields[3]);
    const std::optional<Collective> collective = collective_named(fields[4]);
    if (!collective) return fail("collective", fields[4], "unknown");
    key.collective = *collective;
    const std::optional<Form> form = form_named(fields[5]);
    if (!form) return fail("form", fields[5], "unknown");
    key.form = *form;
    const std::optional<int> blocks = parse_blocks(fields[6]);
    if (!blocks) return fail("blocks", fields[6], "unknown");
    key.size_class = *blocks;

    rule.decision = fields[7];
    if (rule.decision.empty()) {
        why = "empty decision";
        return std::nullopt;
    }
    if (fields[8] != "none" && !parse_number(fields[8], rule.cutoff)) return fail("cutoff", fields[8]);
    if (!parse_real(fields[9], rule.native_us) || rule.native_us < 0) return fail("native_us", fields[9]);
    if (!parse_real(fields[10], rule.chosen_us) || rule.chosen_us < 0) return fail("chosen_us", fields[10]);
    if (!parse_real(fields[11], rule.p) || rule.p < 0 || rule.p > 1) return fail("p", fields[11]);
    if (!is_date(fields[12])) return fail("date", fields[12]);
    rule.date = fields[12];
    return rule;
}

RulesFile read_rules(const std::string& path) {
    RulesFile file;
    std::string text;
    // stdio rather than a stream: fread's error tells a directory or a failing disk from an empty file.
    std::FILE* stream = std::fopen(path.c_str(), "rb");
    if (stream) {
        char buffer[4096];
        std::size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, stream)) > 0) text.append(buffer, n);
        const bool failed = std::ferror(stream) != 0;
        std::fclose(stream);
        if (failed) stream = nullptr;
    }
    if (!stream) {
        file.problems.push_back(path + ": cannot be read");
        return file;
    }

    std::string_view rest = text;
    for (int number = 1; !rest.empty(); ++number) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        if (is_skipped(line)) continue;
        std::string why;
        if (std::optional<Rule> rule = parse_rule(line, why))
            file.rules.push_back(std::move(*rule));
        else
            file.problems.push_back(path + ':' + std::to_string(number) + ": " + why);
    }
    return file;
}

bool write_rules(const std::string& path, const std::vector<Rule>& rules, std::string& error) {
    // Every line must read back, else the file would lose it, or a later run misread it, silently.
    std::string text = header();
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const std::string line = format_rule(rules[i]);
        std::string why;
        if (line.find('\n') != std::string::npos || is_skipped(line) || !parse_rule(line, why)) {
            error = path + ": rule " + std::to_string(i + 1) + " would not read back (" +
                    (why.empty() ? std::string("a line break or comment") : why) + ")";
            return false;
        }
        text += line;
        text += '\n';
    }

    std::string temporary;
    const int fd = create_temporary(path, temporary);
    if (fd < 0) {
        error = path + ": cannot create a temporary file beside it: " + errno_text();
        return false;
    }
    // fsync before rename: otherwise a crash may leave the new name on an empty file.
    const bool written = write_all(fd, text) && ::fsync(fd) == 0;
    const std::string write_error = written ? std::string() : errno_text();
    if (::close(fd) != 0 && written) {
        error = temporary + ": " + errno_text();
        ::unlink(temporary.c_str());
        return false;
    }
    if (!written) {
        error = temporary + ": " + write_error;
        ::unlink(temporary.c_str());
        return false;
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        error = path + ": cannot replace: " + errno_text();
        ::unlink(temporary.c_str());
        return false;
    }
    return true;
}

const Rule* find_rule(const std::vector<Rule>& rules, const RuleKey& key) {
    RuleKey any = key;
    any.graph = 0;
    any.any_graph = true;
    for (const RuleKey& wanted : {key, any})
        for (auto rule = rules.rbegin(); rule != rules.rend(); ++rule)
            if (rule->key == wanted) return &*rule;
    return nullptr;
}

std::vector<Rule> any_graph_rules(const std::vector<Rule>& decided) {
    std::vector<Rule> general;
    std::vector<bool> done(decided.size(), false);
    for (std::size_t i = 0; i < decided.size(); ++i) {
        if (done[i] || decided[i].key.any_graph) continue;
        Rule rule = decided[i];
        rule.key.graph = 0;
        rule.key.any_graph = true;
        bool agree = true;
        std::vector<double> native, chosen;
        for (std::size_t j = i; j < decided.size(); ++j) {
            RuleKey other = decided[j].key;
            other.graph = 0;
            other.any_graph = true;
            if (other != rule.key) continue;
            done[j] = true;
            agree = agree && decided[j].decision == rule.decision && decided[j].cutoff == rule.cutoff;
            native.push_back(decided[j].native_us);
            chosen.push_back(decided[j].chosen_us);
            rule.p = std::max(rule.p, decided[j].p);
        }
        if (!agree) continue;
        rule.native_us = median(native);
        rule.chosen_us = median(chosen);
        general.push_back(rule);
    }
    return general;
}

}  // namespace nbrcomb::detail
