#include "schedule/local_copy.h"

#include "schedule/datatype_facts.h"

#include <atomic>
#include <cstring>
#include <vector>

namespace nbrcomb::detail {

namespace {

// The communicator the library packs and sends to itself on: its own, so that an error comes
// back to the library (MPI_COMM_SELF's handler may abort the job) and no message of the program
// on MPI_COMM_SELF can match one of the library's.
MPI_Comm own_self() {
    static const MPI_Comm self = [] {
        MPI_Comm comm = MPI_COMM_NULL;
        PMPI_Comm_dup(MPI_COMM_SELF, &comm);
        PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        return comm;
    }();
    return self;
}

int bytes_of(int count, MPI_Datatype type) {
    int size = 0;
    PMPI_Type_size(type, &size);
    return count * size;
}

// The copy as a message from this process to itself, which the MPI's point-to-point engine
// moves: where MPI_Pack or MPI_Unpack moved fewer bytes than the type map holds (MPICH 4.0.2
// does for some derived types once many have been made and freed), the receive's datatype
// engine still places every byte. Copies may run at once (threads, or a copy inside the MPI's
// progress during another's Sendrecv), so each takes a tag of its own.
int copy_by_message(const void* from, const Block& from_block, void* to, const Block& to_block) {
    static std::atomic<unsigned> copies{0};
    const int tag = static_cast<int>(copies.fetch_add(1, std::memory_order_relaxed) % 32768);
    return PMPI_Sendrecv(from, from_block.count, from_block.type, 0, tag, to, to_block.count, to_block.type, 0, tag,
                         own_self(), MPI_STATUS_IGNORE);
}

}  // namespace

void prepare_local_copies() { own_self(); }

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
    // A shorter block fills only the leading elements, as a receive of a shorter message would.
    const auto elements =
        static_cast<int>(static_cast<std::size_t>(to_block.count) * from_block.bytes / to_block.bytes);
    int packed_size = 0;
    int err = PMPI_Pack_size(from_block.count, from_block.type, own_self(), &packed_size);
    if (err != MPI_SUCCESS) return err;
    std::vector<std::byte> staging(static_cast<std::size_t>(packed_size));
    int position = 0;
    err = PMPI_Pack(from, from_block.count, from_block.type, staging.data(), packed_size, &position, own_self());
    if (err != MPI_SUCCESS) return err;
    if (static_cast<std::size_t>(position) < from_block.bytes)
        return copy_by_message(from, from_block, to, to_block);
    const int packed = position;
    position = 0;
    err = PMPI_Unpack(staging.data(), packed, &position, to, elements, to_block.type, own_self());
    if (err != MPI_SUCCESS) return err;
    if (position < bytes_of(elements, to_block.type))
        return copy_by_message(from, from_block, to, to_block);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
