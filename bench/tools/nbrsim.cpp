// nbrsim: Phase 1 of any algorithm of the library's table (the pair pattern of paper 000, the
// k-group pattern of paper 002, node aggregation, ...) on simulated processes, for the
// topologies of the papers' experiments or any other, and what it saves per collective call. CSV on stdout, one row per topology, process count, theta and k;
// progress on stderr.
#include "common/command_line.h"
#include "pattern/message_cost.h"
#include "pattern/simulated_phase1.h"
#include "pattern/simulator.h"
#include "schedule/algorithm_table.h"
#include "schedule/global_plan.h"
#include "topology/spec.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

using namespace nbrcomb::detail;
using nbrcomb::bench::seconds_since;
using nbrcomb::topology::Graphs;
using nbrcomb::topology::TopologySpec;

namespace {

constexpr const char* usage =
    "usage: nbrsim [--topology SPEC]... [--processes N]... [--theta T]... [--mode ALGORITHM]\n"
    "              [--k K]... [--node-size N] [--max-hyperedges N] [--check]\n"
    NBRCOMB_TOPOLOGY_SPEC_USAGE
    "  defaults: the paper's set, moore:2:1 moore:2:2 moore:3:1 er:0.05 er:0.2 er:0.4,\n"
    "            4096 processes, theta 4, mode pairs, k 2, agnostic, 256 hyperedges\n"
    "  --mode ALGORITHM  one of the library's: direct, pairs, groups (of k friends, paper 002),\n"
    "                    aggregate (over the nodes of --node-size), dimwise (dimension-wise\n"
    "                    over a stencil's grid), forward (store-and-forward over a virtual grid),\n"
    "                    global (a complete graph's calls as the MPI's collective over all processes,\n"
    "                    modelled as a dissemination); only groups reads --k\n"
    "  --node-size N     nodes of N consecutive ranks: pairs and groups find friends only within\n"
    "                    them (topology-aware), aggregate aggregates over them, the grids' shapes\n"
    "                    weigh messages within them as cheaper\n"
    "  --check           also check every pattern's invariants; exit 1 on any problem\n"
    "Columns: native and combined messages one process sends per collective call (average and\n"
    "maximum over processes), ratio_avg = sum of combined / sum of native, Alg. 1 iterations and\n"
    "matching rounds (maximum), candidate groups (hyperedges) per process at the start and those\n"
    "the cap dropped (averages), messages Phase 1 sent per process, Phase 1's wall time in the\n"
    "simulator, the rounds of a call, and the estimate of an allgather of 4 B and 1 KiB blocks and\n"
    "an alltoall of 1 KiB (pattern/message_cost.h; without --node-size every process is a node),\n"
    "each with its ratio to direct's.\n";

struct Options {
    std::vector<TopologySpec> topologies;
    std::vector<int> processes;
    std::vector<int> thetas;
    std::vector<int> ks;
    const Algorithm* algorithm = find_algorithm(NBRCOMB_MODE_PAIRS);
    int node_size = 0;
    int max_hyperedges = PlanSettings{}.max_hyperedges;
    bool check = false;
};

Options parse(int argc, char** argv) {
    const nbrcomb::bench::CommandLine command_line("nbrsim", usage);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") command_line.help();
        if (flag == "--check") {
            options.check = true;
            continue;
        }
        if (i + 1 == argc) command_line.fail(flag + " needs a value");
        const char* value = argv[++i];
        if (flag == "--topology") {
            options.topologies.push_back(command_line.topology(value));
        } else if (flag == "--mode") {
            options.algorithm = find_algorithm(value);
            if (options.algorithm == nullptr) command_line.fail(std::string("no algorithm is named '") + value + "'");
        } else if (flag == "--processes") {
            options.processes.push_back(command_line.positive(flag, value));
        } else if (flag == "--theta") {
            options.thetas.push_back(command_line.positive(flag, value));
        } else if (flag == "--k") {
            const int k = command_line.positive(flag, value);
            if (k < 2 || k > 16) command_line.fail("--k is from 2 to 16");
            options.ks.push_back(k);
        } else if (flag == "--node-size") {
            options.node_size = command_line.positive(flag, value);
        } else if (flag == "--max-hyperedges") {
            options.max_hyperedges = command_line.positive(flag, value);
        } else {
            command_line.fail("unknown argument " + flag);
        }
    }
    if (options.topologies.empty())
        for (const char* paper : {"moore:2:1", "moore:2:2", "moore:3:1", "er:0.05", "er:0.2", "er:0.4"})
            options.topologies.push_back(nbrcomb::topology::parse_topology(paper));
    if (options.processes.empty()) options.processes = {4096};
    if (options.thetas.empty()) options.thetas = {4};
    if (options.ks.empty() || options.algorithm->mode != NBRCOMB_MODE_GROUPS) options.ks = {2};
    return options;
}

