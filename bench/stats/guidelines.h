// Paper 004's self-consistent performance guidelines for neighborhood collectives (§2) and their
// assessment (§3.2). A guideline a ⪯ b says that a shall not be slower than b when every other
// parameter is the same: a and b are two levels of one parameter, the guideline parameter; the
// message size is the varied parameter; every other parameter is a grouping parameter, and each
// combination of their levels is a group. A test compares the run medians of a and b of one group
// and size and finds a violation at p <= 0.001 and a ratio of at least 1.03 (run_statistics.h);
// a guideline a ≈ b is tested both ways. No MPI.
#pragma once

#include "stats/run_statistics.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace nbrcomb::bench {

// What a setup is measured with. An empty level stands for every level: a Cartesian topology has
// no list order, and a global collective is the same whatever the variant and the graph's lists.
enum class Parameter { variant, neighborhood, dims, ordering, constructor, reorder, operation, form, bytes };
inline constexpr std::size_t parameter_count = 9;
using Levels = std::array<std::string, parameter_count>;
const char* parameter_name(Parameter parameter);
inline const std::string& level(const Levels& levels, Parameter parameter) {
    return levels[static_cast<std::size_t>(parameter)];
}

// The operation levels: "create" (a topology constructor), "neighbor_X" (MPI_Neighbor_X), "X" (the
// global MPI_X on every process, which the neighborhood collective mimics on a complete graph).
inline constexpr const char* create_operation = "create";

struct Relation {
    std::string a, b;  // a ⪯ b
};

struct Guideline {
    std::string id;  // "GL1" .. "GL12", as paper 004 numbers them
    Parameter parameter;
    std::vector<Relation> relations;  // a ≈ b is listed both ways
    bool constructors;                // about the constructors' time, else the collectives'
    std::string says;                 // the guideline in words

    // a ≈ b: every relation is listed both ways.
    bool similar() const;
};

// GL1-GL12 of paper 004, §2.
const std::vector<Guideline>& guidelines();

// One setup as measured: its levels and its run medians (seconds).
struct Measured {
    Levels levels;
    std::vector<double> run_medians;
};

// One comparison of a guideline's relation: setups a and b (indices into the measured setups)
// differ in the guideline parameter only, or where one of them has an empty level.
struct GuidelineTest {
    const Guideline* guideline;
    const Relation* relation;
    std::size_t a, b;
    Levels group;  // the levels of both, the guideline parameter and the message size left empty
    Comparison comparison;
};

// Every test the measured setups allow, for every guideline.
std::vector<GuidelineTest> assess(const std::vector<Measured>& measured);

// Paper 004's Tables 3-4 for one guideline relation and variant: violations among tests, and
// groups with a violation among groups.
struct Tally {
    std::size_t tests = 0, violations = 0, groups = 0, violated_groups = 0;
    double worst_ratio = 0.0;  // the largest ratio among the violations
};

// The tally of the tests of one relation whose group has this variant level.
Tally tally(const std::vector<GuidelineTest>& tests, const Relation& relation, const std::string& variant);

}  // namespace nbrcomb::bench
