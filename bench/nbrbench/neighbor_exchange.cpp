#include "schedule/mpi_features.h"
#include "nbrbench/neighbor_exchange.h"

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>

namespace nbrcomb::bench {

namespace {


// In- and out-degree of a distributed-graph or Cartesian communicator; every process, itself
// included, for the global collectives.
std::pair<int, int> degrees(MPI_Comm comm, Scope scope) {
    if (scope == Scope::global) {
        int size = 0;
        MPI_Comm_size(comm, &size);
        return {size, size};
    }
    int kind = MPI_UNDEFINED;
    MPI_Topo_test(comm, &kind);
    if (kind == MPI_CART) {
        int dims = 0;
        MPI_Cartdim_get(comm, &dims);
        return {2 * dims, 2 * dims};  // a neighbor on each side of every dimension
    }
    int in = 0, out = 0, weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    return {in, out};
}

// The global collective that a neighborhood collective on a complete graph mimics, with the same
// arguments; MPI_Alltoallw takes its byte displacements as int.
int call_global(const calls::NeighborArguments<>& a, Collective collective, Form form, MPI_Request* request) {
    switch (collective) {
    case Collective::allgather:
        if (form == Form::blocking)
            return MPI_Allgather(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm);
        if (form == Form::nonblocking)
            return MPI_Iallgather(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm,
                                  request);
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        return MPI_Allgather_init(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm,
                                  MPI_INFO_NULL, request);
#endif
        break;
    case Collective::allgatherv:
        if (form == Form::blocking)
            return MPI_Allgatherv(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcounts, a.displs, a.recvtype,
                                  a.comm);
        if (form == Form::nonblocking)
            return MPI_Iallgatherv(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcounts, a.displs,
                                   a.recvtype, a.comm, request);
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        return MPI_Allgatherv_init(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcounts, a.displs,
                                   a.recvtype, a.comm, MPI_INFO_NULL, request);
#endif
        break;
    case Collective::alltoall:
        if (form == Form::blocking)
            return MPI_Alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm);
        if (form == Form::nonblocking)
            return MPI_Ialltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm,
                                 request);
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        return MPI_Alltoall_init(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm,
                                 MPI_INFO_NULL, request);
#endif
        break;
    case Collective::alltoallv:
        if (form == Form::blocking)
            return MPI_Alltoallv(a.sendbuf, a.sendcounts, a.sdispls, a.sendtype, a.recvbuf, a.recvcounts, a.rdispls,
                                 a.recvtype, a.comm);
        if (form == Form::nonblocking)
            return MPI_Ialltoallv(a.sendbuf, a.sendcounts, a.sdispls, a.sendtype, a.recvbuf, a.recvcounts, a.rdispls,
                                  a.recvtype, a.comm, request);
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        return MPI_Alltoallv_init(a.sendbuf, a.sendcounts, a.sdispls, a.sendtype, a.recvbuf, a.recvcounts,
                                  a.rdispls, a.recvtype, a.comm, MPI_INFO_NULL, request);
#endif
        break;
    case Collective::alltoallw:
        if (form == Form::blocking)
            return MPI_Alltoallw(a.sendbuf, a.sendcounts, a.sdispls, a.sendtypes, a.recvbuf, a.recvcounts,
                                 a.rdispls, a.recvtypes, a.comm);
        if (form == Form::nonblocking)
            return MPI_Ialltoallw(a.sendbuf, a.sendcounts, a.sdispls, a.sendtypes, a.recvbuf, a.recvcounts,
                                  a.rdispls, a.recvtypes, a.comm, request);
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        return MPI_Alltoallw_init(a.sendbuf, a.sendcounts, a.sdispls, a.sendtypes, a.recvbuf, a.recvcounts,
                                  a.rdispls, a.recvtypes, a.comm, MPI_INFO_NULL, request);
#endif
        break;
    }
    return MPI_ERR_OTHER;
}

// Never empty, so no MPI argument is a null pointer, also at degree 0.
template <class T>
std::vector<T> array_of(int size, T value) {
    return std::vector<T>(static_cast<std::size_t>(std::max(size, 1)), value);
}

}  // namespace


std::optional<Collective> parse_collective(std::string_view text) {
    for (const Collective collective : all_collectives)
        if (text == collective_name(collective)) return collective;
    return std::nullopt;
}

std::optional<Form> parse_form(std::string_view text) {
    for (const Form form : {Form::blocking, Form::nonblocking, Form::persistent})
        if (text == form_name(form) && (form != Form::persistent || persistent_available)) return form;
    return std::nullopt;
}

