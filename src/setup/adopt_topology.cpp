#include "src/setup/adopt_topology.h"

#include "mapping/locality.h"
#include "pattern/message_cost.h"
#include "schedule/combining_plan.h"
#include "schedule/global_plan.h"
#include "schedule/local_copy.h"
#include "schedule/mpi_features.h"
#include "src/base/device_memory.h"
#include "src/base/log.h"
#include "src/communicator/classic_topologies.h"
#include "src/communicator/topo_state.h"
#include "src/decision/decision_tiers.h"
#include "src/progress/progressing_wait.h"
#include "src/setup/adjacency_calls.h"
#include "src/setup/delivery_probe.h"
#include "src/setup/mapping_log.h"
#include "src/setup/mpi_transport.h"
#include "src/setup/rules_sharing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <optional>
#include <span>
#include <string>

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

// The locality domains of the communicator's ranks as the processes that take part in calls
// find them; -1 for those without edges, which lead and relay nothing. Collective over them.
LocalityDomains participants_domains(const TopoState& state, const MappingSettings& settings,
                                     std::span<const int> emulated_nodes) {
    if (state.participants_comm == MPI_COMM_NULL) return locality_domains(state.private_comm, settings, emulated_nodes);
    // Emulated nodes are numbered by rank of the whole communicator; real ones are found
    // among the participants.
    const bool emulated = settings.node_size > 0;
    LocalityDomains domains = emulated ? locality_domains(state.private_comm, settings, emulated_nodes)
                                       : locality_domains(state.participants_comm, settings, {});
    if (!domains.of_rank) return domains;
    auto of_rank = std::make_shared<std::vector<int>>(static_cast<std::size_t>(state.topology->size), -1);
    const std::vector<int> ranks = participant_ranks(state);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const auto rank = static_cast<std::size_t>(ranks[i]);
        (*of_rank)[rank] = (*domains.of_rank)[emulated ? rank : i];
    }
    domains.of_rank = std::move(of_rank);
    return domains;
}

// The node of every rank, real or emulated (the one NBRCOMB_NODE_SIZE and reordering give), for
// aggregation and the statistics between nodes.
std::shared_ptr<const std::vector<int>> nodes_of(const TopoState& state, const Topology& topology) {
    MappingSettings settings = mapping_settings(state.created.config);
    settings.locality = Locality::node;
    return participants_domains(state, settings, topology.emulated_nodes).of_rank;
}

// The reduction of packed round costs (pack_rounds; their rounds from the record's size): the
// busiest process's fields, the sum of the node's (add_process).
void fold_round_costs(void* in, void* inout, int* count, MPI_Datatype* record) {
    int bytes = 0;
    PMPI_Type_size(*record, &bytes);
    const int rounds = bytes / static_cast<int>(packed_fields * sizeof(double));
    const auto* process = static_cast<const double*>(in);
    auto* busiest = static_cast<double*>(inout);
    for (int i = 0; i < *count; ++i, process += packed_fields * rounds, busiest += packed_fields * rounds) {
        RoundCosts folded = unpack_rounds(busiest, rounds);
        add_process(folded, unpack_rounds(process, rounds));
        pack_rounds(folded, rounds, busiest);
    }
}

// Each plan's round costs for both kinds of blocks folded over the communicator's processes
// (message_cost.h) in one reduction of their first `rounds` rounds, which every process names
// alike: Phase 1 waits for it at every process, and at thousands of processes its time grows
// with its bytes, which the processes of a node send over one link. Collective.
std::vector<KindCosts> busiest_costs(const std::vector<KindCosts>& mine, int rounds, const std::vector<int>& node_of,
                                     MPI_Comm comm) {
    const std::size_t record_size = packed_fields * static_cast<std::size_t>(rounds);
    std::vector<double> packed(mine.size() * 2 * record_size);
    for (std::size_t i = 0; i < mine.size(); ++i)
        for (std::size_t kind = 0; kind < 2; ++kind) pack_rounds(mine[i][kind], rounds, &packed[(2 * i + kind) * record_size]);
    MPI_Datatype record = MPI_DATATYPE_NULL;
    PMPI_Type_contiguous(static_cast<int>(record_size), MPI_DOUBLE, &record);
    PMPI_Type_commit(&record);
    MPI_Op fold = MPI_OP_NULL;
    PMPI_Op_create(fold_round_costs, 1, &fold);
    allreduce_progressing(packed.data(), static_cast<int>(mine.size() * 2), record, fold, comm);
    PMPI_Op_free(&fold);
    PMPI_Type_free(&record);
    const int nodes = node_count(node_of);
    std::vector<KindCosts> busiest(mine.size());
    for (std::size_t i = 0; i < mine.size(); ++i)
        for (std::size_t kind = 0; kind < 2; ++kind) {
            busiest[i][kind] = unpack_rounds(&packed[(2 * i + kind) * record_size], rounds);
            per_node(busiest[i][kind], nodes);
        }
    return busiest;
}

