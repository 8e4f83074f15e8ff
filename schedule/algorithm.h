// The seam every message-combining algorithm goes in through. An algorithm plans, in Phase 1,
// what each process does (a coroutine over Transport, so it runs over MPI and in the simulator
// alike); the plan then builds the schedule of each collective call, estimates a call's time and,
// where the algorithm has invariants of its own, checks them with the neighbors. The algorithms
// and their order are in schedule/algorithm_table.cpp.
#pragma once

#include "matching/task.h"
#include "matching/transport.h"
#include "nbrcomb/nbrcomb.h"
#include "pattern/message_cost.h"
#include "pattern/pattern.h"
#include "pattern/process_grid.h"
#include "schedule/call_blocks.h"
#include "schedule/schedule.h"

#include <memory>
#include <string>
#include <vector>

namespace nbrcomb::detail {

// What an algorithm's Phase 1 may use besides the process's edges; the same on every process.
struct PlanSettings {
    int theta = 4;             // common out-neighbors that make friends (pairs and groups)
    int k = 2;                 // group size (groups)
    int max_hyperedges = 256;  // candidate groups a process keeps per iteration (groups)
    // (*domains)[r]: the locality domain of rank r that friends must share (topology-aware
    // mode); null when friends may be anywhere. Given to algorithms that ask for it.
    std::shared_ptr<const std::vector<int>> domains{};
    // (*node_of)[r]: the node of rank r, -1 for a process that takes part in no call.
    std::shared_ptr<const std::vector<int>> node_of{};
    // The process grids the multi-hop algorithms route over (the processes choose them together).
    GridChoices grids{};
    // Every process lists every other once as a source and as a destination (global_plan.h).
    bool complete_graph = false;
};

// One process's plan: plain data computed once per topology, shared by a communicator and its
// duplicates, used by every call.
class Plan {
public:
    virtual ~Plan() = default;

    // Phase 2: what this process does in one call of these blocks, each round posted in an order
    // that depends on the graph alone (canonical_order.h).
    Schedule schedule(const LocalGraph& graph, const CallBlocks& call) const;
    // This process's part of a call's estimated time (pattern/message_cost.h), for allgather's
    // blocks (same_send_block) or alltoall's.
    virtual RoundCosts round_costs(const LocalGraph& graph, const std::vector<int>& node_of,
                                   bool same_send_block) const = 0;
    // The rounds round_costs fills at most, alike on every process of the topology.
    virtual int rounds() const = 0;
    // Messages this process sends per call, self-loops left out.
    virtual std::size_t messages_per_call(const LocalGraph& graph) const = 0;
    // Whether this process sends anything but one message per edge.
    virtual bool combines() const = 0;
    // Whether a block may pass through processes of another connected component of the graph
    // (node agents, grid forwarders), whose calls may have blocks of other sizes: then every
    // process must take the same route on each call, whatever the size of its own blocks.
    virtual bool relays_across_components() const { return false; }
    // The algorithm's own invariants, checked with the neighbors: the problems found here. Every
    // plan's deliveries are also checked end to end by running one call (NBRCOMB_CHECK).
    virtual Task<std::vector<std::string>> check(Transport& transport, const LocalGraph& graph) const;
    // What Phase 1 cost this process, where the algorithm counts it.
    virtual Pattern::Cost cost() const { return {}; }

protected:
    // The schedule, its rounds' operations in any order.
    virtual Schedule build_schedule(const LocalGraph& graph, const CallBlocks& call) const = 0;
};

using PlanTask = Task<std::shared_ptr<const Plan>>;

// What a Phase 1 that began when the transport's statistics were before sent.
inline Pattern::Cost phase1_traffic(const Transport& transport, const TransportStats& before) {
    return {.messages = transport.stats().messages - before.messages, .bytes = transport.stats().bytes - before.bytes};
}

// A row of the algorithm table.
struct Algorithm {
    nbrcomb_mode mode;  // NBRCOMB_MODE (and nbrcomb_mode for MPI_Info) names it
    const char* name;
    // Phase 1 of every process of the topology at once.
    PlanTask (*plan)(Transport& transport, LocalGraph graph, PlanSettings settings);
    // Whether auto mode plans and weighs it here (every process answers alike).
    bool (*auto_candidate)(const PlanSettings& settings);
    Channel channels;   // Phase 1 channels it talks on, its check's included
    bool uses_domains;  // its plan asks PlanSettings::domains
    bool uses_grids;    // its plan or auto_candidate asks PlanSettings::grids
    // Where its Phase 1 is costly: a lower bound of this process's part of its estimate from the
    // graph and the node layout alone, by which auto mode plans it only where it can still win
    // (src/decision/decision_tiers.h), all of it in round 0. Null where planning costs little: auto
    // mode always plans it.
    RoundCosts (*best_case)(const LocalGraph& graph, const std::vector<int>& node_of, const PlanSettings& settings,
                            bool same_send_block);
};

}  // namespace nbrcomb::detail
