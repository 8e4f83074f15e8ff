// The topology generators, and the pair pattern on the paper's topologies at the paper's
// process counts (paper 000, §VI), run on the simulator.
#include "pattern/pattern_builder.h"
#include "pattern/pattern_check.h"
#include "pattern/simulated_phase1.h"
#include "topology/generators.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>

using namespace nbrcomb::detail;
using namespace nbrcomb::topology;

namespace {

// The paper's process counts. The address sanitizer makes Phase 1 several times slower and
// hungrier, so there the same topologies run on a quarter of the processes.
#ifdef __SANITIZE_ADDRESS__
constexpr int paper_processes = 1024, paper_large_processes = 2048;
#else
constexpr int paper_processes = 4096, paper_large_processes = 8192;
#endif

// Every edge u->v counted from u's destinations and from v's sources must agree: the k-th
// rule can only hold if the multisets match.
void expect_consistent(const Graphs& graphs) {
    std::map<std::pair<int, int>, int> from_out, from_in;
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        ASSERT_EQ(graphs[r].rank, static_cast<int>(r));
        for (const int v : graphs[r].destinations) {
            ASSERT_GE(v, 0);
            ASSERT_LT(v, static_cast<int>(graphs.size()));
            ++from_out[{graphs[r].rank, v}];
        }
        for (const int u : graphs[r].sources) ++from_in[{u, graphs[r].rank}];
    }
    EXPECT_EQ(from_out, from_in);
}

std::size_t edge_count(const Graphs& graphs) {
    std::size_t edges = 0;
    for (const auto& graph : graphs) edges += graph.destinations.size();
    return edges;
}

// Phase 1 with the paper's theta: every edge delivered once, no process sending more than
// natively, and fewer messages in all.
void expect_combines(const Graphs& graphs, const PatternSettings& settings = {}) {
    const auto patterns = simulate_patterns(graphs, settings);
    const auto problems = simulate_pattern_check(graphs, patterns);
    EXPECT_TRUE(problems.empty()) << problems.size() << " problems, the first: " << problems.front();
    double combined = 0, native = 0;
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        const std::size_t mine = messages_per_call(graphs[r], patterns[r]);
        const std::size_t direct = messages_per_call(graphs[r], direct_pattern(graphs[r]));
        EXPECT_LE(mine, direct) << "rank " << r;
        combined += static_cast<double>(mine);
        native += static_cast<double>(direct);
    }
    EXPECT_LT(combined / native, 1.0);
}

}  // namespace

TEST(Topology, balanced_dims_like_mpi_dims_create) {
    EXPECT_EQ(balanced_dims(4096, 2), (std::vector<int>{64, 64}));
    EXPECT_EQ(balanced_dims(8192, 2), (std::vector<int>{128, 64}));
    EXPECT_EQ(balanced_dims(8192, 3), (std::vector<int>{32, 16, 16}));
    EXPECT_EQ(balanced_dims(12, 2), (std::vector<int>{4, 3}));
    EXPECT_EQ(balanced_dims(72, 2), (std::vector<int>{9, 8}));
    EXPECT_EQ(balanced_dims(7, 3), (std::vector<int>{7, 1, 1}));
    EXPECT_EQ(balanced_dims(1, 2), (std::vector<int>{1, 1}));
    EXPECT_THROW(balanced_dims(0, 2), std::invalid_argument);
}

TEST(Topology, stencils_on_large_grids_have_distinct_neighbors) {
    struct Case {
        Graphs graphs;
        std::size_t degree;
    };
    // (2R+1)^D - 1 for Moore; the lattice points within Manhattan distance R for von Neumann.
    const std::vector<Case> cases{{moore(64, 2, 1), 8},        {moore(144, 2, 2), 24},      {moore(216, 3, 1), 26},
                                  {von_neumann(64, 2, 1), 4},  {von_neumann(64, 2, 2), 12}, {von_neumann(343, 3, 2), 24},
                                  {von_neumann(81, 4, 1), 8}};
    for (const auto& [graphs, degree] : cases) {
        expect_consistent(graphs);
        for (const auto& graph : graphs) {
            ASSERT_EQ(graph.destinations.size(), degree);
            ASSERT_EQ(graph.sources.size(), degree);
            std::vector<int> out = graph.destinations, in = graph.sources;
            std::sort(out.begin(), out.end());
            std::sort(in.begin(), in.end());
            EXPECT_EQ(std::adjacent_find(out.begin(), out.end()), out.end()) << "rank " << graph.rank;
            EXPECT_EQ(std::count(out.begin(), out.end(), graph.rank), 0);
            EXPECT_EQ(out, in) << "stencils are symmetric";
        }
    }
}

