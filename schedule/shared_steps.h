// Steps that the combining and the aggregating schedule builders both take.
#pragma once

#include "pattern/pattern.h"
#include "schedule/call_blocks.h"
#include "schedule/schedule.h"

#include <span>
#include <vector>

namespace nbrcomb::detail {

inline Block block_at(std::span<const Block> blocks, int index) { return blocks[static_cast<std::size_t>(index)]; }

// Edges that go as native MPI sends them: a message per out-edge of out_edges, a receive per
// in-edge of in_edges. The k-th edge to a peer meets the k-th edge from it (MPI-4.0 erratum)
// because sends and receives are posted in list order and MPI does not overtake; self-loops
// become copies paired the same way; zero-byte ones are skipped on both ends (matching type
// signatures make both ends see zero).
void add_direct_edges(const LocalGraph& graph, std::span<const int> out_edges, std::span<const int> in_edges,
                      const CallBlocks& call, Round& round);

// A message of the blocks of message.in_edges back to back, which the sender assembles (a
// combined message, an agent's delivery): received into temp space in receive, moved into
// place in unpack. Blocks above the call's cutoff come as direct messages instead (into
// direct); a message of no bytes is not sent.
void add_assembled_receive(const LocalGraph& graph, const IncomingMessage& message, const CallBlocks& call,
                           Schedule& schedule, Round& direct, Round& receive, Round& unpack);

// Where a plan relays blocks through other processes (grid routes, node agents), the blocks above
// the call's cutoff still go as direct messages: both ends of an edge know its size from their own
// counts, which a relay could not. Built from the relayed out- and in-edges, it adds those above
// the cutoff to direct as direct messages, and call() gives the blocks to relay, those above the
// cutoff emptied so that relayed messages keep an empty place for them, with no cutoff left.
class RelayedBlocks {
public:
    RelayedBlocks(const LocalGraph& graph, const CallBlocks& call, std::span<const int> out_edges,
                  std::span<const int> in_edges, Round& direct);
    RelayedBlocks(const RelayedBlocks&) = delete;
    RelayedBlocks& operator=(const RelayedBlocks&) = delete;
    CallBlocks call() const { return {send_, recv_, same_send_block_}; }

private:
    std::vector<Block> send_, recv_;
    bool same_send_block_;
};

// The edges of a list that join the process to another one, not to itself.
std::vector<int> edges_to_others(const std::vector<int>& peers, int rank);

}  // namespace nbrcomb::detail
