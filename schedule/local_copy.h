// Copies one block to another whose type signature matches, through the MPI's datatype engine.
#pragma once

#include "schedule/schedule.h"

#include <optional>

namespace nbrcomb::detail {

// Where count elements of type, of bytes bytes in all, form one gap-free run of bytes: the offset
// of its first byte from the block's address.
std::optional<MPI_Aint> contiguous_start(int count, MPI_Datatype type, std::size_t bytes);

// Byte-contiguous blocks are copied with memcpy; any other pair of types goes through
// MPI_Pack into a staging buffer and MPI_Unpack out of it. Like a receive, a source longer than
// the target fails with MPI_ERR_TRUNCATE and writes nothing; a shorter one fills the target's
// leading bytes.
int copy_block(const void* from, const Block& from_block, void* to, const Block& to_block);

}  // namespace nbrcomb::detail
