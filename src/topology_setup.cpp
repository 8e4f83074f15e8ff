#include "src/topology_setup.h"

#include "mapping/locality.h"
#include "pattern/message_cost.h"
#include "pattern/node_aggregation.h"
#include "pattern/pattern_builder.h"
#include "pattern/pattern_check.h"
#include "schedule/mpi_features.h"
#include "src/adjacency.h"
#include "src/log.h"
#include "src/mapping_log.h"
#include "src/mpi_transport.h"
#include "src/progressing_wait.h"
#include "src/topo_state.h"
#include "src/topology_neighbors.h"

#include <algorithm>
#include <array>
#include <functional>

namespace nbrcomb::detail {

namespace {

bool has_repeats(std::vector<int> peers) {
    std::ranges::sort(peers);
    return std::ranges::adjacent_find(peers) != peers.end();
}

// Whether any process of comm has an edge twice. Collective.
bool edges_repeat_anywhere(MPI_Comm comm, const LocalGraph& graph) {
    int repeats = has_repeats(graph.sources) || has_repeats(graph.destinations) ? 1 : 0;
    PMPI_Allreduce(MPI_IN_PLACE, &repeats, 1, MPI_INT, MPI_LOR, comm);
    return repeats != 0;
}

std::shared_ptr<Topology> read_topology(MPI_Comm comm) {
    auto topology = std::make_shared<Topology>();
    PMPI_Comm_rank(comm, &topology->graph.rank);
    PMPI_Comm_size(comm, &topology->size);
    Adjacency vertex = read_adjacency(comm);
    topology->graph.sources = std::move(vertex.sources);
    topology->graph.destinations = std::move(vertex.destinations);
    topology->weighted = vertex.weighted;
    topology->source_weights = std::move(vertex.source_weights);
    topology->destination_weights = std::move(vertex.destination_weights);
    // Only Cartesian topologies have blocks without edges. All their processes know the
    // dimensions, so they decide alike without a word; their repeated edges are neighbors twice.
    topology->blocks = std::move(vertex.blocks);
    if (topology->blocks) {
        const bool twice = has_neighbors_twice(comm);
        topology->native_unreliable = twice && !mpi_right_on_neighbors_twice;
        topology->native_nonblocking_unreliable = twice && !mpi_nonblocking_right_on_neighbors_twice;
    } else if constexpr (!mpi_right_on_repeated_edges) {
        topology->native_unreliable = edges_repeat_anywhere(comm, topology->graph);
    }
    return topology;
}

// reorder=1: which out-edges join two nodes with the old ranks and with the new ones, and their
// weight: the traffic between nodes that reordering is to lower.
void account_node_crossings(Topology& topology, const Renumbering& renumbering, nbrcomb_stats& stats) {
    const int self = topology.graph.rank;
    const std::vector<int>& destinations = topology.graph.destinations;
    for (std::size_t j = 0; j < destinations.size(); ++j) {
        const int peer = destinations[j];
        const bool before = renumbering.node_before[self] != renumbering.node_before[peer];
        const bool after = renumbering.node_after[self] != renumbering.node_after[peer];
        topology.internode_before.push_back(before);
        topology.internode_after.push_back(after);
        const auto weight = static_cast<unsigned long long>(topology.weighted ? topology.destination_weights[j] : 1);
        stats.edge_cut_before += before ? weight : 0;
        stats.edge_cut_after += after ? weight : 0;
    }
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
    allreduce_progressing(&broken, 1, MPI_INT, MPI_MAX, state.private_comm);
    return broken == 0;
}

// The node of every rank, real or emulated (the one NBRCOMB_NODE_SIZE and reordering give), for
// aggregation and the statistics between nodes. Collective over the private communicator unless
// nodes are emulated.
std::shared_ptr<const std::vector<int>> nodes_of(const TopoState& state, const Topology& topology) {
    MappingSettings settings = mapping_settings(state.config);
    settings.locality = Locality::node;
    return locality_domains(state.private_comm, settings, topology.emulated_nodes).of_rank;
}

// The elementwise maximum over the communicator's processes of each candidate's round costs.
// Collective.
std::array<RoundCosts, 2> busiest_costs(const std::array<RoundCosts, 2>& mine, MPI_Comm comm) {
    std::vector<double> values;
    for (const RoundCosts& costs : mine) {
        values.insert(values.end(), costs.overhead.begin(), costs.overhead.end());
        values.insert(values.end(), costs.remote.begin(), costs.remote.end());
    }
    allreduce_progressing(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX, comm);
    std::array<RoundCosts, 2> busiest;
    auto value = values.begin();
    for (RoundCosts& costs : busiest) {
        for (double& overhead : costs.overhead) overhead = *value++;
        for (double& remote : costs.remote) remote = *value++;
    }
    return busiest;
}

// Auto mode, on a communicator that spans nodes: aggregation replaces pairs as the combining
// candidate where it promises the shorter call (pattern/message_cost.h); the trial then weighs
// the candidate against native MPI. Collective.
void weigh_aggregation(const TopoState& state, Topology& topology) {
    const std::vector<int>& nodes = *topology.node_of;
    const auto [pairs, aggregation] =
        busiest_costs({round_costs(topology.graph, topology.pattern, nodes),
                       round_costs(topology.graph, *topology.aggregation, nodes)},
                      state.private_comm);
    const double pairs_time = estimated_time(pairs), aggregation_time = estimated_time(aggregation);
    log_rank0(LogLevel::info, "auto: combining candidate %s (estimated %.2f us aggregated, %.2f us in pairs)",
              aggregation_time < pairs_time ? "aggregate" : "pairs", aggregation_time, pairs_time);
    if (aggregation_time >= pairs_time) topology.aggregation.reset();
}

// Whether the communicator's processes run on more than one node.
bool spans_nodes(const std::vector<int>& node_of) {
    return std::ranges::adjacent_find(node_of, std::not_equal_to<>()) != node_of.end();
}

// Phase 1: paper 000's or 002's Alg. 1 for the combining modes, paper 003's aggregation plan for
// aggregate mode, and in auto mode both where the processes span nodes; the direct pattern in
// direct mode. Emulated nodes stay with their processes when reordering gave them new ranks.
void build_pattern(TopoState& state, Topology& topology) {
    topology.node_of = nodes_of(state, topology);
    if (state.stats.mode == NBRCOMB_MODE_DIRECT) {
        topology.pattern = topology.direct_pattern;
        return;
    }
    const Config& config = state.config;
    const double start = PMPI_Wtime();  // simulated time under SMPI, as the application's
    MpiTransport transport(state.private_comm, state.pattern_tag());
    const bool aggregate = state.stats.mode == NBRCOMB_MODE_AGGREGATE;
    if (aggregate) {
        topology.pattern = topology.direct_pattern;
    } else {
        const LocalityDomains domains =
            locality_domains(state.private_comm, mapping_settings(config), topology.emulated_nodes);
        log_locality(config.topo_aware, domains);
        const PatternSettings settings{
            .theta = config.theta,
            .grouping = state.stats.mode == NBRCOMB_MODE_GROUPS ? Grouping::hypergraph : Grouping::pairs,
            .k = config.k,
            .max_hyperedges = config.max_hyperedges,
            .domains = domains.of_rank,
        };
        topology.pattern = run_over_mpi(build_pattern(transport, topology.graph, settings));
    }
    const bool candidate = config.mode == NBRCOMB_MODE_AUTO && spans_nodes(*topology.node_of);
    if (aggregate || candidate)
        topology.aggregation = run_over_mpi(build_aggregation(transport, topology.graph, topology.node_of));
    if (candidate) weigh_aggregation(state, topology);
    if (topology.aggregation) state.stats.mode = NBRCOMB_MODE_AGGREGATE;
    state.stats.pattern_seconds = PMPI_Wtime() - start;
    state.stats.pattern_messages = transport.stats().messages;
    state.stats.pattern_exchanges = transport.stats().exchanges;
    state.stats.pattern_hyperedges = topology.pattern.cost.hyperedges;
    state.stats.pattern_hyperedges_dropped = topology.pattern.cost.hyperedges_dropped;
    if (state.config.check && !aggregate && !pattern_holds(state, topology.pattern)) {
        log_rank0(LogLevel::warning, "pattern check failed; this communicator uses the direct schedule");
        topology.pattern = topology.direct_pattern;
        topology.aggregation.reset();
        state.stats.mode = NBRCOMB_MODE_DIRECT;
    }
}

// Auto mode, once the pattern is built: combining is a candidate where some process combines.
void weigh_combining(TopoState& state) {
    int combines = state.topology->pattern.steps.empty() && !state.topology->aggregation ? 0 : 1;
    allreduce_progressing(&combines, 1, MPI_INT, MPI_MAX, state.private_comm);
    state.combining = combines != 0;
    state.tuner = std::make_unique<AutoTuner>();
}

// Settings that shape schedules must be the same on every process, or schedules would not
// meet; environment and hints could differ between processes.
bool settings_agree(const Config& config, MPI_Comm comm) {
    std::vector<int> values = schedule_shaping_values(config);
    const std::size_t n = values.size();
    for (std::size_t i = 0; i < n; ++i) values.push_back(-values[i]);
    allreduce_progressing(values.data(), static_cast<int>(values.size()), MPI_INT, MPI_MAX, comm);
    for (std::size_t i = 0; i < n; ++i)
        if (values[i] != -values[n + i]) return false;
    return true;
}

// The private communicator and the settings' agreement; false (said on its rank 0) when the
// processes disagree.
bool agree_on_settings(MPI_Comm topo_comm, TopoState& state) {
    if (const int err = ensure_private_comm(topo_comm, state); err != MPI_SUCCESS) return false;
    if (settings_agree(state.config, state.private_comm)) return true;
    int rank = 0;
    PMPI_Comm_rank(topo_comm, &rank);
    if (rank == 0) log(LogLevel::warning, "processes disagree on nbrcomb settings for a communicator; it stays native");
    return false;
}

}  // namespace

int adopt_topology(MPI_Comm topo_comm, const Config& config, const Renumbering& renumbering,
                   double reorder_seconds) {
    if (topo_comm == MPI_COMM_NULL) return MPI_SUCCESS;
    auto state = std::make_shared<TopoState>();
    state->config = config;
    // Where the MPI has no neighborhood collectives, "off" is the library's direct schedule.
    if (!mpi_has_topologies && state->config.mode == NBRCOMB_MODE_OFF) state->config.mode = NBRCOMB_MODE_DIRECT;
    // Auto mode defers everything collective to the call that runs Phase 1: a communicator used
    // a few times costs no message more than natively.
    const bool deferred = config.mode == NBRCOMB_MODE_AUTO && config.lazy > 0;
    if (!deferred && !agree_on_settings(topo_comm, *state)) return MPI_SUCCESS;
    if (state->config.mode == NBRCOMB_MODE_OFF) return MPI_SUCCESS;

    int* tag_ub = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(topo_comm, MPI_TAG_UB, &tag_ub, &found);
    if (found) state->tag_span = static_cast<long long>(*tag_ub) + 1;
    state->stats.requested_mode = state->config.mode;
    // Auto mode's combining pattern is that of pairs (paper 000).
    state->stats.mode = state->config.mode == NBRCOMB_MODE_AUTO ? NBRCOMB_MODE_PAIRS : state->config.mode;
    const std::shared_ptr<Topology> topology = read_topology(topo_comm);
    topology->direct_pattern = direct_pattern(topology->graph);
    if (renumbering.tried) {
        state->stats.reorder_tried = 1;
        state->stats.reordered = renumbering.reordered ? 1 : 0;
        state->stats.reorder_seconds = reorder_seconds;
        account_node_crossings(*topology, renumbering, state->stats);
        topology->emulated_nodes = renumbering.node_after;
    }
    state->topology = topology;
    if (deferred) {
        state->calls_until_pattern = config.lazy;
    } else {
        build_pattern(*state, *topology);
        if (config.mode == NBRCOMB_MODE_AUTO) weigh_combining(*state);
    }
    return attach_state(topo_comm, std::move(state));
}

void build_pattern_now(MPI_Comm topo_comm, TopoState& state) {
    state.calls_until_pattern = 0;
    if (!agree_on_settings(topo_comm, state)) return;  // native from now on: combining stays false
    auto topology = std::make_shared<Topology>(*state.topology);
    build_pattern(state, *topology);
    state.topology = std::move(topology);
    weigh_combining(state);
}

}  // namespace nbrcomb::detail
