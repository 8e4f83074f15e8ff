// nbrmap: the rank mapping that reorder=1 runs on rank 0 (mapping/), timed at scale without MPI.
// For every topology, process count and node size: the undirected graph rank 0 builds from the
// gathered edges, the new ranks, the edge weight between nodes of that many consecutive ranks
// with the old and the new ranks, and the time each step took. CSV on stdout, progress on stderr.
#include "common/command_line.h"
#include "mapping/process_graph.h"
#include "mapping/rank_mapping.h"
#include "topology/spec.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace nbrcomb::detail;
using nbrcomb::bench::seconds_since;
using nbrcomb::topology::Graphs;
using nbrcomb::topology::TopologySpec;

namespace {

constexpr const char* usage =
    "usage: nbrmap [--topology SPEC]... [--processes N]... [--node-size N]...\n"
    NBRCOMB_TOPOLOGY_SPEC_USAGE
    "  defaults: moore:3:1 shuffled:moore:3:1 vonneumann:3:1, 4096 and 32768 processes, nodes of 32\n"
    "Columns: edges of the directed graph (what rank 0 gathers), graph_seconds to make it the\n"
    "undirected weighted graph METIS takes, map_seconds to partition and place it, the edge weight\n"
    "between nodes with the old and the new ranks (reordered 0: the old ranks stay, no mapping\n"
    "was better), and the process's peak resident memory so far, the topologies' generation\n"
    "included (one topology per run, sizes ascending, makes it each row's own).\n";

struct Options {
    std::vector<TopologySpec> topologies;
    std::vector<int> processes;
    std::vector<int> node_sizes;
};

Options parse(int argc, char** argv) {
    const nbrcomb::bench::CommandLine command_line("nbrmap", usage);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") command_line.help();
        if (i + 1 == argc) command_line.fail(flag + " needs a value");
        const char* value = argv[++i];
        if (flag == "--topology")
            options.topologies.push_back(command_line.topology(value));
        else if (flag == "--processes")
            options.processes.push_back(command_line.positive(flag, value));
        else if (flag == "--node-size")
            options.node_sizes.push_back(command_line.positive(flag, value));
        else
            command_line.fail("unknown argument " + flag);
    }
    if (options.topologies.empty())
        for (const char* text : {"moore:3:1", "shuffled:moore:3:1", "vonneumann:3:1"})
            options.topologies.push_back(nbrcomb::topology::parse_topology(text));
    if (options.processes.empty()) options.processes = {4096, 32768};
    if (options.node_sizes.empty()) options.node_sizes = {32};
    return options;
}

double peak_megabytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

// What rank 0 holds after the gathering: every vertex's out-edges in rank order, unweighted.
struct GatheredEdges {
    std::vector<int> offsets{0};
    std::vector<int> destinations;
};

GatheredEdges gathered(const Graphs& graphs) {
    GatheredEdges edges;
    for (const auto& graph : graphs) {
        edges.destinations.insert(edges.destinations.end(), graph.destinations.begin(), graph.destinations.end());
        edges.offsets.push_back(static_cast<int>(edges.destinations.size()));
    }
    return edges;
}

void run(const TopologySpec& spec, int processes, int node_size, const GatheredEdges& edges) {
    auto start = std::chrono::steady_clock::now();
    const ProcessGraph graph = undirected_graph(processes, edges.offsets, edges.destinations, {});
    const double graph_seconds = seconds_since(start);

    std::vector<ProcessPlace> places(static_cast<std::size_t>(processes));
    for (int r = 0; r < processes; ++r) places[static_cast<std::size_t>(r)].node = r / node_size;
    start = std::chrono::steady_clock::now();
    const RankMapping mapping = map_ranks(graph, places);
    const double map_seconds = seconds_since(start);

    bool reordered = false;
    for (int r = 0; r < processes && !reordered; ++r) reordered = mapping.new_rank[static_cast<std::size_t>(r)] != r;
    std::printf("%s,%d,%d,%zu,%.3f,%.3f,%lld,%lld,%d,%.0f\n", spec.text.c_str(), processes, node_size,
                edges.destinations.size(), graph_seconds, map_seconds, mapping.cut_before, mapping.cut_after,
                reordered ? 1 : 0, peak_megabytes());
    std::fflush(stdout);
    std::fprintf(stderr, "nbrmap: %s P=%d nodes of %d: %lld -> %lld between nodes, %.2f s + %.2f s\n",
                 spec.text.c_str(), processes, node_size, mapping.cut_before, mapping.cut_after, graph_seconds,
                 map_seconds);
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    std::printf("topology,processes,node_size,edges,graph_seconds,map_seconds,cut_before,cut_after,reordered,"
                "peak_rss_mb\n");
    try {
        for (const TopologySpec& spec : options.topologies)
            for (const int processes : options.processes) {
                const GatheredEdges edges = gathered(nbrcomb::topology::generate(spec, processes));
                for (const int node_size : options.node_sizes) run(spec, processes, node_size, edges);
            }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "nbrmap: %s\n", error.what());
        return 1;
    }
    return 0;
}
