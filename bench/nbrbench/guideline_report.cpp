#include "nbrbench/guideline_report.h"

#include "common/split.h"
#include "nbrbench/csv_line.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>

namespace nbrcomb::bench {

namespace {

std::string relation_text(const GuidelineTest& test) {
    return test.relation->a + (test.guideline->similar() ? " ~ " : " <= ") + test.relation->b;
}

void print_rows(const std::vector<MeasuredSetup>& setups, const std::vector<GuidelineTest>& tests, int processes,
                int reps) {
    CsvLine header;
    header.text("guideline").text("relation").text("parameter").text("a").text("b");
    for (std::size_t p = 0; p < parameter_count; ++p) header.text(parameter_name(static_cast<Parameter>(p)));
    for (const char* name : {"ranks", "runs", "reps", "a_median_us", "a_run_median_min_us", "a_run_median_max_us",
                             "b_median_us", "b_run_median_min_us", "b_run_median_max_us", "ratio", "p", "violated",
                             "a_intercepted", "b_intercepted", "valid"})
        header.text(name);
    header.print();
    for (const GuidelineTest& test : tests) {
        const MeasuredSetup& a = setups[test.a];
        const MeasuredSetup& b = setups[test.b];
        CsvLine line;
        line.text(test.guideline->id).text(relation_text(test)).text(parameter_name(test.guideline->parameter));
        line.text(test.relation->a).text(test.relation->b);
        Levels levels = test.group;
        levels[static_cast<std::size_t>(Parameter::bytes)] = level(a.measured.levels, Parameter::bytes);
        for (const std::string& value : levels) line.text(value);
        line.integer(processes).integer(static_cast<long long>(a.measured.run_medians.size())).integer(reps);
        for (const MeasuredSetup* side : {&a, &b}) {
            const auto [low, high] = std::ranges::minmax(side->measured.run_medians);
            line.number(median(side->measured.run_medians) * 1e6, "%.3f");
            line.number(low * 1e6, "%.3f").number(high * 1e6, "%.3f");
        }
        line.number(test.comparison.ratio, "%.4f").number(test.comparison.p_slower, "%.3g");
        line.integer(test.comparison.slower ? 1 : 0);
        for (const MeasuredSetup* side : {&a, &b}) {
            if (side->intercepted)
                line.number(*side->intercepted, "%.3g");
            else
                line.empty();
        }
        // Both sides' data checked where either was; constructors and global collectives are not.
        if (a.valid || b.valid)
            line.integer(a.valid.value_or(true) && b.valid.value_or(true) ? 1 : 0);
        else
            line.empty();
        line.print();
    }
    std::fflush(stdout);
}

// Paper 004's Tables 3-4: per guideline relation and variant, violations/tests (violated
// groups/groups) and the worst ratio.
void print_tables(const std::vector<GuidelineTest>& tests, int processes) {
    std::vector<std::string> variants;
    for (const GuidelineTest& test : tests)
        if (const std::string& variant = level(test.group, Parameter::variant);
            std::ranges::find(variants, variant) == variants.end())
            variants.push_back(variant);
    std::ranges::sort(variants, std::greater<>());  // native first
    std::fprintf(stderr, "nbrbench: guidelines on %d ranks: violations/tests (violated groups/groups), worst ratio\n",
                 processes);
    for (const Guideline& guideline : guidelines())
        for (const Relation& relation : guideline.relations) {
            std::string line = guideline.id + " " + relation.a + (guideline.similar() ? " ~ " : " <= ") + relation.b;
            bool measured = false;
            for (const std::string& variant : variants) {
                const Tally t = tally(tests, relation, variant);
                if (t.tests == 0) continue;
                measured = true;
                char cell[160];
                std::snprintf(cell, sizeof cell, "  %s %zu/%zu (%zu/%zu)", variant.c_str(), t.violations, t.tests,
                              t.violated_groups, t.groups);
                line += cell;
                if (t.violations > 0) {
                    std::snprintf(cell, sizeof cell, " up to %.2f", t.worst_ratio);
                    line += cell;
                }
            }
            if (measured) std::fprintf(stderr, "  %s\n", line.c_str());
        }
}

}  // namespace

void print_guideline_report(const std::vector<MeasuredSetup>& setups, int processes, int reps) {
    std::vector<Measured> measured;
    for (const MeasuredSetup& setup : setups) measured.push_back(setup.measured);
    const std::vector<GuidelineTest> tests = assess(measured);
    print_rows(setups, tests, processes, reps);
    print_tables(tests, processes);
}

void write_measurements(std::FILE* out, const std::vector<MeasuredSetup>& setups, int processes, int reps) {
    for (std::size_t p = 0; p < parameter_count; ++p) std::fprintf(out, "%s,", parameter_name(static_cast<Parameter>(p)));
    std::fprintf(out, "ranks,reps,run,median_us,intercepted,valid\n");
    for (const MeasuredSetup& setup : setups)
        for (std::size_t run = 0; run < setup.measured.run_medians.size(); ++run) {
            for (const std::string& level : setup.measured.levels) std::fprintf(out, "%s,", level.c_str());
            std::fprintf(out, "%d,%d,%zu,%.3f,", processes, reps, run, setup.measured.run_medians[run] * 1e6);
            if (setup.intercepted) std::fprintf(out, "%.6g", *setup.intercepted);
            std::fprintf(out, ",%s\n", setup.valid ? (*setup.valid ? "1" : "0") : "");
        }
    std::fflush(out);
}

std::vector<MeasuredSetup> read_measurements(const std::vector<std::string>& paths, int& processes, int& reps) {
    constexpr std::size_t columns = parameter_count + 6;
    std::vector<MeasuredSetup> setups;
    std::map<Levels, std::size_t> index;
    std::map<Levels, std::pair<double, std::size_t>> intercepted;  // sum of the files' shares and their runs
    processes = reps = 0;
    for (const std::string& path : paths) {
        std::ifstream in(path);
        std::string line;
        if (!in || !std::getline(in, line)) throw std::runtime_error(path + ": cannot be read");
        while (std::getline(in, line)) {
            const std::vector<std::string> fields = split(line, ',');
            if (fields.size() != columns) throw std::runtime_error(path + ": a row of " + std::to_string(fields.size()) +
                                                                   " fields, not " + std::to_string(columns));
            Levels levels;
            std::copy_n(fields.begin(), parameter_count, levels.begin());
            const int ranks = std::stoi(fields[parameter_count]), repetitions = std::stoi(fields[parameter_count + 1]);
            if ((processes != 0 && ranks != processes) || (reps != 0 && repetitions != reps))
                throw std::runtime_error(path + ": other ranks or repetitions than the files before it");
            processes = ranks;
            reps = repetitions;
            const auto [found, added] = index.try_emplace(levels, setups.size());
            if (added) setups.push_back({{levels, {}}, std::nullopt, std::nullopt});
            MeasuredSetup& setup = setups[found->second];
            setup.measured.run_medians.push_back(std::stod(fields[parameter_count + 3]) * 1e-6);
            if (const std::string& share = fields[parameter_count + 4]; !share.empty()) {
                auto& [sum, runs] = intercepted[levels];
                sum += std::stod(share);
                setup.intercepted = sum / static_cast<double>(++runs);
            }
            if (const std::string& valid = fields[parameter_count + 5]; !valid.empty())
                setup.valid = setup.valid.value_or(true) && valid == "1";
        }
    }
    return setups;
}

std::string guideline_columns_help() {
    std::string help =
        "Columns with --guidelines, one row per test of a guideline a <= b (or a ~ b, tested both ways):\n"
        "guideline (GL1 .. GL12 of paper 004); relation; parameter, the guideline parameter, and its levels\n"
        "a and b; then the group's levels, that parameter's empty: variant (native; library, as the\n"
        "environment sets it); neighborhood; dims; ordering; constructor (cart, adjacent, graph);\n"
        "reorder; operation (create, neighbor_X, or the global X); form; bytes, the varied parameter;\n"
        "ranks; runs; reps; for a and b, the median of the run medians and the smallest and largest\n"
        "run median (us); ratio = a median / b median; p, the one-sided rank-sum p-value of a's run\n"
        "medians against b's; violated, 1 for p <= 0.001 and ratio >= 1.03; a_intercepted and\n"
        "b_intercepted, the share of the library variant's calls it ran with its own schedules;\n"
        "valid: 1 if one more call of both sides received what the standard prescribes, 0 if not,\n"
        "empty where not checked (constructors, global collectives). The guidelines:\n";
    for (const Guideline& guideline : guidelines()) help += "  " + guideline.id + ": " + guideline.says + "\n";
    return help;
}

}  // namespace nbrcomb::bench
