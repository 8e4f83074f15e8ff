// A Schedule is what one neighborhood collective call does on one process: rounds of typed
// operations, each round a barrier (LibNBC's model, typed instead of a packed byte stream).
// Buffers are named relative to the call's buffers so a schedule can be reused by later calls
// with the same arguments but other buffer addresses. Receives never wait for a later round, and
// every round posts all its sends, so no two processes' rounds can wait for each other.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <variant>
#include <vector>

namespace nbrcomb::detail {

enum class Space { send, recv, temp };

// A place in one of the call's buffers (user send buffer, user receive buffer, or the
// schedule's temporary buffer) as a byte offset from its start.
struct BufferRef {
    Space space;
    std::ptrdiff_t offset;
};

// One MPI (count, datatype) message part at a place; bytes is its payload size, kept so that
// building and accounting never ask MPI again.
struct Block {
    BufferRef at;
    int count;
    MPI_Datatype type;
    std::size_t bytes;
};

// Messages of one operation travel on three tags, so that a process's direct, friend and
// combined messages to the same peer can never be mistaken for each other.
enum class MessageKind : int { direct = 0, friend_exchange = 1, combined = 2 };
constexpr int tags_per_operation = 3;

struct SendOp {
    Block data;
    int peer;
    MessageKind kind;
};

struct RecvOp {
    Block data;
    int peer;
    MessageKind kind;
};

// A local transfer between two blocks with matching type signatures: self-loops, and the
// unpacking of combined messages.
struct CopyOp {
    Block from;
    Block to;
};

// A received message's part: part of the parts pieces of the message in slot.
struct SlotPart {
    int slot;
    int part;
    int parts;
};

// Whatever its size, a message with a header of its pieces' sizes into a slot of the execution.
struct ProbeRecvOp {
    int peer;
    int slot;
};

// A piece of a relayed message: a block of the call, or a part of a message received earlier.
using Piece = std::variant<Block, SlotPart>;

// A message assembled from pieces. A sized one starts with a header of the pieces' byte sizes (or
// of their one size, where all are alike),
// for a receiver that cannot know them and takes it with ProbeRecvOp: a member of our group,
// which forwards our blocks (paper 002, Alg. 4 line 5: the blocks it forwards for us, then our
// block for it if our edge to it rides along), or a node's agent (paper 003). An unsized one is
// the bare bytes, for the final receiver, which knows the sizes: a combined message (Alg. 4
// lines 9-12: own block, then one from each other member by ascending rank) or an agent's
// delivery; one of no bytes is not sent, since that receiver expects none.
struct RelayOp {
    std::vector<Piece> pieces;
    int peer;
    MessageKind kind;
    bool sized;
};

// A block a member handed over that is meant for this process (its edge to us rode in the
// packet), copied into place once the packet is in.
struct SlotCopyOp {
    SlotPart from;
    Block to;
};

// The MPI's collectives over all processes of the communicator that a neighborhood collective on a
// complete graph runs as (schedule/global_plan.h), on bytes.
enum class GlobalCollective { allgather, allgatherv, alltoall, alltoallv };

// One of them over the execution's communicator. Rank r's bytes lie at displs[r] from a side's base
// with counts[r] bytes (allgather and alltoall: one count for all, rank r's at r * count; allgather
// and allgatherv send their one block from the base); pack first copies the blocks to send into
// place where they do not lie there already. Posted as the nonblocking collective whatever the
// call's form: processes must not mix blocking and nonblocking collectives.
struct GlobalOp {
    GlobalCollective collective;
    std::vector<CopyOp> pack;
    BufferRef send_base;
    std::vector<int> send_counts, send_displs;
    BufferRef recv_base;
    std::vector<int> recv_counts, recv_displs;
};

using Op = std::variant<SendOp, RecvOp, CopyOp, RelayOp, ProbeRecvOp, SlotCopyOp, GlobalOp>;

// The operations of one round run concurrently and the round ends when all have completed,
// so a copy must not read what the same round receives.
struct Round {
    std::vector<Op> ops;
};

class DatatypeHolds;

struct Schedule {
    std::vector<Round> rounds;
    std::size_t temp_bytes = 0;  // receive space for combined messages
    int slots = 0;               // sized messages received per execution
    // The derived datatypes its blocks name (datatype_holds.h); none where they are the
    // caller's own, used only within the call.
    std::shared_ptr<const DatatypeHolds> datatypes;
};

// Human-readable listing, one operation per line (for logs and failing tests).
void print(std::ostream& out, const Schedule& schedule);

}  // namespace nbrcomb::detail
