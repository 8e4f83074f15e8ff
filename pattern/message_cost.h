// An estimate of one call's time from its messages, by which auto mode orders its combining
// candidates: pairs of friends, node aggregation, routing over a process grid, the MPI's global
// collective.
#pragma once

#include "pattern/grid_routing.h"
#include "pattern/node_aggregation.h"
#include "pattern/pattern.h"

#include <array>
#include <vector>

namespace nbrcomb::detail {

// LogGP-style: every message costs the sender and the receiver a software overhead, more between
// nodes than within one; a message whose size the receiver cannot know costs it a probe too; each
// round then takes one wire latency; every byte a process sends or receives costs it time, more
// between nodes; and the bytes a node sends to others pass its one network link, which all its
// processes share, so a round lasts at least as long as that link takes to carry them. Microseconds,
// from the calibrated Stampede model of bench/smpi/README.md (SimGrid's platform-calibration data):
// byte_link is its network link's rate; a process's byte costs, its per-byte send and receive
// overheads and wire time, come to about 0.0001 per block byte it sends or receives, within a node
// and between nodes. Checked against the simulations in bench/results/RESULTS.md (multi-hop section).
struct MessageOverheads {
    double send_local = 0.21, receive_local = 0.04, wire_local = 0.04;
    double send_remote = 0.47, receive_remote = 0.35, wire_remote = 0.35;
    double probe = 0.24;
    double byte_local = 0.0001, byte_remote = 0.0001;
    double byte_link = 1 / 6011.83;  // 6.01 GB/s
};

// One process's part of the estimate, per schedule round: its overheads, 1 where a message of
// the round crosses nodes, the blocks it sends and receives within its node and between nodes,
// and the blocks it sends to other nodes (node_blocks: a node's processes' add up on its link).
// Rounds are those of the schedules (combining: friend packets and direct edges, combined
// messages; aggregation: packets to agents and edges within the node, messages between nodes,
// deliveries; a grid: one round per dimension).
struct RoundCosts {
    static constexpr int rounds = 16;
    std::array<double, rounds> overhead{};
    std::array<double, rounds> remote{};
    std::array<double, rounds> local_blocks{};
    std::array<double, rounds> remote_blocks{};
    std::array<double, rounds> node_blocks{};
};

// A call's round costs for each kind of blocks: allgather's (one per process, [0]) and
// alltoall's (one per edge, [1]).
using KindCosts = std::array<RoundCosts, 2>;

// The costs of a call for the estimate: per round the busiest process's overheads and blocks, and
// the blocks an average node sends to others. Folded from every process's round costs:
// add_process for each, then per_node once with node_count's nodes.
void add_process(RoundCosts& busiest, const RoundCosts& process);
void per_node(RoundCosts& busiest, int nodes);

// Round costs as a reduction across processes carries them: the first `rounds` rounds of each
// field, one field after another, 5 * rounds doubles. At thousands of processes a reduction's
// time grows with its bytes, and most plans fill two or three of the sixteen rounds.
constexpr int packed_fields = 5;
void pack_rounds(const RoundCosts& costs, int rounds, double* packed);
RoundCosts unpack_rounds(const double* packed, int rounds);

// The nodes of node_of (every process's node; -1 for a process off every node, one without edges).
int node_count(const std::vector<int>& node_of);

// same_send_block: the blocks of a call are allgather's, one per process, which a message that
// carries several of one source's edges holds once.
RoundCosts round_costs(const LocalGraph& graph, const Pattern& pattern, const std::vector<int>& node_of,
                       bool same_send_block);
RoundCosts round_costs(const LocalGraph& graph, const AggregationPattern& pattern, const std::vector<int>& node_of,
                       bool same_send_block);
RoundCosts round_costs(const LocalGraph& graph, const GridPattern& pattern, const std::vector<int>& node_of,
                       bool same_send_block);

// The MPI's own collective over all size processes (a complete graph's calls as the global plan
// runs them), as the dissemination its algorithms for small blocks follow: in round k one message to
// rank + 2^k and one from rank - 2^k, of 2^k blocks (allgather, recursive doubling) or half the
// processes' (alltoall, Bruck's).
RoundCosts global_round_costs(int rank, int size, const std::vector<int>& node_of, bool same_send_block);
// Its rounds: log2 of size rounded up, as many as RoundCosts holds at most.
int global_rounds(int size);

// The estimated time of a call of blocks of block_bytes from the costs folded above: per round the
// busiest process's overheads, a wire latency and the longer of its blocks' bytes and the node
// link's, summed over the rounds used.
double estimated_time(const RoundCosts& busiest, std::size_t block_bytes = 0, const MessageOverheads& overheads = {});

}  // namespace nbrcomb::detail
