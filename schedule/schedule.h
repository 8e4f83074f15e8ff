// A Schedule is what one neighborhood collective call does on one process: rounds of typed
// operations, each round a barrier (LibNBC's model, typed instead of a packed byte stream).
// Buffers are named relative to the call's buffers so a schedule can be reused by later calls
// with the same arguments but other buffer addresses.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <iosfwd>
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

struct SendOp {
    Block data;
    int peer;
};

struct RecvOp {
    Block data;
    int peer;
};

// A local transfer between two blocks with matching type signatures (self-loops; later the
// pack and unpack steps of combined messages).
struct CopyOp {
    Block from;
    Block to;
};

using Op = std::variant<SendOp, RecvOp, CopyOp>;

// The operations of one round run concurrently and the round ends when all have completed,
// so a copy must not read what the same round receives.
struct Round {
    std::vector<Op> ops;
};

struct Schedule {
    std::vector<Round> rounds;
    std::size_t temp_bytes = 0;
    std::size_t messages = 0;   // sends per execution
    std::size_t bytes_sent = 0; // payload bytes per execution
};

// Human-readable listing, one operation per line (for logs and failing tests).
void print(std::ostream& out, const Schedule& schedule);

}  // namespace nbrcomb::detail
