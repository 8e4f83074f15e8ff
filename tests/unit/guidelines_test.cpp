#include "stats/guidelines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using nbrcomb::bench::assess;
using nbrcomb::bench::guidelines;
using nbrcomb::bench::Levels;
using nbrcomb::bench::Measured;
using nbrcomb::bench::Parameter;
using nbrcomb::bench::GuidelineTest;

namespace {

// Levels in the order of Parameter: variant, neighborhood, dims, ordering, constructor, reorder,
// operation, form, bytes.
Levels levels(std::string variant, std::string neighborhood, std::string dims, std::string ordering,
              std::string constructor, std::string reorder, std::string operation, std::string form,
              std::string bytes) {
    return {variant, neighborhood, dims, ordering, constructor, reorder, operation, form, bytes};
}

// Ten run medians around seconds, each a little apart so that the rank-sum test sees no ties.
std::vector<double> runs_around(double seconds) {
    std::vector<double> runs;
    for (int i = 0; i < 10; ++i) runs.push_back(seconds * (1.0 + 0.001 * i));
    return runs;
}

std::vector<const GuidelineTest*> tests_of(const std::vector<GuidelineTest>& tests, const std::string& id) {
    std::vector<const GuidelineTest*> found;
    for (const GuidelineTest& test : tests)
        if (test.guideline->id == id) found.push_back(&test);
    return found;
}

}  // namespace

TEST(Guidelines, table_holds_gl1_to_gl12_in_order) {
    ASSERT_EQ(guidelines().size(), 12u);
    for (std::size_t i = 0; i < guidelines().size(); ++i) {
        EXPECT_EQ(guidelines()[i].id, "GL" + std::to_string(i + 1));
        EXPECT_FALSE(guidelines()[i].relations.empty());
    }
}

TEST(Guidelines, a_slower_operation_violates_its_guideline_in_its_group_only) {
    // Native allgather 20% slower than alltoall at 4 B, alike at 1024 B; the library's alike at both.
    std::vector<Measured> measured;
    for (const std::string variant : {"native", "library"})
        for (const std::string bytes : {"4", "1024"}) {
            const bool slow = variant == "native" && bytes == "4";
            measured.push_back({levels(variant, "moore", "2", "rowmajor", "adjacent", "0", "neighbor_allgather",
                                       "blocking", bytes),
                                runs_around(slow ? 1.2e-5 : 1e-5)});
            measured.push_back({levels(variant, "moore", "2", "rowmajor", "adjacent", "0", "neighbor_alltoall",
                                       "blocking", bytes),
                                runs_around(1e-5)});
        }
    const std::vector<GuidelineTest> tests = assess(measured);
    const auto gl4 = tests_of(tests, "GL4");
    ASSERT_EQ(gl4.size(), 4u);  // two variants, two sizes, one relation with both sides measured
    for (const GuidelineTest* test : gl4) {
        const bool slow = nbrcomb::bench::level(test->group, Parameter::variant) == "native" &&
                          nbrcomb::bench::level(measured[test->a].levels, Parameter::bytes) == "4";
        EXPECT_EQ(test->comparison.slower, slow);
        EXPECT_TRUE(nbrcomb::bench::level(test->group, Parameter::operation).empty());
        EXPECT_TRUE(nbrcomb::bench::level(test->group, Parameter::bytes).empty());
    }
    const auto& relation = guidelines()[3].relations[0];
    const auto native = nbrcomb::bench::tally(tests, relation, "native");
    EXPECT_EQ(native.tests, 2u);
    EXPECT_EQ(native.violations, 1u);
    EXPECT_EQ(native.groups, 1u);
    EXPECT_EQ(native.violated_groups, 1u);
    EXPECT_NEAR(native.worst_ratio, 1.2, 1e-9);
    EXPECT_EQ(nbrcomb::bench::tally(tests, relation, "library").violations, 0u);
    EXPECT_TRUE(tests_of(tests, "GL5").empty());  // no allgatherv measured
}

TEST(Guidelines, empty_levels_pair_with_every_level) {
    std::vector<Measured> measured{
        // A Cartesian grid has no list order: it meets the von Neumann grid in every order.
        {levels("native", "vonneumann", "2", "", "cart", "0", "neighbor_alltoall", "blocking", "4"), runs_around(1e-5)},
        {levels("native", "vonneumann", "2", "rowmajor", "adjacent", "0", "neighbor_alltoall", "blocking", "4"),
         runs_around(1e-5)},
        {levels("native", "vonneumann", "2", "random", "adjacent", "0", "neighbor_alltoall", "blocking", "4"),
         runs_around(1e-5)},
        // The global collective serves every variant and list order of the complete graph.
        {levels("", "full", "", "", "", "", "alltoall", "blocking", "4"), runs_around(1e-5)},
        {levels("native", "full", "", "linear", "adjacent", "0", "neighbor_alltoall", "blocking", "4"),
         runs_around(1e-5)},
        {levels("library", "full", "", "random", "graph", "1", "neighbor_alltoall", "blocking", "4"),
         runs_around(1e-5)},
        // Another size: no test across sizes.
        {levels("native", "vonneumann", "2", "colmajor", "adjacent", "0", "neighbor_alltoall", "blocking", "16"),
         runs_around(1e-5)},
    };
    const std::vector<GuidelineTest> tests = assess(measured);
    const auto gl9 = tests_of(tests, "GL9");
    ASSERT_EQ(gl9.size(), 2u);
    for (const GuidelineTest* test : gl9) EXPECT_EQ(test->a, 0u);
    EXPECT_EQ(nbrcomb::bench::level(gl9[0]->group, Parameter::ordering), "rowmajor");
    const auto gl8 = tests_of(tests, "GL8");
    ASSERT_EQ(gl8.size(), 2u);
    EXPECT_EQ(nbrcomb::bench::level(gl8[0]->group, Parameter::variant), "native");
    EXPECT_EQ(nbrcomb::bench::level(gl8[1]->group, Parameter::variant), "library");
    EXPECT_EQ(nbrcomb::bench::level(gl8[1]->group, Parameter::constructor), "graph");
    // rowmajor ≈ random, tested both ways; colmajor runs at another size only.
    EXPECT_EQ(tests_of(tests, "GL11").size(), 2u);
    EXPECT_TRUE(tests_of(tests, "GL1").empty());  // constructors' guidelines take constructor times only
}

TEST(Guidelines, constructors_guidelines_compare_constructor_times) {
    const std::vector<Measured> measured{
        {levels("library", "vonneumann", "3", "", "cart", "0", "create", "", ""), runs_around(2e-4)},
        {levels("library", "vonneumann", "3", "colmajor", "adjacent", "0", "create", "", ""), runs_around(1e-4)},
        {levels("library", "vonneumann", "3", "colmajor", "graph", "0", "create", "", ""), runs_around(1e-4)},
    };
    const std::vector<GuidelineTest> tests = assess(measured);
    const auto gl1 = tests_of(tests, "GL1");
    ASSERT_EQ(gl1.size(), 1u);
    EXPECT_TRUE(gl1[0]->comparison.slower);
    EXPECT_NEAR(gl1[0]->comparison.ratio, 2.0, 1e-9);
    ASSERT_EQ(tests_of(tests, "GL2").size(), 1u);
    EXPECT_FALSE(tests_of(tests, "GL2")[0]->comparison.slower);
    EXPECT_TRUE(tests_of(tests, "GL9").empty());
    EXPECT_TRUE(tests_of(tests, "GL10").empty());
}
