// Groups of k friends (paper 002), topology-agnostic and topology-aware with emulated nodes:
// all five collectives give native results byte for byte, and the groups really form and save
// messages where the topology allows them.
#include "all_ranks.h"
#include "collective_shapes.h"
#include "differential.h"
#include "topologies.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace nbrcomb::test;

namespace {

struct GroupCase {
    std::string name;
    std::string topology;  // as nbrsim names it
    Hints hints;
    int min_ranks = 1;  // below this many ranks the topology leaves no group a saving
};

void PrintTo(const GroupCase& group_case, std::ostream* out) { *out << group_case.name; }

Hints groups(int k, const char* theta) {
    return {{"nbrcomb_mode", "groups"}, {"nbrcomb_k", std::to_string(k)}, {"nbrcomb_theta", theta}};
}

Hints aware(Hints hints, int node_size) {
    hints.push_back({"nbrcomb_topo_aware", "1"});
    hints.push_back({"nbrcomb_node_size", std::to_string(node_size)});
    return hints;
}

const Hints pairs_default_theta{{"nbrcomb_mode", "pairs"}};

// A group of k saves messages only with more than k common out-neighbors, which k processes
// of a complete graph on P ranks have P - k of: k = 6 needs 13 ranks.
std::vector<GroupCase> cases() {
    std::vector<GroupCase> all;
    for (int k = 2; k <= 6; ++k) {
        const std::string K = std::to_string(k);
        all.push_back({"complete_k" + K, "er:1.0", groups(k, "1"), 2 * k + 1});
        all.push_back({"complete_k" + K + "_default_theta", "er:1.0", groups(k, "4"), std::max(2 * k + 1, k + 4)});
        all.push_back({"dense_random_k" + K, "er:0.6:3", groups(k, "1"), 0});
    }
    // NBRCOMB_CHECK proves the pattern over MPI; were it to fail, the direct schedule would save nothing.
    Hints checked = groups(4, "1");
    checked.push_back({"nbrcomb_check", "1"});
    all.push_back({"complete_k4_checked", "er:1.0", checked, 9});
    all.push_back({"moore_2d_r2_k3", "moore:2:2", groups(3, "1"), 0});
    all.push_back({"moore_3d_r1_k4", "moore:3:1", groups(4, "1"), 0});
    for (const int node : {2, 4, 8}) {
        const std::string N = std::to_string(node);
        all.push_back({"aware_nodes" + N + "_pairs", "er:0.8:5", aware(pairs_hints, node), 0});
        all.push_back({"aware_nodes" + N + "_pairs_default_theta", "er:1.0", aware(pairs_default_theta, node), 0});
        for (const int k : {2, 3, 4}) {
            if (k > node) continue;
            const std::string K = std::to_string(k);
            all.push_back({"aware_nodes" + N + "_k" + K, "er:1.0", aware(groups(k, "1"), node), 0});
            all.push_back({"aware_nodes" + N + "_k" + K + "_random", "er:0.7:9", aware(groups(k, "1"), node), 0});
            // P - k common neighbors must reach both theta = 4 and k + 1.
            all.push_back({"aware_nodes" + N + "_k" + K + "_default_theta", "er:1.0", aware(groups(k, "4"), node), k + 5});
        }
    }
    return all;
}

class Groups : public testing::TestWithParam<GroupCase> {};

TEST_P(Groups, all_collectives_match_native) {
    const GroupCase& group_case = GetParam();
    const int size = size_of(MPI_COMM_WORLD);
    const auto spec = nbrcomb::topology::parse_topology(group_case.topology);
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, digraph_of(nbrcomb::topology::generate(spec, size)),
                                        {.hints = group_case.hints});
    expect_every_shape_matches_native(comm);

    // Where the topology has groups worth forming they must form and save messages.
    if (group_case.min_ranks == 0 || size < group_case.min_ranks) return;
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    unsigned long long sent[2] = {stats.messages_sent, stats.native_messages};
    MPI_Allreduce(MPI_IN_PLACE, sent, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_LT(sent[0], sent[1]) << "no messages saved";
}

INSTANTIATE_TEST_SUITE_P(Cases, Groups, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<GroupCase>& info) { return info.param.name; });

}  // namespace