// The rounds of the candidates' costs from `first` on, at least `least`.
int most_rounds(const std::vector<Topology::Candidate>& candidates, std::size_t first, int least) {
    int rounds = least;
    for (std::size_t i = first; i < candidates.size(); ++i) rounds = std::max(rounds, candidates[i].plan->rounds());
    return rounds;
}

KindCosts costs_of(const Plan& plan, const Topology& topology) {
    return {plan.round_costs(topology.graph, *topology.node_of, true),
            plan.round_costs(topology.graph, *topology.node_of, false)};
}

// Auto mode: the candidates in the order of their estimate for small allgather blocks, the first
// of the table among equals, the first of which the report names, and their folded costs, from
// which each call shape's estimate picks the contenders of its trial (decision_tiers.h).
void order_by_estimate(Topology& topology, const std::vector<KindCosts>& busiest) {
    std::vector<std::size_t> order(topology.candidates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::ranges::stable_sort(order, {}, [&](std::size_t i) { return estimated_time(busiest[i][0]); });
    std::vector<Topology::Candidate> candidates;
    std::string estimates;
    for (const std::size_t i : order) {
        candidates.push_back(topology.candidates[i]);
        topology.busiest[0].push_back(busiest[i][0]);
        topology.busiest[1].push_back(busiest[i][1]);
        char estimate[96];
        std::snprintf(estimate, sizeof estimate, "%s%s %.2f us, %.2f us at 1 KiB", estimates.empty() ? "" : "; ",
                      topology.candidates[i].algorithm->name, estimated_time(busiest[i][0]),
                      estimated_time(busiest[i][0], 1024));
        estimates += estimate;
    }
    topology.candidates = std::move(candidates);
    log_rank0(LogLevel::info, "auto: candidates by estimate for allgather's blocks: %s", estimates.c_str());
}

// Phase 1's first step on every process that takes part: one MPI_MAX reduction, which tells each
// process that all the others have begun (Phase 1's later steps block in the MPI) and agrees in
// the same bytes what Phase 1 needs before it plans: the largest blocks called before it (auto
// mode) and the multi-hop algorithms' grid survey. At thousands of processes a collective step
// costs as much as a collective call: Phase 1 makes as few as it can.
struct Phase1Opening {
    // By kind of blocks (block_kind), the size class of the largest block any process called
    // before Phase 1, -1 for a kind not called.
    std::array<int, 2> largest_called{-1, -1};
    // Some process passed device memory in a call before Phase 1.
    bool device_called = false;
    // The maximum of every process's GridSurvey::of where survey_grids, else empty.
    std::vector<int> grid_maximum;
};

// The topology's processes as the grid survey counts them, before nodes are known: -1 for one
// without edges, which the grids leave out, 0 for the others.
std::shared_ptr<const std::vector<int>> participation(const TopoState& state) {
    const auto size = static_cast<std::size_t>(state.topology->size);
    if (state.participants_comm == MPI_COMM_NULL) return std::make_shared<const std::vector<int>>(size, 0);
    auto taking_part = std::make_shared<std::vector<int>>(size, -1);
    for (const int rank : participant_ranks(state)) (*taking_part)[static_cast<std::size_t>(rank)] = 0;
    return taking_part;
}

// Collective over state.agreement_comm(). survey_grids: whether an algorithm Phase 1 may plan
// routes over process grids. Nothing where the reduction failed.
std::optional<Phase1Opening> open_phase1(const TopoState& state, bool survey_grids) {
    std::vector<int> maximum;
    for (const double largest : state.decisions.largest_called())
        maximum.push_back(largest < 0 ? -1 : size_class(static_cast<std::size_t>(largest)));
    maximum.push_back(state.decisions.device_called() ? 1 : 0);
    if (survey_grids) {
        const std::vector<int> survey = GridSurvey(participation(state)).of(state.topology->graph);
        maximum.insert(maximum.end(), survey.begin(), survey.end());
    }
    if (allreduce_progressing(maximum.data(), static_cast<int>(maximum.size()), MPI_INT, MPI_MAX,
                              state.agreement_comm()) != MPI_SUCCESS)
        return std::nullopt;
    return Phase1Opening{.largest_called = {maximum[0], maximum[1]},
                         .device_called = maximum[2] != 0,
                         .grid_maximum = {maximum.begin() + 3, maximum.end()}};
}

// Auto mode: the block sizes Phase 1 plans for, by kind of blocks (block_kind): up to the
// representative block of the largest class the calls before Phase 1 had (agreed by every
// process in the opening), -1 for a kind not called; any size of both kinds where Phase 1 runs
// before any call.
std::array<double, 2> block_limits(const Phase1Opening& opening) {
    const std::array<int, 2>& largest_called = opening.largest_called;
    if (largest_called[0] < 0 && largest_called[1] < 0) return {INFINITY, INFINITY};
    std::array<double, 2> limits{};
    for (std::size_t kind = 0; kind < 2; ++kind) {
        const int largest = largest_called[kind];
        limits[kind] = largest < 0 ? -1 : static_cast<double>(representative_block(largest));
    }
    return limits;
}

// Whether the mode's algorithm, or in auto mode any candidate, needs the process grids.
bool needs_grids(nbrcomb_mode mode) {
    if (mode != NBRCOMB_MODE_AUTO) return find_algorithm(mode)->uses_grids;
    return std::ranges::any_of(algorithms(), &Algorithm::uses_grids);
}

// The algorithms Phase 1 may plan: the mode's, or in auto mode the table's candidates here and
// the ones NBRCOMB_FORCE or the rules file names.
std::vector<const Algorithm*> planned_algorithms(const TopoState& state, const PlanSettings& settings) {
    if (state.created.config.mode != NBRCOMB_MODE_AUTO) return {find_algorithm(state.created.config.mode)};
    std::vector<const Algorithm*> planned;
    for (const Algorithm& algorithm : algorithms())
        if (algorithm.auto_candidate(settings) || names_algorithm(state.decisions.choices(), algorithm.name)) planned.push_back(&algorithm);
    return planned;
}

// Runs a call of every plan of the combined route on probe blocks (an alltoall and an
// allgather of each edge's ends and repeat), and checks each plan's own invariants:
// NBRCOMB_CHECK. True when everything held on every process; problems are logged where found.
bool plans_hold(TopoState& state, const Topology& topology) {
    MpiTransport transport(state.private_comm, state.pattern_tag());
    std::vector<std::string> problems;
    for (const Topology::Candidate& candidate : topology.candidates) {
        transport.set_channel_base(first_channel(*candidate.algorithm));
        for (std::string& problem : run_over_mpi(candidate.plan->check(transport, topology.graph)))
            problems.push_back(std::string(candidate.algorithm->name) + ": " + problem);
        const int first_tags[2] = {state.next_tag(), state.next_tag()};
        for (std::string& problem : probe_deliveries(*candidate.plan, topology.graph, state.private_comm, first_tags))
            problems.push_back(std::string(candidate.algorithm->name) + ": " + problem);
    }
    for (const std::string& problem : problems) log(LogLevel::warning, "plan check: %s", problem.c_str());
    int broken = problems.empty() ? 0 : 1;
    allreduce_progressing(&broken, 1, MPI_INT, MPI_MAX, state.agreement_comm());
    return broken == 0;
}

// Phase 1: the plans of the combined route, each algorithm's over its own channels. Emulated
// nodes stay with their processes when reordering gave them new ranks. Auto mode plans an
// algorithm whose Phase 1 is costly (a best case in the table) last, and only where its best case
// can still win against the others' estimates (decision_tiers.h), unless a setting or a rule
// names it. started: PMPI_Wtime() when Phase 1 began (its communicator and opening included),
// simulated time under SMPI, as the application's; opening: what its first reduction agreed.
void build_plans(TopoState& state, Topology& topology, double started, const Phase1Opening& opening) {
    topology.node_of = nodes_of(state, topology);
    const Config& config = state.created.config;
    PlanSettings settings{.theta = config.theta,
                          .k = config.k,
                          .max_hyperedges = config.max_hyperedges,
                          .node_of = topology.node_of,
                          .complete_graph = topology.complete_graph};
    if (!opening.grid_maximum.empty()) settings.grids = GridSurvey(topology.node_of).choose(opening.grid_maximum);
    const bool auto_mode = config.mode == NBRCOMB_MODE_AUTO;
    MpiTransport transport(state.private_comm, state.pattern_tag());
    bool domains_found = false;
    const auto plan = [&](const Algorithm* algorithm) {
        if (algorithm->uses_domains && !domains_found) {  // collective: every process plans alike
            const LocalityDomains domains = participants_domains(state, mapping_settings(config), topology.emulated_nodes);
            log_locality(config.topo_aware, domains);
            settings.domains = domains.of_rank;
            domains_found = true;
        }
        transport.set_channel_base(first_channel(*algorithm));
        topology.candidates.push_back({algorithm, run_over_mpi(algorithm->plan(transport, topology.graph, settings))});
    };
    topology.candidates.clear();
    std::vector<const Algorithm*> costly;
    for (const Algorithm* algorithm : planned_algorithms(state, settings)) {
        if (auto_mode && algorithm->best_case != nullptr && !names_algorithm(state.decisions.choices(), algorithm->name))
            costly.push_back(algorithm);
        else
            plan(algorithm);
    }
    if (auto_mode) {
        std::vector<KindCosts> mine;
        for (const Topology::Candidate& candidate : topology.candidates) mine.push_back(costs_of(*candidate.plan, topology));
        for (const Algorithm* algorithm : costly)
            mine.push_back({algorithm->best_case(topology.graph, *topology.node_of, settings, true),
                            algorithm->best_case(topology.graph, *topology.node_of, settings, false)});
        const int rounds = most_rounds(topology.candidates, 0, 1);  // a best case fills round 0
        std::vector<KindCosts> busiest = busiest_costs(mine, rounds, *topology.node_of, state.agreement_comm());
        const std::vector<KindCosts> best_cases(busiest.begin() + static_cast<std::ptrdiff_t>(topology.candidates.size()),
                                                busiest.end());
        busiest.resize(topology.candidates.size());
        const std::array<double, 2> limits = block_limits(opening);
        std::vector<KindCosts> later;
        for (std::size_t i = 0; i < costly.size(); ++i) {
            const bool planned = can_still_win(best_cases[i], busiest, limits);
            log_rank0(LogLevel::info, "auto: %s %s: its best case, %.2f us for allgather's small blocks, %s beat the "
                      "other candidates' estimates by %.0f %%", costly[i]->name, planned ? "planned" : "not planned",
                      estimated_time(best_cases[i][0]), planned ? "can" : "cannot", 100 * AutoTuner::required_gain);
            if (!planned) continue;
            plan(costly[i]);
            later.push_back(costs_of(*topology.candidates.back().plan, topology));
        }
        if (!later.empty()) {
            const int rounds = most_rounds(topology.candidates, topology.candidates.size() - later.size(), 1);
            const std::vector<KindCosts> folded = busiest_costs(later, rounds, *topology.node_of, state.agreement_comm());
            busiest.insert(busiest.end(), folded.begin(), folded.end());
        }
        order_by_estimate(topology, busiest);
    }
    topology.relays_across_components = std::ranges::any_of(topology.candidates, [](const Topology::Candidate& c) {
        return c.plan->relays_across_components();
    });
    Pattern::Cost phase1{};
    for (const Topology::Candidate& candidate : topology.candidates) {
        phase1.hyperedges += candidate.plan->cost().hyperedges;
        phase1.hyperedges_dropped += candidate.plan->cost().hyperedges_dropped;
    }
    {
        const auto stats = state.stats.lock();
        stats->mode = topology.candidates.front().algorithm->mode;
        stats->pattern_seconds = PMPI_Wtime() - started;
        stats->pattern_messages = transport.stats().messages;
        stats->pattern_exchanges = transport.stats().exchanges;
        stats->pattern_hyperedges = phase1.hyperedges;
        stats->pattern_hyperedges_dropped = phase1.hyperedges_dropped;
    }
    if (config.check && !plans_hold(state, topology)) {
        log_rank0(LogLevel::warning, "plan check failed; this communicator uses the direct schedule");
        topology.candidates.clear();
        topology.busiest = {};
        state.stats.lock()->mode = NBRCOMB_MODE_DIRECT;
    }
}

// Auto mode, once the plans are built: each call shape is decided by its tiers wherever there is a
// candidate, which every process knows alike (they plan the same algorithms, and drop them all
// together when a check fails).
void start_trials(TopoState& state) {
    state.decisions.start(make_tuner(state, state.decisions.settled_before_phase1()),
                          !state.topology->candidates.empty());
}

// A fingerprint of the edge from -> to that both its ends compute alike (splitmix64, whose
// increment keeps the edge 0 -> 0 from mapping to 0): summed over all processes, the out-edges'
// fingerprints minus the in-edges' are 0 when every edge is listed by both its ends as often, and
// otherwise are 0 with probability 2^-64.
std::uint64_t edge_fingerprint(int from, int to) {
    std::uint64_t x = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) | static_cast<std::uint32_t>(to);
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// What the processes settle when the communicator is made, the one moment every one of them is
// known to take part: later, PETSc skips the collectives on processes without edges, and
// mpi4py's own tests make graphs whose two sides disagree and never use them.
struct CreationAgreement {
    // The settings that shape schedules, and the rules file's rules, or schedules would not meet.
    bool settings_agree = false;
    bool edges_agree = false;     // every edge is listed by both its ends, or Phase 1 would wait forever
    bool idle_somewhere = false;  // some process has no edge
    bool gpu_somewhere = false;   // some process uses a GPU (device_runtime_in_use)
    bool complete_graph = false;  // every process lists every other once each way (global_plan.h)
    std::uint64_t fingerprint = 0;  // the sum of every edge's: the graph's, for the rules file
};

// One process's part of the agreement's MPI_MAX reduction, in one buffer: the values of the
// settings that must agree (those that shape schedules, and the rules file's digest), each also
// negated, since the maxima of v and of -v are one value, negated, only where every process has v;
// then the flags, each 1 after the reduction where some process raised it.
class MaxAgreement {
public:
    enum Flag { no_edge, not_complete, gpu_in_use, flag_count };

    MaxAgreement(std::vector<int> settings, std::array<bool, flag_count> flags) : settings_(settings.size()) {
        buffer_ = std::move(settings);
        for (std::size_t i = 0; i < settings_; ++i) buffer_.push_back(-buffer_[i]);
        for (const bool flag : flags) buffer_.push_back(flag ? 1 : 0);
    }
    void reduce(MPI_Comm comm) {
        allreduce_progressing(buffer_.data(), static_cast<int>(buffer_.size()), MPI_INT, MPI_MAX, comm);
    }
    bool settings_agree() const {
        for (std::size_t i = 0; i < settings_; ++i)
            if (buffer_[i] != -buffer_[settings_ + i]) return false;
        return true;
    }
    bool raised_somewhere(Flag flag) const { return buffer_[2 * settings_ + flag] != 0; }

private:
    std::size_t settings_;
    std::vector<int> buffer_;
};

CreationAgreement agree_at_creation(MPI_Comm comm, const Config& config, const LocalGraph& graph, int size) {
    std::vector<int> settings = schedule_shaping_values(config);
    settings.push_back(rules_digest(config.rules));
    MaxAgreement maxima(std::move(settings), {graph.sources.empty() && graph.destinations.empty(),
                                              !complete_vertex(graph, size), device_runtime_in_use()});
    // Unsigned, so that the sums wrap: the out-edges' less the in-edges', and the out-edges'.
    std::uint64_t sums[2] = {0, 0};
    for (const int destination : graph.destinations) {
        sums[0] += edge_fingerprint(graph.rank, destination);
        sums[1] += edge_fingerprint(graph.rank, destination);
    }
    for (const int source : graph.sources) sums[0] -= edge_fingerprint(source, graph.rank);
    maxima.reduce(comm);
    allreduce_progressing(sums, 2, MPI_UINT64_T, MPI_SUM, comm);
    return {.settings_agree = maxima.settings_agree(),
            .edges_agree = sums[0] == 0,
            .idle_somewhere = maxima.raised_somewhere(MaxAgreement::no_edge),
            .gpu_somewhere = maxima.raised_somewhere(MaxAgreement::gpu_in_use),
            .complete_graph = !maxima.raised_somewhere(MaxAgreement::not_complete),
            .fingerprint = sums[1]};
}

// Auto mode: what NBRCOMB_FORCE forces, and the rules file's rules for this communicator.
void take_decision_tiers(TopoState& state) {
    std::vector<std::string> problems;  // none: the setting was checked when read
    StatedChoices choices;
    choices.forced = parse_forced_choices(
        state.created.config.force, "NBRCOMB_FORCE", [](std::string_view name) { return find_algorithm(name) != nullptr; },
        problems);
    choices.key = communicator_key(state.created.config, state.topology->size, state.topology->fingerprint);
    choices.rules = rules_for(state.created.config.rules, choices.key);
    state.decisions.take_choices(std::move(choices));
}

// The communicator stays native: said once, on its rank 0.
int leave_native(MPI_Comm topo_comm, const char* why) {
    int rank = 0;
    PMPI_Comm_rank(topo_comm, &rank);
    if (rank == 0) log(LogLevel::warning, "%s; the communicator stays native", why);
    return MPI_SUCCESS;
}

// Where some process has no edge: the private communicator now, and the processes with edges
// split off it, over which every later agreement runs. Collective over topo_comm.
int separate_participants(MPI_Comm topo_comm, TopoState& state) {
    if (const int err = ensure_private_comm(topo_comm, state); err != MPI_SUCCESS) return err;
    int rank = 0;
    PMPI_Comm_rank(topo_comm, &rank);
    return PMPI_Comm_split(state.private_comm, state.created.idle ? MPI_UNDEFINED : 0, rank, &state.participants_comm);
}


// The settings as this MPI can follow them: where it has no neighborhood collectives, "off" is
// the library's direct schedule.
Config settings_here(Config config) {
    if (!mpi_has_topologies && config.mode == NBRCOMB_MODE_OFF) config.mode = NBRCOMB_MODE_DIRECT;
    return config;
}

// Why the communicator must stay native whatever its settings, or nullptr.
const char* disagreement(const CreationAgreement& agreed) {
    if (!agreed.settings_agree) return "processes disagree on nbrcomb settings";
    if (!agreed.edges_agree) return "the two ends of some edge of a new topology list it differently (an erroneous graph)";
    return nullptr;
}

// The tags the communicator has: MPI_TAG_UB + 1.
void take_tag_span(MPI_Comm topo_comm, TopoState& state) {
    int* tag_ub = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(topo_comm, MPI_TAG_UB, &tag_ub, &found);
    if (found) state.created.tag_span = static_cast<long long>(*tag_ub) + 1;
}

// The statistics that describe the new communicator: its mode, and what reordering did.
void count_creation(TopoState& state, Topology& topology, const Renumbering& renumbering, double reorder_seconds) {
    const auto stats = state.stats.lock();
    stats->requested_mode = state.created.config.mode;
    // Until Phase 1 names the algorithm, auto mode reports pairs, its candidate everywhere.
    stats->mode = state.created.config.mode == NBRCOMB_MODE_AUTO ? NBRCOMB_MODE_PAIRS : state.created.config.mode;
    if (!renumbering.tried) return;
    stats->reorder_tried = 1;
    stats->reordered = renumbering.reordered ? 1 : 0;
    stats->reorder_seconds = reorder_seconds;
    account_node_crossings(topology, renumbering, *stats);
    topology.emulated_nodes = renumbering.node_after;
}

// What the agreement settled, kept by the state and its topology.
void keep_agreement(TopoState& state, std::shared_ptr<Topology> topology, const CreationAgreement& agreed) {
    state.created.idle = topology->graph.sources.empty() && topology->graph.destinations.empty();
    state.created.idle_somewhere = agreed.idle_somewhere;
    state.created.gpu_somewhere = agreed.gpu_somewhere;
    topology->complete_graph = agreed.complete_graph;
    topology->fingerprint = agreed.fingerprint;
    state.topology = std::move(topology);
}

// Phase 1 now, or in auto mode at the call that makes it due: a communicator used a few times
// then costs no message more than natively, unless a setting or a rule makes a shape combine
// from the first call. A process without edges has no part in it.
int plan_now_or_when_due(MPI_Comm topo_comm, TopoState& state, Topology& topology) {
    if (state.created.idle) return MPI_SUCCESS;
    const bool auto_mode = state.created.config.mode == NBRCOMB_MODE_AUTO;
    // Where a process uses a GPU, calls on device memory and on host memory may meet in one call,
    // and nothing later could agree them without a message: the MPI takes every call (route_call).
    if (state.created.gpu_somewhere) {
        if (auto_mode) start_trials(state);  // with no candidate
        log_rank0(LogLevel::info, "a process uses a GPU: every call of this communicator is left to the MPI");
        return MPI_SUCCESS;
    }
    if (auto_mode && state.created.config.lazy > 0) {
        state.decisions.defer_phase1(state.created.config.lazy);
        return MPI_SUCCESS;
    }
    const double started = PMPI_Wtime();
    if (const int err = ensure_private_comm(topo_comm, state); err != MPI_SUCCESS) return err;
    // Every process is in the creation call and nothing was called: the opening has only grids to agree.
    const bool grids = needs_grids(state.created.config.mode);
    const std::optional<Phase1Opening> opening = grids ? open_phase1(state, true) : Phase1Opening{};
    if (!opening) return MPI_ERR_OTHER;
    build_plans(state, topology, started, *opening);
    if (auto_mode) start_trials(state);
    return MPI_SUCCESS;
}

}  // namespace