struct Summary {
    double native_avg = 0, native_max = 0, msgs_avg = 0, msgs_max = 0, ratio_avg = 0, phase1_msgs_avg = 0;
    double hyperedges_avg = 0, dropped_avg = 0;
    int iterations_max = 0, matching_rounds_max = 0;
    int rounds = 0;
    double estimated_us[3] = {0, 0, 0}, estimated_ratio[3] = {1, 1, 1};
};

using Plans = std::vector<std::shared_ptr<const Plan>>;

// Every process's round costs folded as auto mode folds them.
RoundCosts busiest(const Graphs& graphs, const Plans& plans, const std::vector<int>& node_of, bool same_send_block) {
    RoundCosts most;
    for (std::size_t r = 0; r < graphs.size(); ++r)
        add_process(most, plans[r]->round_costs(graphs[r], node_of, same_send_block));
    per_node(most, node_count(node_of));
    return most;
}

Summary summarize(const Graphs& graphs, const Plans& plans, const Plans& direct, const std::vector<int>& node_of) {
    Summary s;
    s.rounds = static_cast<int>(
        std::ranges::count_if(busiest(graphs, plans, node_of, true).overhead, [](double o) { return o > 0; }));
    for (const int b : {0, 1, 2}) {  // allgather of 4 B, of 1 KiB, alltoall of 1 KiB
        const std::size_t bytes = b == 0 ? 4 : 1024;
        const bool same_send_block = b < 2;
        s.estimated_us[b] = estimated_time(busiest(graphs, plans, node_of, same_send_block), bytes);
        const double direct_us = estimated_time(busiest(graphs, direct, node_of, same_send_block), bytes);
        s.estimated_ratio[b] = direct_us > 0 ? s.estimated_us[b] / direct_us : 1.0;
    }
    double native_sum = 0, msgs_sum = 0, phase1_sum = 0, hyperedges_sum = 0, dropped_sum = 0;
    for (std::size_t r = 0; r < graphs.size(); ++r) {
        const auto native = static_cast<double>(direct[r]->messages_per_call(graphs[r]));
        const auto msgs = static_cast<double>(plans[r]->messages_per_call(graphs[r]));
        const Pattern::Cost cost = plans[r]->cost();
        native_sum += native;
        msgs_sum += msgs;
        phase1_sum += static_cast<double>(cost.messages);
        hyperedges_sum += static_cast<double>(cost.hyperedges);
        dropped_sum += static_cast<double>(cost.hyperedges_dropped);
        s.native_max = std::max(s.native_max, native);
        s.msgs_max = std::max(s.msgs_max, msgs);
        s.iterations_max = std::max(s.iterations_max, cost.iterations);
        s.matching_rounds_max = std::max(s.matching_rounds_max, cost.matching_rounds);
    }
    const auto n = static_cast<double>(graphs.size());
    s.native_avg = native_sum / n;
    s.msgs_avg = msgs_sum / n;
    s.phase1_msgs_avg = phase1_sum / n;
    s.hyperedges_avg = hyperedges_sum / n;
    s.dropped_avg = dropped_sum / n;
    s.ratio_avg = native_sum > 0 ? msgs_sum / native_sum : 1.0;
    return s;
}

// Phase 1 of algorithm on every process of graphs.
Plans simulate_plans(const Algorithm& algorithm, const Graphs& graphs, const PlanSettings& settings) {
    return simulate<std::shared_ptr<const Plan>>(static_cast<int>(graphs.size()), [&](Transport& transport) {
        transport.set_channel_base(first_channel(algorithm));
        return algorithm.plan(transport, graphs[static_cast<std::size_t>(transport.rank())], settings);
    });
}

// Every problem the plans' own check finds on any process; empty when they are sound.
std::vector<std::string> simulate_check(const Algorithm& algorithm, const Graphs& graphs, const Plans& plans) {
    const auto per_rank = simulate<std::vector<std::string>>(static_cast<int>(graphs.size()), [&](Transport& transport) {
        transport.set_channel_base(first_channel(algorithm));
        const auto rank = static_cast<std::size_t>(transport.rank());
        return plans[rank]->check(transport, graphs[rank]);
    });
    std::vector<std::string> all;
    for (const auto& problems : per_rank) all.insert(all.end(), problems.begin(), problems.end());
    return all;
}

