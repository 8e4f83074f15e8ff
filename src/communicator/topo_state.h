// What the library keeps for one topology communicator, cached on it as an MPI
// attribute: released by the attribute's delete callback, given to duplicates by its copy
// callback. Operations still in flight when the communicator is freed hold it until they end.
#pragma once

#include "src/base/call_flags.h"

#include "matching/transport.h"
#include "nbrcomb/nbrcomb.h"
#include "pattern/message_cost.h"
#include "pattern/pattern.h"
#include "schedule/algorithm_table.h"
#include "schedule/call_cache.h"
#include "src/base/statistics.h"
#include "src/communicator/adjacency.h"
#include "src/decision/auto_decisions.h"
#include "src/settings/config.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

namespace nbrcomb::detail {

struct Operation;

// Operations of a communicator's calls that have ended, kept with their memory for the next
// calls (progress_engine.h). Another thread may return one while a call takes one.
struct OperationPool {
    static constexpr std::size_t capacity = 4;
    std::mutex mutex;
    std::vector<std::shared_ptr<Operation>> idle;
};

// The graph as MPI_Dist_graph_neighbors returns it (or as classic_topologies.h makes it of a
// Cartesian or graph topology) and the plans built for it; shared by a communicator and its
// duplicates.
struct Topology {
    int size = 0;
    LocalGraph graph;
    bool weighted = false;
    std::vector<int> destination_weights;
    std::optional<EdgeBlocks> blocks;  // Cartesian: which call block each edge is; none: edge i is block i
    bool complete_graph = false;       // every process lists every other once each way (global_plan.h)
    // The MPI's own collectives get this graph wrong (repeated edges, and Cartesian neighbors
    // twice, on MPICH 4.0): the library runs every call, natively routed ones with its one
    // message per edge.
    bool native_unreliable = false;
    // The same for the nonblocking ones (also Open MPI 4.1's, on Cartesian neighbors twice).
    bool native_nonblocking_unreliable = false;
    // One message per edge: direct mode's plan, and the native side wherever the MPI's own
    // collective cannot run a call (auto mode's trial, processes without edges).
    std::shared_ptr<const Plan> direct;
    // The plans the combined route may run, built at once or, in auto mode, lazily: the mode's,
    // or in auto mode every candidate of the algorithm table here and every algorithm
    // NBRCOMB_FORCE names, the one estimated fastest for small blocks first. The combined route
    // runs the one its choice names, the first outside auto mode; none before Phase 1, or after a
    // failed check.
    struct Candidate {
        const Algorithm* algorithm;
        std::shared_ptr<const Plan> plan;
    };
    std::vector<Candidate> candidates;
    // Auto mode, from Phase 1: each candidate's round costs folded over the processes
    // (message_cost.h) for calls of allgather's blocks (one per process, [0]) and of alltoall's
    // (one per edge, [1]), from which each call shape's estimate picks the contenders of its trial
    // (decision_tiers.h).
    std::array<std::vector<RoundCosts>, 2> busiest;
    // Some candidate relays blocks between connected components, whose calls may differ in size.
    bool relays_across_components = false;
    std::uint64_t fingerprint = 0;  // of the graph's edges, agreed at creation: the rules file's key
    // (*node_of)[r]: the node of rank r (real, or emulated with NBRCOMB_NODE_SIZE), for
    // aggregation and the statistics between nodes; null until Phase 1 asks, and in mode off.
    std::shared_ptr<const std::vector<int>> node_of;
    std::vector<int> emulated_nodes;  // reorder=1: the node of every new rank, for the topology-aware mode
    // reorder=1: whether each out-edge joins two nodes with the old ranks and with the new ones;
    // empty when reordering was not asked for.
    std::vector<bool> internode_before;
    std::vector<bool> internode_after;

