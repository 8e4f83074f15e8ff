#include "stats/guidelines.h"

#include <algorithm>
#include <set>

namespace nbrcomb::bench {

namespace {

std::vector<Relation> both_ways(std::vector<Relation> relations) {
    const std::size_t given = relations.size();
    for (std::size_t i = 0; i < given; ++i) relations.push_back({relations[i].b, relations[i].a});
    return relations;
}

// Whether two setups agree on every parameter but skip, an empty level agreeing with any.
bool agree_but(const Levels& x, const Levels& y, Parameter skip) {
    for (std::size_t p = 0; p < parameter_count; ++p)
        if (p != static_cast<std::size_t>(skip) && !x[p].empty() && !y[p].empty() && x[p] != y[p]) return false;
    return true;
}

bool about_constructors(const Levels& levels) { return level(levels, Parameter::operation) == create_operation; }

}  // namespace

const char* parameter_name(Parameter parameter) {
    constexpr const char* names[] = {"variant",     "neighborhood", "dims",      "ordering", "constructor",
                                     "reorder",     "operation",    "form",      "bytes"};
    return names[static_cast<std::size_t>(parameter)];
}

bool Guideline::similar() const {
    return std::ranges::all_of(relations, [this](const Relation& r) {
        return std::ranges::any_of(relations, [&](const Relation& s) { return s.a == r.b && s.b == r.a; });
    });
}

const std::vector<Guideline>& guidelines() {
    using P = Parameter;
    static const std::vector<Guideline> table{
        {"GL1", P::constructor, {{"cart", "adjacent"}}, true,
         "MPI_Cart_create is not slower than MPI_Dist_graph_create_adjacent of the same grid"},
        {"GL2", P::constructor, {{"adjacent", "graph"}}, true,
         "MPI_Dist_graph_create_adjacent is not slower than MPI_Dist_graph_create"},
        {"GL3", P::reorder, {{"0", "1"}}, true, "a constructor with reorder=0 is not slower than with reorder=1"},
        {"GL4", P::operation,
         {{"neighbor_allgather", "neighbor_alltoall"}, {"neighbor_allgatherv", "neighbor_alltoallv"}}, false,
         "allgather is not slower than alltoall, which can mimic it"},
        {"GL5", P::operation, {{"neighbor_allgather", "neighbor_allgatherv"}}, false,
         "allgather is not slower than allgatherv, which can mimic it"},
        {"GL6", P::operation,
         {{"neighbor_alltoall", "neighbor_alltoallv"}, {"neighbor_alltoall", "neighbor_alltoallw"}}, false,
         "alltoall is not slower than alltoallv and alltoallw, which can mimic it"},
        {"GL7", P::operation, {{"allgather", "neighbor_allgather"}, {"allgatherv", "neighbor_allgatherv"}}, false,
         "on a complete graph the global MPI_Allgather(v) is not slower than the neighborhood form"},
        {"GL8", P::operation,
         {{"alltoall", "neighbor_alltoall"}, {"alltoallv", "neighbor_alltoallv"}, {"alltoallw", "neighbor_alltoallw"}},
         false, "on a complete graph the global MPI_Alltoall(v/w) is not slower than the neighborhood form"},
        {"GL9", P::constructor, {{"cart", "adjacent"}, {"cart", "graph"}}, false,
         "on a Cartesian topology the collectives are not slower than on the same graph made by a "
         "distributed-graph constructor"},
        {"GL10", P::constructor, both_ways({{"adjacent", "graph"}}), false,
         "the collectives perform alike on the graphs of both distributed-graph constructors"},
        {"GL11", P::ordering,
         both_ways({{"rowmajor", "random"}, {"colmajor", "random"}, {"rowmajor", "colmajor"}, {"linear", "random"}}),
         false, "the collectives perform alike whatever the order of the neighbor lists"},
        {"GL12", P::reorder, {{"1", "0"}}, false,
         "the collectives are not slower on a topology made with reorder=1 than with reorder=0"},
    };
    return table;
}

std::vector<GuidelineTest> assess(const std::vector<Measured>& measured) {
    std::vector<GuidelineTest> tests;
    for (const Guideline& guideline : guidelines())
        for (const Relation& relation : guideline.relations)
            for (std::size_t a = 0; a < measured.size(); ++a) {
                const Levels& x = measured[a].levels;
                if (level(x, guideline.parameter) != relation.a || about_constructors(x) != guideline.constructors)
                    continue;
                for (std::size_t b = 0; b < measured.size(); ++b) {
                    const Levels& y = measured[b].levels;
                    if (level(y, guideline.parameter) != relation.b || !agree_but(x, y, guideline.parameter)) continue;
                    Levels group;
                    for (std::size_t p = 0; p < parameter_count; ++p) group[p] = x[p].empty() ? y[p] : x[p];
                    group[static_cast<std::size_t>(guideline.parameter)].clear();
                    group[static_cast<std::size_t>(Parameter::bytes)].clear();
                    tests.push_back({&guideline, &relation, a, b, group,
                                     compare_runs(measured[a].run_medians, measured[b].run_medians)});
                }
            }
    return tests;
}

Tally tally(const std::vector<GuidelineTest>& tests, const Relation& relation, const std::string& variant) {
    Tally result;
    std::set<Levels> groups, violated;
    for (const GuidelineTest& test : tests) {
        if (test.relation != &relation || level(test.group, Parameter::variant) != variant) continue;
        ++result.tests;
        groups.insert(test.group);
        if (!test.comparison.slower) continue;
        ++result.violations;
        violated.insert(test.group);
        result.worst_ratio = std::max(result.worst_ratio, test.comparison.ratio);
    }
    result.groups = groups.size();
    result.violated_groups = violated.size();
    return result;
}

}  // namespace nbrcomb::bench
