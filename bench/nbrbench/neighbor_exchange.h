// One MPI neighborhood collective with its buffers on one topology communicator, in one of its
// forms: blocking, nonblocking (MPI_Ineighbor_* and MPI_Wait) or, with an MPI-4 library,
// persistent (MPI_Neighbor_*_init once, then MPI_Start and MPI_Wait). Only standard MPI calls, so
// whatever intercepts them (libnbrcomb) is measured. Or the global collective a neighborhood
// collective mimics on a complete graph (MPI_Allgather, ...), which paper 004's GL7 and GL8 compare
// it with.
#pragma once

#include "common/neighbor_call.h"
#include "topology/generators.h"

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace nbrcomb::bench {

using calls::all_collectives;
using calls::Collective;
using calls::Form;
inline constexpr bool persistent_available = calls::has_persistent_collectives;

using calls::collective_name;
using calls::form_name;
std::optional<Collective> parse_collective(std::string_view text);
std::optional<Form> parse_form(std::string_view text);

// Byte `offset` of send block `block` of rank `rank`: distinct enough across ranks and blocks that a
// block delivered to the wrong place shows.
inline unsigned char payload_byte(int rank, int block, std::size_t offset) {
    return static_cast<unsigned char>(rank * 167 + block * 61 + static_cast<int>(offset % 256) * 7 + 13);
}

// MPI_Neighbor_X over the communicator's topology, or MPI_X over all its processes.
enum class Scope { neighborhood, global };

class NeighborExchange {
public:
    // Every neighbor gets (and every source sends) block_bytes bytes as MPI_BYTE; the v and w
    // forms use the same counts with explicit displacements, or, where blocks has them,
    // block_bytes times an edge's blocks (a mesh's ghost cells), one block after the other. The
    // send blocks hold payload_byte, so the receive buffer shows where each block came from. path: through MPI_Neighbor_*, which
    // the library intercepts where it is loaded, or PMPI_Neighbor_*, the MPI's own. The global
    // scope treats every process of comm, itself included, as a neighbor, and calls MPI_X.
    NeighborExchange(MPI_Comm comm, Collective collective, Form form, int block_bytes,
                     calls::Path path = calls::Path::library, Scope scope = Scope::neighborhood,
                     const topology::EdgeBlocks& blocks = {});
    ~NeighborExchange();
    NeighborExchange(const NeighborExchange&) = delete;
    NeighborExchange& operator=(const NeighborExchange&) = delete;

    // One collective call, complete on return.
    void run();

    // Overwrites the receive buffer with scrambled bytes, so a later comparison sees only what the
    // next call wrote.
    static constexpr unsigned char scrambled = 0xa5;
    void scramble_received();
    const std::vector<unsigned char>& received() const { return receive_; }
    // Where the block from the i-th source lies in received(), and its bytes.
    int received_offset(int source) const { return receive_displs_[static_cast<std::size_t>(source)]; }
    int received_bytes(int source) const { return receive_counts_[static_cast<std::size_t>(source)]; }

    int out_degree() const { return out_degree_; }
    // What one call sends natively, one message per out-edge: a gather's one block to each, or
    // the send counts.
    double bytes_per_call() const;
    MPI_Comm comm() const { return comm_; }
    Collective collective() const { return collective_; }

private:
    // The call's arguments, in MPI_BYTE.
    calls::NeighborArguments<> arguments();
    // Issues the call in its scope: runs it, starts it into request_ or initializes request_.
    void issue();

    MPI_Comm comm_;
    Collective collective_;
    Form form_;
    int block_bytes_;
    calls::Path path_;
    Scope scope_;
    int in_degree_ = 0;
    int out_degree_ = 0;
    std::vector<unsigned char> send_;
    std::vector<unsigned char> receive_;
    std::vector<int> send_counts_, send_displs_, receive_counts_, receive_displs_;
    std::vector<MPI_Aint> send_byte_displs_, receive_byte_displs_;   // alltoallw
    std::vector<MPI_Datatype> send_types_, receive_types_;           // alltoallw
    MPI_Request request_ = MPI_REQUEST_NULL;                         // persistent: kept across calls
};

}  // namespace nbrcomb::bench