// Returns whether every check passed (always, without --check).
bool run(const TopologySpec& spec, int processes, const Graphs& graphs, const Options& options,
         const PlanSettings& settings) {
    const char* mode = options.algorithm->name;
    const std::string name = spec.text + " P=" + std::to_string(processes) + " " + mode + " k=" +
                             std::to_string(settings.k) + " theta=" + std::to_string(settings.theta);
    const auto start = std::chrono::steady_clock::now();
    const Plans plans = simulate_plans(*options.algorithm, graphs, settings);
    const double seconds = seconds_since(start);
    const Summary s = summarize(graphs, plans, simulate_plans(*find_algorithm(NBRCOMB_MODE_DIRECT), graphs, settings),
                                *settings.node_of);
    std::printf("%s,%d,%s,%d,%d,%d,%.3f,%.0f,%.3f,%.0f,%.4f,%d,%d,%.1f,%.1f,%.1f,%.3f,%d,%.2f,%.3f,%.2f,%.3f,%.2f,%.3f\n",
                spec.text.c_str(), processes, mode, settings.k, options.node_size, settings.theta, s.native_avg,
                s.native_max, s.msgs_avg, s.msgs_max, s.ratio_avg, s.iterations_max, s.matching_rounds_max,
                s.hyperedges_avg, s.dropped_avg, s.phase1_msgs_avg, seconds, s.rounds, s.estimated_us[0],
                s.estimated_ratio[0], s.estimated_us[1], s.estimated_ratio[1], s.estimated_us[2], s.estimated_ratio[2]);
    std::fflush(stdout);
    std::fprintf(stderr, "nbrsim: %s: Phase 1 %.2f s, %.1f of %.1f messages per call (ratio %.3f)\n", name.c_str(),
                 seconds, s.msgs_avg, s.native_avg, s.ratio_avg);
    if (!options.check) return true;

    const auto check_start = std::chrono::steady_clock::now();
    const std::vector<std::string> problems = simulate_check(*options.algorithm, graphs, plans);
    if (problems.empty()) {
        std::fprintf(stderr, "nbrsim: %s: check passed in %.2f s\n", name.c_str(), seconds_since(check_start));
        return true;
    }
    std::fprintf(stderr, "nbrsim: %s: CHECK FAILED, %zu problems:\n", name.c_str(), problems.size());
    for (std::size_t i = 0; i < problems.size() && i < 20; ++i) std::fprintf(stderr, "  %s\n", problems[i].c_str());
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    std::printf(
        "topology,processes,mode,k,node_size,theta,native_msgs_avg,native_msgs_max,msgs_avg,msgs_max,ratio_avg,"
        "iterations_max,matching_rounds_max,hyperedges_avg,hyperedges_dropped_avg,phase1_msgs_avg,seconds,rounds,"
        "estimated_us_4B,estimated_ratio_4B,estimated_us_1KiB,estimated_ratio_1KiB,estimated_us_alltoall_1KiB,"
        "estimated_ratio_alltoall_1KiB\n");
    std::fflush(stdout);
    try {
        for (const TopologySpec& spec : options.topologies)
            for (const int processes : options.processes) {
                const auto start = std::chrono::steady_clock::now();
                const Graphs graphs = nbrcomb::topology::generate(spec, processes);
                std::fprintf(stderr, "nbrsim: %s P=%d: topology in %.2f s\n", spec.text.c_str(), processes,
                             seconds_since(start));
                // Without --node-size every process is a node of its own; as in the library, a
                // process without edges is on none (it takes part in no call).
                auto nodes = std::make_shared<std::vector<int>>(static_cast<std::size_t>(processes));
                for (int r = 0; r < processes; ++r) {
                    const LocalGraph& graph = graphs[static_cast<std::size_t>(r)];
                    const bool idle = graph.sources.empty() && graph.destinations.empty();
                    (*nodes)[static_cast<std::size_t>(r)] = idle ? -1 : options.node_size > 0 ? r / options.node_size : r;
                }
                const GridChoices grids =
                    options.algorithm->uses_grids ? simulate_grid_choice(graphs, nodes) : GridChoices{};
                const bool complete = std::ranges::all_of(
                    graphs, [processes](const LocalGraph& graph) { return complete_vertex(graph, processes); });
                for (const int theta : options.thetas)
                    for (const int k : options.ks)
                        if (!run(spec, processes, graphs, options,
                                 {.theta = theta,
                                  .k = k,
                                  .max_hyperedges = options.max_hyperedges,
                                  .domains = options.node_size > 0 ? nodes : nullptr,
                                  .node_of = nodes,
                                  .grids = grids,
                                  .complete_graph = complete}))
                            return 1;
            }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "nbrsim: %s\n", error.what());
        return 1;
    }
    return 0;
}