int adopt_topology(MPI_Comm topo_comm, const Config& config, const Renumbering& renumbering,
                   double reorder_seconds) {
    if (topo_comm == MPI_COMM_NULL) return MPI_SUCCESS;
    prepare_local_copies();
    auto state = std::make_shared<TopoState>();
    state->created.config = settings_here(config);
    const std::shared_ptr<Topology> topology = read_topology(topo_comm);
    const CreationAgreement agreed = agree_at_creation(topo_comm, state->created.config, topology->graph, topology->size);
    if (const char* why = disagreement(agreed)) return leave_native(topo_comm, why);
    if (state->created.config.mode == NBRCOMB_MODE_OFF) return MPI_SUCCESS;
    take_tag_span(topo_comm, *state);
    topology->direct = direct_plan(topology->graph);
    count_creation(*state, *topology, renumbering, reorder_seconds);
    keep_agreement(*state, topology, agreed);
    if (state->created.config.mode == NBRCOMB_MODE_AUTO) take_decision_tiers(*state);
    if (agreed.idle_somewhere && separate_participants(topo_comm, *state) != MPI_SUCCESS)
        return leave_native(topo_comm, "the library could not set up its communicators");
    if (plan_now_or_when_due(topo_comm, *state, *topology) != MPI_SUCCESS)
        return leave_native(topo_comm, "the library could not set up its communicators");
    return attach_state(topo_comm, std::move(state));
}

