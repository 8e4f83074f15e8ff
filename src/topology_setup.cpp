#include "src/topology_setup.h"

#include "pattern/pattern_builder.h"
#include "pattern/pattern_check.h"
#include "src/environment.h"
#include "mapping/locality.h"
#include "src/log.h"
#include "src/mpi_transport.h"
#include "src/topo_state.h"

#include <algorithm>
#include <atomic>
#include <chrono>

namespace nbrcomb::detail {

namespace {

Config read_hints(MPI_Comm comm, MPI_Info info) {
    const Config& base = environment_config();
    if (info == MPI_INFO_NULL) return base;
    std::vector<std::string> problems;
    const Config config = read_config(
        base,
        [info](std::string_view key) -> std::optional<std::string> {
            const std::string name = "nbrcomb_" + std::string(key);
            char value[MPI_MAX_INFO_VAL + 1];
            int found = 0;
            if (PMPI_Info_get(info, name.c_str(), MPI_MAX_INFO_VAL, value, &found) != MPI_SUCCESS || !found)
                return std::nullopt;
            return std::string(value);
        },
        "nbrcomb_", problems);
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (rank == 0)
        for (const std::string& problem : problems) log(LogLevel::warning, "%s", problem.c_str());
    return config;
}

std::shared_ptr<Topology> read_topology(MPI_Comm comm) {
    auto topology = std::make_shared<Topology>();
    LocalGraph& graph = topology->graph;
    PMPI_Comm_rank(comm, &graph.rank);
    PMPI_Comm_size(comm, &topology->size);
    int indegree = 0, outdegree = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
    topology->weighted = weighted != 0;
    // Arrays of at least one element: some MPIs reject NULL for a zero degree.
    graph.sources.resize(static_cast<std::size_t>(std::max(indegree, 1)));
    topology->source_weights.resize(graph.sources.size());
    graph.destinations.resize(static_cast<std::size_t>(std::max(outdegree, 1)));
    topology->destination_weights.resize(graph.destinations.size());
    PMPI_Dist_graph_neighbors(comm, indegree, graph.sources.data(), topology->source_weights.data(), outdegree,
                              graph.destinations.data(), topology->destination_weights.data());
    graph.sources.resize(static_cast<std::size_t>(indegree));
    graph.destinations.resize(static_cast<std::size_t>(outdegree));
    topology->source_weights.resize(weighted ? graph.sources.size() : 0);
    topology->destination_weights.resize(weighted ? graph.destinations.size() : 0);
    return topology;
}

// Runs a pattern coroutine over MPI, where it never suspends.
template <class T>
T run_over_mpi(Task<T> task) {
    task.start();
    return task.take();
}

// NBRCOMB_CHECK: proves the pattern's invariants with the neighbors; true when they hold on
// every process. Problems are logged where they are found.
bool pattern_holds(const TopoState& state, const Pattern& pattern) {
    MpiTransport transport(state.private_comm, state.pattern_tag());
    const auto problems = run_over_mpi(check_pattern(transport, state.topology->graph, pattern));
    for (const std::string& problem : problems) log(LogLevel::warning, "pattern check: %s", problem.c_str());
    int broken = problems.empty() ? 0 : 1;
    PMPI_Allreduce(MPI_IN_PLACE, &broken, 1, MPI_INT, MPI_MAX, state.private_comm);
    return broken == 0;
}

// Phase 1 (paper 000 or 002, Alg. 1) for the combining modes; the direct pattern otherwise.
void build_pattern(TopoState& state, Topology& topology) {
    if (state.stats.mode == NBRCOMB_MODE_DIRECT) {
        topology.pattern = direct_pattern(topology.graph);
        return;
    }
    const Config& config = state.config;
    const auto start = std::chrono::steady_clock::now();
    const PatternSettings settings{
        .theta = config.theta,
        .grouping = state.stats.mode == NBRCOMB_MODE_GROUPS ? Grouping::hypergraph : Grouping::pairs,
        .k = config.k,
        .max_hyperedges = config.max_hyperedges,
        .domains = locality_domains(state.private_comm, config),
    };
    MpiTransport transport(state.private_comm, state.pattern_tag());
    topology.pattern = run_over_mpi(build_pattern(transport, topology.graph, settings));
    state.stats.pattern_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.stats.pattern_messages = transport.stats().messages;
    state.stats.pattern_exchanges = transport.stats().exchanges;
    state.stats.pattern_hyperedges = topology.pattern.cost.hyperedges;
    state.stats.pattern_hyperedges_dropped = topology.pattern.cost.hyperedges_dropped;
    if (state.config.check && !pattern_holds(state, topology.pattern)) {
        log_rank0(LogLevel::warning, "pattern check failed; this communicator uses the direct schedule");
        topology.pattern = direct_pattern(topology.graph);
        state.stats.mode = NBRCOMB_MODE_DIRECT;
    }
}

// Settings that shape schedules must be the same on every process, or schedules would not
// meet; environment and hints could differ between processes.
bool settings_agree(const Config& config, MPI_Comm comm) {
    std::vector<int> values = schedule_shaping_values(config);
    const std::size_t n = values.size();
    for (std::size_t i = 0; i < n; ++i) values.push_back(-values[i]);
    PMPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT, MPI_MAX, comm);
    for (std::size_t i = 0; i < n; ++i)
        if (values[i] != -values[n + i]) return false;
    return true;
}

// Modes a later version implements combine in pairs until then; said once per process.
nbrcomb_mode implemented_mode(nbrcomb_mode requested) {
    if (requested != NBRCOMB_MODE_AUTO) return requested;
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
        log_rank0(LogLevel::warning, "mode %s is not implemented in this version; using pairs", mode_name(requested));
    return NBRCOMB_MODE_PAIRS;
}

void note_reorder_request(int reorder, const Config& config) {
    static std::atomic<bool> said{false};
    if (reorder && config.reorder == Reorder::on && !said.exchange(true))
        log_rank0(LogLevel::info, "reorder=1: rank reordering is not implemented in this version; ranks keep their order");
}

}  // namespace

int adopt_topology(MPI_Comm topo_comm, MPI_Info info, int reorder) {
    if (topo_comm == MPI_COMM_NULL || environment_config().mode == NBRCOMB_MODE_OFF) return MPI_SUCCESS;
    auto state = std::make_shared<TopoState>();
    state->config = read_hints(topo_comm, info);
    if (const int err = ensure_private_comm(topo_comm, *state); err != MPI_SUCCESS) return err;

    if (!settings_agree(state->config, state->private_comm)) {
        int rank = 0;
        PMPI_Comm_rank(topo_comm, &rank);
        if (rank == 0) log(LogLevel::warning, "processes disagree on nbrcomb settings for a communicator; it stays native");
        return MPI_SUCCESS;
    }
    if (state->config.mode == NBRCOMB_MODE_OFF) return MPI_SUCCESS;

    note_reorder_request(reorder, state->config);
    int* tag_ub = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(topo_comm, MPI_TAG_UB, &tag_ub, &found);
    if (found) state->tag_span = static_cast<long long>(*tag_ub) + 1;
    state->stats.requested_mode = state->config.mode;
    state->stats.mode = implemented_mode(state->config.mode);
    const std::shared_ptr<Topology> topology = read_topology(topo_comm);
    state->topology = topology;
    build_pattern(*state, *topology);
    return attach_state(topo_comm, std::move(state));
}

}  // namespace nbrcomb::detail