NeighborExchange::NeighborExchange(MPI_Comm comm, Collective collective, Form form, int block_bytes, calls::Path path,
                                   Scope scope, const topology::EdgeBlocks& blocks)
    : comm_(comm), collective_(collective), form_(form), block_bytes_(block_bytes), path_(path), scope_(scope) {
    std::tie(in_degree_, out_degree_) = degrees(comm, scope);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const bool gather = collective == Collective::allgather || collective == Collective::allgatherv;
    const bool weighted = !blocks.destinations.empty() &&
                          (collective == Collective::alltoallv || collective == Collective::alltoallw);
    // Bytes per send block (one per destination, or one for all of them) and per received one.
    const auto bytes_of = [&](const std::vector<int>& edge_blocks, int edges) {
        std::vector<int> bytes = array_of(edges, block_bytes);
        if (weighted)
            for (int i = 0; i < edges; ++i) bytes[static_cast<std::size_t>(i)] = edge_blocks[static_cast<std::size_t>(i)] * block_bytes;
        return bytes;
    };
    send_counts_ = bytes_of(blocks.destinations, out_degree_);
    receive_counts_ = bytes_of(blocks.sources, in_degree_);
    send_displs_ = array_of(out_degree_, 0);
    receive_displs_ = array_of(in_degree_, 0);
    for (int i = 1; i < out_degree_; ++i) send_displs_[i] = send_displs_[i - 1] + send_counts_[i - 1];
    for (int i = 1; i < in_degree_; ++i) receive_displs_[i] = receive_displs_[i - 1] + receive_counts_[i - 1];
    send_byte_displs_.assign(send_displs_.begin(), send_displs_.end());
    receive_byte_displs_.assign(receive_displs_.begin(), receive_displs_.end());
    const int send_blocks = gather ? 1 : out_degree_;
    const int send_bytes = gather ? block_bytes : (out_degree_ > 0 ? send_displs_.back() + send_counts_.back() : 0);
    send_ = array_of<unsigned char>(send_bytes, 0);
    for (int b = 0; b < send_blocks; ++b)
        for (int j = 0; j < (gather ? block_bytes : send_counts_[b]); ++j)
            send_[static_cast<std::size_t>((gather ? 0 : send_displs_[b]) + j)] =
                payload_byte(rank, b, static_cast<std::size_t>(j));
    receive_ = array_of<unsigned char>(in_degree_ > 0 ? receive_displs_.back() + receive_counts_.back() : 0, 0);
    send_types_ = array_of<MPI_Datatype>(out_degree_, MPI_BYTE);
    receive_types_ = array_of<MPI_Datatype>(in_degree_, MPI_BYTE);

    if (form == Form::persistent) issue();
}

NeighborExchange::~NeighborExchange() {
    if (request_ != MPI_REQUEST_NULL) MPI_Request_free(&request_);
}

double NeighborExchange::bytes_per_call() const {
    const bool gather = collective_ == Collective::allgather || collective_ == Collective::allgatherv;
    if (gather || out_degree_ == 0) return static_cast<double>(out_degree_) * block_bytes_;
    return static_cast<double>(send_displs_.back()) + send_counts_.back();
}

void NeighborExchange::run() {
    switch (form_) {
    case Form::blocking:
        issue();
        return;
    case Form::nonblocking:
        issue();
        MPI_Wait(&request_, MPI_STATUS_IGNORE);
        return;
    case Form::persistent:
        MPI_Start(&request_);
        MPI_Wait(&request_, MPI_STATUS_IGNORE);
        return;
    }
}

void NeighborExchange::issue() {
    if (scope_ == Scope::global)
        call_global(arguments(), collective_, form_, &request_);
    else
        arguments().call(path_, collective_, form_, &request_);
}

void NeighborExchange::scramble_received() { std::ranges::fill(receive_, scrambled); }

calls::NeighborArguments<> NeighborExchange::arguments() {
    return {.sendbuf = send_.data(),
            .sendcount = block_bytes_,
            .sendcounts = send_counts_.data(),
            .sdispls = send_displs_.data(),
            .byte_sdispls = send_byte_displs_.data(),
            .sendtype = MPI_BYTE,
            .sendtypes = send_types_.data(),
            .recvbuf = receive_.data(),
            .recvcount = block_bytes_,
            .recvcounts = receive_counts_.data(),
            .displs = receive_displs_.data(),
            .rdispls = receive_displs_.data(),
            .byte_rdispls = receive_byte_displs_.data(),
            .recvtype = MPI_BYTE,
            .recvtypes = receive_types_.data(),
            .comm = comm_};
}

}  // namespace nbrcomb::bench