TEST(Topology, stencils_on_tiny_grids_repeat_neighbors_and_loop) {
    // 2 x 2: the eight Moore offsets of rank 0 land on the diagonal 3 four times, on 1 and 2
    // twice each.
    const Graphs square = moore(4, 2, 1);
    expect_consistent(square);
    EXPECT_EQ(square[0].destinations, (std::vector<int>{3, 2, 3, 1, 1, 3, 2, 3}));
    // One process: every edge is a self-loop.
    const Graphs alone = moore(1, 3, 1);
    EXPECT_EQ(alone[0].destinations, std::vector<int>(26, 0));
    EXPECT_EQ(alone[0].sources, std::vector<int>(26, 0));
    // Radius beyond the grid, other shapes.
    for (const Graphs& graphs : {moore(2, 2, 1), moore(3, 2, 2), moore(6, 3, 1), von_neumann(2, 1, 3),
                                 von_neumann(5, 2, 2), moore(8, 3, 2)})
        expect_consistent(graphs);
}

TEST(Topology, erdos_renyi_density_and_determinism) {
    const int processes = 1000;
    const double density = 0.1;
    const Graphs graphs = erdos_renyi(processes, density, 42);
    expect_consistent(graphs);
    const double pairs = processes * (processes - 1.0);
    const double sigma = std::sqrt(pairs * density * (1 - density));
    EXPECT_NEAR(static_cast<double>(edge_count(graphs)), pairs * density, 5 * sigma);
    for (const auto& graph : graphs) {
        EXPECT_TRUE(std::is_sorted(graph.destinations.begin(), graph.destinations.end()));
        EXPECT_EQ(std::adjacent_find(graph.destinations.begin(), graph.destinations.end()), graph.destinations.end());
        EXPECT_EQ(std::count(graph.destinations.begin(), graph.destinations.end(), graph.rank), 0);
        EXPECT_TRUE(std::is_sorted(graph.sources.begin(), graph.sources.end()));
    }
    const Graphs again = erdos_renyi(processes, density, 42), other = erdos_renyi(processes, density, 43);
    EXPECT_EQ(again[17].destinations, graphs[17].destinations);
    EXPECT_NE(other[17].destinations, graphs[17].destinations);

    EXPECT_EQ(edge_count(erdos_renyi(50, 0.0, 1)), 0u);
    const Graphs complete = erdos_renyi(50, 1.0, 1);
    expect_consistent(complete);
    EXPECT_EQ(edge_count(complete), 50u * 49u);
    EXPECT_THROW(erdos_renyi(10, 1.5, 1), std::invalid_argument);
}

TEST(Topology, matrix_halo_follows_row_blocks) {
    // Tridiagonal 6 x 6 over 3 processes of 2 rows: a chain, both ways.
    nbrcomb::common::CooMatrix tridiagonal{6, 6, {}};
    for (std::int64_t i = 0; i < 6; ++i)
        for (std::int64_t j = std::max<std::int64_t>(0, i - 1); j <= std::min<std::int64_t>(5, i + 1); ++j)
            tridiagonal.entries.push_back({i, j, 1.0});
    const Graphs chain = matrix_halo(tridiagonal, 3);
    expect_consistent(chain);
    EXPECT_EQ(chain[0].destinations, (std::vector<int>{1}));
    EXPECT_EQ(chain[1].destinations, (std::vector<int>{0, 2}));
    EXPECT_EQ(chain[2].sources, (std::vector<int>{1}));

    // Rank i receives from j when a row of i reads a column of j: (0, 5) makes 2 -> 0 only.
    const nbrcomb::common::CooMatrix corner{6, 6, {{0, 5, 1.0}, {0, 4, 2.0}, {1, 1, 1.0}}};
    const Graphs one_edge = matrix_halo(corner, 3);
    EXPECT_EQ(one_edge[2].destinations, (std::vector<int>{0}));
    EXPECT_EQ(one_edge[0].sources, (std::vector<int>{2}));
    EXPECT_EQ(edge_count(one_edge), 1u);

    // More processes than rows: some own nothing.
    const Graphs sparse = matrix_halo(tridiagonal, 10);
    expect_consistent(sparse);
    EXPECT_EQ(edge_count(sparse), 10u);
}