void complete_duplicate(MPI_Comm dup) {
    TopoState* state = find_state(dup);
    if (state == nullptr || !state->awaiting_setup) return;
    if (separate_participants(dup, *state) == MPI_SUCCESS) state->awaiting_setup = false;
}

void run_phase1_when_due(MPI_Comm topo_comm, TopoState& state, Collective collective, Form form, int size_class,
                         std::size_t largest_block, bool on_device) {
    if (state.created.idle || !state.decisions.phase1_pending()) return;
    switch (state.decisions.call_before_phase1(collective, form, size_class, largest_block, on_device)) {
    case AutoDecisions::Before::settled_native_now: count_decisions(state); return;
    case AutoDecisions::Before::settled_native:
    case AutoDecisions::Before::waiting: return;
    case AutoDecisions::Before::phase1_due: break;
    }
    const double started = PMPI_Wtime();
    if (ensure_private_comm(topo_comm, state) != MPI_SUCCESS) return;  // native from now on: no candidate
    // Phase 1's steps block in the MPI (finding nodes): every process must be here first, or one
    // waiting for an operation of this process that the MPI does not advance would never come. The
    // opening's reduction tells them so.
    const std::optional<Phase1Opening> opening = open_phase1(state, needs_grids(state.created.config.mode));
    if (!opening) return;
    if (!opening->device_called) {
        auto topology = std::make_shared<Topology>(*state.topology);
        build_plans(state, *topology, started, *opening);
        state.topology = std::move(topology);
    } else {
        log_rank0(LogLevel::info, "auto: device memory before Phase 1: every call of this communicator is left to the MPI");
    }
    start_trials(state);
}

}  // namespace nbrcomb::detail