    const Plan& combined_plan(int candidate = 0) const {
        return candidates.empty() ? *direct : *candidates[static_cast<std::size_t>(candidate)].plan;
    }
    // Blocks per side of a call, one per neighbor, MPI_PROC_NULL ones included.
    int indegree() const { return blocks ? blocks->receive : static_cast<int>(graph.sources.size()); }
    int outdegree() const { return blocks ? blocks->send : static_cast<int>(graph.destinations.size()); }
};

// A call's schedule, kept for the calls that repeat its arguments, and what native MPI sends for
// the same call.
struct PlannedCall {
    Schedule schedule;
    NativeTraffic native;
};

// What the communicator's creation settled, the same on its duplicates: copied whole.
struct CreationSettled {
    Config config;
    long long tag_span = 32768;   // MPI_TAG_UB + 1
    bool idle = false;            // this process has no edge: it takes part in nothing after the constructor
    bool idle_somewhere = false;  // some process has none
    // Some process used a GPU when the communicator was made: device and host memory may meet in
    // one call, so every call goes to the MPI (src/setup/adopt_topology.cpp).
    bool gpu_somewhere = false;
};

// What the native route (route/prepare_call.h: take_native_route) reads of a communicator.
// prepare() fills it at a call of a form that finds auto mode past Phase 1, the communicator set
// up and the MPI's own collective right for the form, and opens the form; all of it stays so
// once it is. Each thread reads a copy kept with its remembered lookup (RememberedState), so that
// the native route's test needs no line of the state itself, which the MPI's own work between two
// calls pushes out of the cache.
struct NativeRoute {
    AutoTuner* tuner = nullptr;       // whose checkpoints count the calls
    std::uint32_t out_edges = 0;      // the messages a native call sends, for the statistics
    std::uint8_t forms = 0;           // a bit per form open; in the state, native_route_forms
    bool every_shape_native = false;  // this process has no edge, or Phase 1 planned nothing
    bool shape_by_block = false;      // a uniform call's shape is its block's size class
};

struct TopoState {
    TopoState() = default;
    TopoState(const TopoState&) = delete;
    TopoState& operator=(const TopoState&) = delete;
    ~TopoState();

    CreationSettled created;
    // The graph and, once Phase 1 has run, its plans: shared with the duplicates that have not
    // run their own Phase 1.
    std::shared_ptr<const Topology> topology;
    // Private duplicate on which all library traffic runs, so it never matches the
    // application's messages. MPI_COMM_NULL until first use on a communicator's duplicate.
    MPI_Comm private_comm = MPI_COMM_NULL;
    // Where some process of the communicator has no edge (PETSc then never calls the collectives
    // there), the processes with edges, split off private_comm when the communicator is made:
    // every reduction the library runs after the constructor runs here. MPI_COMM_NULL where every
    // process has an edge, and on a process without one.
    MPI_Comm participants_comm = MPI_COMM_NULL;
    // A duplicate (MPI_Comm_dup) where some process has no edge gets its communicators in the
    // duplication itself, when every process is there (adopt_topology.h: complete_duplicate);
    // one made otherwise (MPI_Comm_idup; MPI_Comm_dup_with_info from Fortran) stays native.
    bool awaiting_setup = false;
    std::uint64_t sequence = 0;  // operations started on this communicator
    CallCache<PlannedCall> schedules;
    // A line of its own, with the counters of native calls that open the statistics after it: the
    // one line of the state a call on the native route writes where auto mode has no tuner (a
    // tuner counts such calls in its own line, AutoTuner::count_native).
    alignas(64) NativeRoute native_route;
    std::atomic<std::uint8_t> native_route_forms{0};  // its forms, published after its facts
    CommStatistics stats;
    std::set<int> reserved_tags;  // first tags of the persistent operations alive
    OperationPool operations;
    // Auto mode: the tiers' choices, the calls before Phase 1 (at creation when NBRCOMB_LAZY is
    // 0), and the tuner of the call shapes after it.
    AutoDecisions decisions;

