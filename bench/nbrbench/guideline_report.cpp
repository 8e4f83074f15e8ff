#include "nbrbench/guideline_report.h"

#include "nbrbench/csv_line.h"

#include <algorithm>
#include <cstdio>

namespace nbrcomb::bench {

namespace {

std::string relation_text(const GuidelineTest& test) {
    return test.relation->a + (test.guideline->similar() ? " ~ " : " <= ") + test.relation->b;
}

void print_rows(const Options& options, const Campaign& campaign, const std::vector<GuidelineTest>& tests,
                int processes) {
    CsvLine header;
    header.text("guideline").text("relation").text("parameter").text("a").text("b");
    for (std::size_t p = 0; p < parameter_count; ++p) header.text(parameter_name(static_cast<Parameter>(p)));
    for (const char* name : {"ranks", "runs", "reps", "a_median_us", "a_run_median_min_us", "a_run_median_max_us",
                             "b_median_us", "b_run_median_min_us", "b_run_median_max_us", "ratio", "p", "violated",
                             "a_intercepted", "b_intercepted", "valid"})
        header.text(name);
    header.print();
    for (const GuidelineTest& test : tests) {
        const MeasuredSetup& a = campaign.setups[test.a];
        const MeasuredSetup& b = campaign.setups[test.b];
        CsvLine line;
        line.text(test.guideline->id).text(relation_text(test)).text(parameter_name(test.guideline->parameter));
        line.text(test.relation->a).text(test.relation->b);
        Levels levels = test.group;
        levels[static_cast<std::size_t>(Parameter::bytes)] = level(a.measured.levels, Parameter::bytes);
        for (const std::string& value : levels) line.text(value);
        line.integer(processes).integer(options.runs).integer(options.repetitions);
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

void print_guideline_report(const Options& options, const Campaign& campaign, int processes) {
    std::vector<Measured> measured;
    for (const MeasuredSetup& setup : campaign.setups) measured.push_back(setup.measured);
    const std::vector<GuidelineTest> tests = assess(measured);
    print_rows(options, campaign, tests, processes);
    print_tables(tests, processes);
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
