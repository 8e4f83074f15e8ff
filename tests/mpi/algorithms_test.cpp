// Every algorithm of the table, planned over MPI and run end to end on probe blocks
// (src/setup/delivery_probe.h), delivers every block to its in-edge; and the probe catches a plan that
// does not. Runs on the library's internals with the MPI's own collectives: no interception.
#include "pattern/message_cost.h"
#include "schedule/algorithm_table.h"
#include "schedule/combining_plan.h"
#include "schedule/global_plan.h"
#include "src/setup/delivery_probe.h"
#include "src/setup/mpi_transport.h"
#include "topologies.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>

namespace {

using namespace nbrcomb::detail;
using nbrcomb::test::Digraph;

LocalGraph local_graph(const Digraph& graph, int rank) {
    const auto r = static_cast<std::size_t>(rank);
    return {rank, graph.in[r], graph.out[r]};
}

// Nodes of two consecutive ranks, the process grids the processes choose for graph, and whether
// it is complete.
PlanSettings settings_for(const LocalGraph& graph, int size) {
    auto nodes = std::make_shared<std::vector<int>>();
    for (int r = 0; r < size; ++r) nodes->push_back(r / 2);
    const GridSurvey survey(nodes);
    std::vector<int> maximum = survey.of(graph);
    MPI_Allreduce(MPI_IN_PLACE, maximum.data(), static_cast<int>(maximum.size()), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int complete = complete_vertex(graph, size) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &complete, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return {.theta = 1, .k = 3, .node_of = std::move(nodes), .grids = survey.choose(maximum), .complete_graph = complete != 0};
}

std::shared_ptr<const Plan> plan_over_mpi(const Algorithm& algorithm, const LocalGraph& graph, int tag) {
    MpiTransport transport(MPI_COMM_WORLD, tag);
    transport.set_channel_base(first_channel(algorithm));
    PlanTask task = algorithm.plan(transport, graph, settings_for(graph, transport.size()));
    task.start();
    return task.take();
}

// Whether any process found a problem.
bool problems_anywhere(const std::vector<std::string>& problems) {
    int found = problems.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return found != 0;
}

std::vector<Digraph> graphs(int size) {
    return {nbrcomb::test::random_digraph(size, 7), nbrcomb::test::complete_digraph(size),
            nbrcomb::test::named_digraph("complete", size),
            nbrcomb::test::periodic_stencil(size, 2, nbrcomb::test::Stencil::moore, 1),
            nbrcomb::test::periodic_stencil(size, 3, nbrcomb::test::Stencil::moore, 1)};
}

constexpr int phase1_tag = 1000, probe_tags[2] = {2000, 2010};

TEST(Algorithms, every_plan_delivers_every_block) {
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (const Digraph& digraph : graphs(size)) {
        const LocalGraph graph = local_graph(digraph, rank);
        for (const Algorithm& algorithm : algorithms()) {
            const std::shared_ptr<const Plan> plan = plan_over_mpi(algorithm, graph, phase1_tag);
            const std::vector<std::string> problems = probe_deliveries(*plan, graph, MPI_COMM_WORLD, probe_tags);
            EXPECT_FALSE(problems_anywhere(problems)) << algorithm.name << (problems.empty() ? "" : ": " + problems[0]);
        }
    }
}

// Auto mode folds each plan's first rounds() rounds of costs (src/setup/adopt_topology.cpp): the
// count is alike on every process, and no cost lies beyond it.
TEST(Algorithms, every_plan_costs_only_its_rounds) {
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int> node_of;
    for (int r = 0; r < size; ++r) node_of.push_back(r / 2);
    for (const Digraph& digraph : graphs(size)) {
        const LocalGraph graph = local_graph(digraph, rank);
        for (const Algorithm& algorithm : algorithms()) {
            const std::shared_ptr<const Plan> plan = plan_over_mpi(algorithm, graph, phase1_tag);
            int rounds[2] = {plan->rounds(), -plan->rounds()};
            MPI_Allreduce(MPI_IN_PLACE, rounds, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            EXPECT_EQ(rounds[0], -rounds[1]) << algorithm.name << ": processes count its rounds differently";
            for (const bool same_send_block : {true, false}) {
                const RoundCosts costs = plan->round_costs(graph, node_of, same_send_block);
                for (int r = plan->rounds(); r < RoundCosts::rounds; ++r)
                    EXPECT_EQ(costs.overhead[static_cast<std::size_t>(r)], 0) << algorithm.name << ": a cost in round " << r;
            }
        }
    }
}

// A plan that hands every process's first two in-edges each other's blocks.
class CrossedPlan final : public Plan {
public:
    explicit CrossedPlan(std::shared_ptr<const Plan> inner) : inner_(std::move(inner)) {}
    Schedule build_schedule(const LocalGraph& graph, const CallBlocks& call) const override {
        std::vector<Block> recv(call.recv.begin(), call.recv.end());
        if (recv.size() >= 2) std::swap(recv[0], recv[1]);
        return inner_->schedule(graph, {call.send, recv, call.same_send_block, call.cutoff});
    }
    RoundCosts round_costs(const LocalGraph& graph, const std::vector<int>& node_of,
                           bool same_send_block) const override {
        return inner_->round_costs(graph, node_of, same_send_block);
    }
    int rounds() const override { return inner_->rounds(); }
    std::size_t messages_per_call(const LocalGraph& graph) const override { return inner_->messages_per_call(graph); }
    bool combines() const override { return inner_->combines(); }

private:
    std::shared_ptr<const Plan> inner_;
};

TEST(Algorithms, the_probe_catches_crossed_deliveries) {
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const LocalGraph graph = local_graph(nbrcomb::test::complete_digraph(size), rank);
    const CrossedPlan crossed(direct_plan(graph));
    // With two ranks or fewer no process has two in-edges to cross.
    EXPECT_EQ(problems_anywhere(probe_deliveries(crossed, graph, MPI_COMM_WORLD, probe_tags)), size > 2);
}

}  // namespace