    // First of the tags of the next operation, by its sequence number: operations outstanding
    // at once never share one, unless tag_span / tags_per_operation of them are, and the tags
    // of persistent operations are skipped. The top pattern_tags() tags stay for Phase 1.
    int next_tag();
    // The same, held until release_tag: a persistent operation runs on the same tags each time.
    int reserve_tag();
    void release_tag(int first_tag) { reserved_tags.erase(first_tag); }
    static int pattern_tags() { return 2 * channel_count(); }  // two per Phase 1 channel (src/setup/mpi_transport.h)
    int pattern_tag() const { return static_cast<int>(created.tag_span - pattern_tags()); }
    // A call left to the MPI, counted with the messages it sends (one per out-edge); a device
    // call's buffers are device memory, which the library leaves to the MPI.
    void count_native_call() { stats.count_native_call(topology->graph.destinations.size()); }
    void count_device_call();
    // The counters, with the native route's calls that auto mode's tuner counted
    // (AutoTuner::count_native); and reset as nbrcomb_comm_reset_stats leaves them.
    nbrcomb_stats statistics() const;
    void reset_statistics();
    // Where the library's reductions run: over the processes that take part in calls.
    MPI_Comm agreement_comm() const { return participants_comm != MPI_COMM_NULL ? participants_comm : private_comm; }
};

// Auto mode's tuner for state's shapes, once Phase 1 has planned (decision_tiers.h: make_opener);
// counted: the shapes already decided native before Phase 1, by their source.
std::unique_ptr<AutoTuner> make_tuner(const TopoState& state, const std::vector<std::pair<int, Source>>& counted = {});

// Auto mode's shapes decided, by tier, into state's statistics, from state.decisions, which
// counts them.
void count_decisions(TopoState& state);

// The state the library keeps for comm as the communicator holds it (valid while comm is), or
// nullptr if the library does not manage comm. Every collective call asks, so the last answer
// is kept per thread until a managed communicator is freed.
const std::shared_ptr<TopoState>* find_shared_state(MPI_Comm comm);

// The last communicator a thread asked about, with its state and a copy of its native route, or
// none where the library does not manage it: stale once call_flags.states_changed (states attached and freed,
// from 1) moves, as a freed communicator's handle may come back for another. Zero, and so stale,
// until the first answer. A hot thread-local (base/call_flags.h), here, so that the native route's
// lookup is a few inlined loads and compares.
struct alignas(64) RememberedState {  // one cache line
    MPI_Comm comm;
    const std::shared_ptr<TopoState>* box;  // null: not managed
    TopoState* state;
    std::uint64_t generation;  // states_changed when remembered
    NativeRoute route;         // state->native_route when remembered or refreshed
    // The last named type whose size a call asked for here (route/call_args.h: type_size), and
    // its size, 0 for none: in the same line as the rest the native route reads.
    MPI_Datatype named_type;
    int named_size;
};
static_assert(sizeof(RememberedState) == 64, "what the native route reads of a thread's lookup is one cache line");
NBRCOMB_HOT_THREAD_LOCAL extern constinit RememberedState remembered_state;

// remembered()'s way when the thread remembers another communicator or a stale one: the lookup,
// kept out of the lines of the inlined test.
[[gnu::cold]] const RememberedState* remember(MPI_Comm comm);

// What this thread remembers of comm, refreshed if it remembered another; nullptr if the library
// does not manage comm.
inline const RememberedState* remembered(MPI_Comm comm) {
    const RememberedState& last = remembered_state;
    if (last.comm == comm && last.generation == call_flags.states_changed.load(std::memory_order_acquire)) [[likely]]
        return last.box != nullptr ? &last : nullptr;
    return remember(comm);
}

// find_shared_state's state, plain.
inline TopoState* find_state(MPI_Comm comm) {
    const RememberedState* found = remembered(comm);
    return found == nullptr ? nullptr : found->state;
}

// After state's native route changed, this thread's copy, if it remembers state.
void refresh_remembered_route(const TopoState& state);

// Hands state to comm; it lives until comm is freed and no operation holds it.
int attach_state(MPI_Comm comm, std::shared_ptr<TopoState> state);

// Duplicates the communicator into state.private_comm if that has not happened yet. Collective.
int ensure_private_comm(MPI_Comm comm, TopoState& state);

// The ranks of the private communicator that take part in calls, in the order of
// participants_comm, where some process without edges left that (participants_comm is not null).
std::vector<int> participant_ranks(const TopoState& state);

// The counters summed over this process's communicators, freed or alive, and their number.
struct ProcessTotals {
    nbrcomb_stats stats{};
    unsigned long long communicators = 0;
    unsigned long long reorder_calls = 0;  // calls on communicators reorder=1 asked to reorder
};
ProcessTotals process_totals();

}  // namespace nbrcomb::detail
