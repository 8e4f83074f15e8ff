#include "schedule/local_copy.h"

#include "schedule/datatype_facts.h"

#include <cstring>
#include <vector>

namespace nbrcomb::detail {

int copy_block(const void* from, const Block& from_block, void* to, const Block& to_block) {
    // As a receive of a longer message: nothing is written past the block.
    if (from_block.bytes > to_block.bytes) return MPI_ERR_TRUNCATE;
    if (from_block.bytes == 0) return MPI_SUCCESS;
    const auto from_start = contiguous_start(from_block.count, from_block.type);
    const auto to_start = contiguous_start(to_block.count, to_block.type);
    if (from_start && to_start) {
        std::memmove(static_cast<std::byte*>(to) + *to_start, static_cast<const std::byte*>(from) + *from_start,
                     from_block.bytes);
        return MPI_SUCCESS;
    }
    int packed_size = 0;
    int err = PMPI_Pack_size(from_block.count, from_block.type, MPI_COMM_SELF, &packed_size);
    if (err != MPI_SUCCESS) return err;
    std::vector<std::byte> staging(static_cast<std::size_t>(packed_size));
    int position = 0;
    err = PMPI_Pack(from, from_block.count, from_block.type, staging.data(), packed_size, &position, MPI_COMM_SELF);
    if (err != MPI_SUCCESS) return err;
    const int packed = position;
    position = 0;
    // A shorter block fills only the leading elements, as a receive of a shorter message would.
    const auto elements =
        static_cast<int>(static_cast<std::size_t>(to_block.count) * from_block.bytes / to_block.bytes);
    return PMPI_Unpack(staging.data(), packed, &position, to, elements, to_block.type, MPI_COMM_SELF);
}

}  // namespace nbrcomb::detail