TEST(Topology, matrix_halo_reads_matrix_market) {
    const auto path = std::filesystem::temp_directory_path() / "nbrcomb_pattern_scale_test.mtx";
    {
        std::ofstream file(path);
        file << "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n1 1\n4 1\n3 2\n";
    }
    const Graphs graphs = matrix_halo(path.string(), 2);
    std::filesystem::remove(path);
    expect_consistent(graphs);
    // Symmetric storage: (4, 1) and (1, 4) join ranks 1 and 0; (3, 2) and (2, 3) too.
    EXPECT_EQ(graphs[0].destinations, (std::vector<int>{1}));
    EXPECT_EQ(graphs[1].destinations, (std::vector<int>{0}));
}

TEST(Topology, specs) {
    const TopologySpec moore_spec = parse_topology("moore:3:2");
    EXPECT_EQ(moore_spec.kind, TopologySpec::Kind::moore);
    EXPECT_EQ(moore_spec.dims, 3);
    EXPECT_EQ(moore_spec.radius, 2);
    EXPECT_EQ(parse_topology("vonneumann:2:1").kind, TopologySpec::Kind::von_neumann);
    const TopologySpec er = parse_topology("er:0.05:7");
    EXPECT_EQ(er.kind, TopologySpec::Kind::erdos_renyi);
    EXPECT_DOUBLE_EQ(er.density, 0.05);
    EXPECT_EQ(er.seed, 7u);
    EXPECT_EQ(parse_topology("er:0.2").seed, parse_topology("er:0.4").seed);
    const TopologySpec matrix = parse_topology("matrix:/data/c:d.mtx");
    EXPECT_EQ(matrix.kind, TopologySpec::Kind::matrix);
    EXPECT_EQ(matrix.path, "/data/c:d.mtx");
    EXPECT_EQ(edge_count(generate(parse_topology("moore:2:1"), 16)), 16u * 8u);
    EXPECT_EQ(edge_count(generate(parse_topology("complete"), 6)), 6u * 6u);

    for (const char* bad : {"", "complete:1", "moore", "moore:2", "moore:2:x", "moore:0:1", "moore:2:1:3", "er", "er:", "er:1.5",
                            "er:0.1:-1", "er:0.1:2:3", "matrix:", "torus:2:1"})
        EXPECT_THROW(parse_topology(bad), std::invalid_argument) << bad;
}

TEST(PatternScale, erdos_renyi_sparse) { expect_combines(erdos_renyi(paper_processes, 0.05, 1)); }

TEST(PatternScale, moore_2d_radius_1) { expect_combines(moore(paper_processes, 2, 1)); }

TEST(PatternScale, moore_3d_radius_1) { expect_combines(moore(paper_large_processes, 3, 1)); }

// Paper 002 §VI: Moore neighborhoods at 4K processes, agnostic; random graphs at 1K
// processes, topology-aware with nodes of 32.
TEST(PatternScale, groups_of_3_moore_2d_radius_2) {
    expect_combines(moore(paper_processes, 2, 2), {.grouping = Grouping::hypergraph, .k = 3});
}

TEST(PatternScale, groups_of_4_topology_aware_erdos_renyi) {
    auto nodes = std::make_shared<std::vector<int>>(1024);
    for (int r = 0; r < 1024; ++r) (*nodes)[static_cast<std::size_t>(r)] = r / 32;
    expect_combines(erdos_renyi(1024, 0.2, 1), {.grouping = Grouping::hypergraph, .k = 4, .domains = nodes});
}
