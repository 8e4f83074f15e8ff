#include "differential.h"

#include "all_ranks.h"
#include "mix.h"
#include "topologies.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace nbrcomb::test {

namespace {

template <class T>
const T* array_argument(const std::vector<T>& values, bool null) {
    return null ? nullptr : values.data();
}

// Where the block of edge i on one side of call lies, and what it holds, as the call's
// arguments say.
struct EdgeBlock {
    MPI_Aint offset;
    int count;
    MPI_Datatype type;
};

EdgeBlock edge_block(const Call& call, bool send_side, std::size_t i) {
    const Side& side = send_side ? call.send : call.recv;
    switch (call.collective) {
    case Collective::allgather:
    case Collective::alltoall: {
        const bool one_block = send_side && call.collective == Collective::allgather;
        const MPI_Aint stride = one_block ? 0 : side.count * extent_of(side.type);
        return {static_cast<MPI_Aint>(i) * stride, side.count, side.type};
    }
    case Collective::allgatherv:
        if (send_side) return {0, side.count, side.type};
        [[fallthrough]];
    case Collective::alltoallv: return {side.displs[i] * extent_of(side.type), side.counts[i], side.type};
    case Collective::alltoallw: return {side.byte_displs[i], side.counts[i], side.types[i]};
    }
    return {0, 0, MPI_BYTE};
}

// The reference: one message per block, tagged with the number both ends give its edge, so
// that it meets the block the standard pairs it with. comm has the ranks of call.comm and none
// of the receives a test may leave pending there; MPI_PROC_NULL ends send and receive nothing.
int reference(const Call& call, MPI_Comm comm, const void* sendbuf, void* recvbuf) {
    std::vector<MPI_Request> requests;
    for (std::size_t j = 0; j < call.destinations.size(); ++j) {
        const EdgeBlock block = edge_block(call, true, j);
        MPI_Isend(static_cast<const std::byte*>(sendbuf) + block.offset, block.count, block.type, call.destinations[j],
                  call.destination_edges[j], comm, &requests.emplace_back());
    }
    for (std::size_t i = 0; i < call.sources.size(); ++i) {
        const EdgeBlock block = edge_block(call, false, i);
        MPI_Irecv(static_cast<std::byte*>(recvbuf) + block.offset, block.count, block.type, call.sources[i],
                  call.source_edges[i], comm, &requests.emplace_back());
    }
    return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

// One side's per-edge arrays as a form takes them: counts as Count, the v forms' displacements
// as Displ (widened for the large-count forms); null where the call passes null.
template <class Count, class Displ>
struct SideArrays {
    explicit SideArrays(const Side& side)
        : counts(side.counts.begin(), side.counts.end()), displs(side.displs.begin(), side.displs.end()), side(side) {}
    const Count* count_array() const { return array_argument(counts, side.null_counts); }
    const Displ* displ_array() const { return array_argument(displs, side.null_displs); }
    std::vector<Count> counts;
    std::vector<Displ> displs;
    const Side& side;
};

// Issues call in form along path, with Count and Displ for its counts and displacements.
template <class Count, class Displ>
int call_with(Path path, Form form, const Call& call, const void* sendbuf, void* recvbuf,
              MPI_Request* request = nullptr) {
    const Side& s = call.send;
    const Side& r = call.recv;
    const SideArrays<Count, Displ> sa(s), ra(r);
    const calls::NeighborArguments<Count, Displ> arguments{
        .sendbuf = s.in_place ? MPI_IN_PLACE : sendbuf,
        .sendcount = s.count,
        .sendcounts = sa.count_array(),
        .sdispls = sa.displ_array(),
        .byte_sdispls = array_argument(s.byte_displs, s.null_displs),
        .sendtype = s.type,
        .sendtypes = array_argument(s.types, s.null_types),
        .recvbuf = r.in_place ? MPI_IN_PLACE : recvbuf,
        .recvcount = r.count,
        .recvcounts = ra.count_array(),
        .displs = ra.displ_array(),
        .rdispls = ra.displ_array(),
        .byte_rdispls = array_argument(r.byte_displs, r.null_displs),
        .recvtype = r.type,
        .recvtypes = array_argument(r.types, r.null_types),
        .comm = call.comm};
    return arguments.call(path, call.collective, form, request);
}

// Completion goes through MPI_ or PMPI_ like the call, so native runs never touch the library.
int wait(Path path, MPI_Request& request) {
    return path == Path::library ? MPI_Wait(&request, MPI_STATUS_IGNORE) : PMPI_Wait(&request, MPI_STATUS_IGNORE);
}

#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
int start(Path path, MPI_Request& request) { return path == Path::library ? MPI_Start(&request) : PMPI_Start(&request); }

int free_request(Path path, MPI_Request& request) {
    return path == Path::library ? MPI_Request_free(&request) : PMPI_Request_free(&request);
}
#endif

template <class Count, class Displ>
int start_twice(Path path, const Call& call, const void* sendbuf, void* recvbuf, Outcome& outcome) {
#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
    MPI_Request request = MPI_REQUEST_NULL;
    if (const int err = call_with<Count, Displ>(path, Form::persistent, call, sendbuf, recvbuf, &request);
        err != MPI_SUCCESS)
        return err;
    int err = start(path, request);
    if (err == MPI_SUCCESS) err = wait(path, request);
    const std::vector<std::byte> first = outcome.recv_bytes;
    std::ranges::copy(call.recv_bytes, outcome.recv_bytes.begin());  // with a shared buffer, its send data too
    if (err == MPI_SUCCESS) err = start(path, request);
    if (err == MPI_SUCCESS) err = wait(path, request);
    outcome.starts_disagree = first != outcome.recv_bytes;
    const int freed = free_request(path, request);
    return err != MPI_SUCCESS ? err : freed;
#else
    (void)path, (void)call, (void)sendbuf, (void)recvbuf, (void)outcome;
    return MPI_ERR_OTHER;
#endif
}

template <class Count, class Displ>
int invoke_with(Path path, const Call& call, const void* sendbuf, void* recvbuf, Outcome& outcome) {
    switch (call.form) {
    case Form::blocking: return call_with<Count, Displ>(path, Form::blocking, call, sendbuf, recvbuf);
    case Form::nonblocking: {
        MPI_Request request = MPI_REQUEST_NULL;
        const int err = call_with<Count, Displ>(path, Form::nonblocking, call, sendbuf, recvbuf, &request);
        return err != MPI_SUCCESS ? err : wait(path, request);
    }
    case Form::persistent: return start_twice<Count, Displ>(path, call, sendbuf, recvbuf, outcome);
    }
    return MPI_ERR_OTHER;
}

int invoke(Path path, const Call& call, const void* sendbuf, void* recvbuf, Outcome& outcome) {
#if NBRCOMB_MPI_LARGE_COUNT
    if (call.large_count) return invoke_with<MPI_Count, MPI_Aint>(path, call, sendbuf, recvbuf, outcome);
#endif
    return invoke_with<int, int>(path, call, sendbuf, recvbuf, outcome);
}

// The library's start of call (MPI_Ineighbor_*, or MPI_Neighbor_*_init without the start).
template <class Count, class Displ>
int start_with(const Call& call, const void* sendbuf, void* recvbuf, MPI_Request& request) {
    if (call.form == Form::blocking) return MPI_ERR_OTHER;
    return call_with<Count, Displ>(Path::library, call.form, call, sendbuf, recvbuf, &request);
}

// Runs one way of doing call on fresh copies of its buffers.
template <class Way>
Outcome run_on_copies(const Call& call, Way way) {
    Outcome outcome{MPI_SUCCESS, call.send_bytes, call.recv_bytes};
    void* recvbuf = outcome.recv_bytes.data();
    const void* sendbuf = call.same_buffer ? recvbuf : outcome.send_bytes.data();
    outcome.code = way(sendbuf, recvbuf, outcome);
    return outcome;
}

// Eight bytes per hash: the send data of rank, and the sentinels every receive buffer starts with.
std::byte data_byte(int rank, std::size_t i) { return std::byte(mix(rank, i / 8, 1) >> (i % 8 * 8) & 0xff); }
std::byte sentinel_byte(std::size_t i) { return std::byte(mix(i / 8, 2) >> (i % 8 * 8) & 0xff); }

// Room after the last block, so that writes past it show.
constexpr MPI_Aint tail_bytes = 16;

MPI_Aint round_up(MPI_Aint value, MPI_Aint unit) { return (value + unit - 1) / unit * unit; }

// allgather and alltoall: the bytes n blocks take, one every stride bytes.
MPI_Aint strided_size(std::size_t n, MPI_Aint stride, MPI_Aint span) {
    return n == 0 ? 0 : static_cast<MPI_Aint>(n - 1) * stride + span;
}

// Where the blocks of one side of a v or w form lie, in bytes from the buffer start.
struct Blocks {
    std::vector<MPI_Aint> begin;
    MPI_Aint size = 0;  // bytes up to the end of the last block
};

// v and w forms: from base on, each block after a gap of one or two units, in reverse
// neighbor order if asked; every offset is a multiple of unit.
Blocks placed_blocks(const std::vector<MPI_Aint>& spans, MPI_Aint unit, bool reverse, MPI_Aint base) {
    Blocks blocks{std::vector<MPI_Aint>(spans.size()), base};
    for (std::size_t n = 0; n < spans.size(); ++n) {
        const std::size_t i = reverse ? spans.size() - 1 - n : n;
        blocks.begin[i] = round_up(blocks.size, unit) + unit * static_cast<MPI_Aint>(1 + n % 2);
        blocks.size = blocks.begin[i] + spans[i];
    }
    return blocks;
}

// Units on edge k of those u→v (Neighborhood), and the types it uses: both ends compute the same.
int edge_units(const Shape& shape, int u, int v, int k) {
    return shape.vary ? static_cast<int>(mix(u, v, k, 3) % static_cast<std::uint64_t>(shape.units + 1)) : shape.units;
}
// allgatherv: what u sends to all its destinations.
int rank_units(const Shape& shape, int u) {
    return shape.vary ? static_cast<int>(mix(u, 4) % static_cast<std::uint64_t>(shape.units + 1)) : shape.units;
}
const TypePair& edge_types(const Shape& shape, const TypeCatalog& catalog, int u, int v, int k) {
    return shape.mixed_types ? catalog.pairs()[mix(u, v, k, 5) % catalog.pairs().size()] : *shape.types;
}

// Per-edge counts and displacements of a v side with one type; returns the bytes it takes.
MPI_Aint set_v_side(Side& side, MPI_Datatype type, std::vector<int> counts, bool reverse, MPI_Aint base) {
    const MPI_Aint extent = extent_of(type);
    std::vector<MPI_Aint> spans;
    for (const int count : counts) spans.push_back(span_of(type, count));
    const Blocks blocks = placed_blocks(spans, extent, reverse, base);
    side.type = type;
    side.counts = std::move(counts);
    for (const MPI_Aint begin : blocks.begin) side.displs.push_back(static_cast<int>(begin / extent));
    return blocks.size;
}

// Per-edge counts, byte displacements and types of a w side, blocks 8-byte aligned; returns
// the bytes it takes.
MPI_Aint set_w_side(Side& side, std::vector<MPI_Datatype> types, std::vector<int> counts, bool reverse, MPI_Aint base) {
    constexpr MPI_Aint alignment = 8;
    std::vector<MPI_Aint> spans;
    for (std::size_t i = 0; i < counts.size(); ++i) spans.push_back(span_of(types[i], counts[i]));
    const Blocks blocks = placed_blocks(spans, alignment, reverse, base);
    side.types = std::move(types);
    side.counts = std::move(counts);
    side.byte_displs = blocks.begin;
    return blocks.size;
}

// The spare entries that keep a side's per-edge arrays non-NULL at degree 0.
void add_spare_entries(Side& side, Collective collective) {
    side.counts.push_back(0);
    if (collective == Collective::alltoallw) {
        side.byte_displs.push_back(0);
        side.types.push_back(MPI_BYTE);
    } else {
        side.displs.push_back(0);
    }
}

std::string class_text(int code) {
    const int error = error_class(code);
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(error, text, &length);
    return "class " + std::to_string(error) + " (" + std::string(text, static_cast<std::size_t>(length)) + ")";
}

// Which in-edge's receive block holds byte i, in words.
std::string where_in_blocks(const Call& call, std::size_t i) {
    const auto byte = static_cast<MPI_Aint>(i);
    for (std::size_t b = 0; b < call.sources.size(); ++b) {
        const EdgeBlock block = edge_block(call, false, b);
        if (block.offset <= byte && byte < block.offset + span_of(block.type, block.count))
            return "in block " + std::to_string(b) + " (from source " + std::to_string(call.sources[b]) + ") at byte " +
                   std::to_string(byte - block.offset);
    }
    return "outside the receive blocks";
}

// "" if the buffers are equal, else how many bytes differ and where the first one lies.
std::string buffer_difference(const Call& call, const std::vector<std::byte>& library,
                              const std::vector<std::byte>& expected, std::string_view expected_name) {
    std::size_t differing = 0, first = 0;
    for (std::size_t i = library.size(); i-- > 0;)
        if (library[i] != expected[i]) {
            ++differing;
            first = i;
        }
    if (differing == 0) return {};
    char values[96];
    std::snprintf(values, sizeof values, ": library 0x%02x, %.*s 0x%02x, before the call 0x%02x",
                  static_cast<unsigned>(library[first]), static_cast<int>(expected_name.size()), expected_name.data(),
                  static_cast<unsigned>(expected[first]), static_cast<unsigned>(call.recv_bytes[first]));
    return std::to_string(differing) + " of " + std::to_string(library.size()) + " receive-buffer bytes differ from " +
           std::string(expected_name) + ", the first at byte " + std::to_string(first) + " " +
           where_in_blocks(call, first) + values;
}

// "" if the library changed no receive-buffer byte outside the blocks erroneous call
// describes; an edge whose block cannot be told (a NULL array, MPI_DATATYPE_NULL, a negative
// count) may receive nothing.
std::string stray_write(const Call& call, const Outcome& library) {
    const Side& recv = call.recv;
    std::vector<bool> inside(call.recv_bytes.size(), false);
    for (std::size_t i = 0; i < call.sources.size(); ++i) {
        if (recv.in_place || recv.null_counts || recv.null_displs || recv.null_types) break;
        const bool typed = !recv.types.empty();
        if ((typed ? recv.types[i] : recv.type) == MPI_DATATYPE_NULL) continue;
        const EdgeBlock block = edge_block(call, false, i);
        if (block.count <= 0) continue;
        const auto end =
            std::min(block.offset + span_of(block.type, block.count), static_cast<MPI_Aint>(inside.size()));
        for (MPI_Aint b = block.offset; b < end; ++b) inside[static_cast<std::size_t>(b)] = true;
    }
    for (std::size_t i = 0; i < inside.size(); ++i)
        if (!inside[i] && library.recv_bytes[i] != call.recv_bytes[i])
            return "the library wrote receive-buffer byte " + std::to_string(i) + ", outside the blocks of the call";
    return {};
}

// "" if the library's outcome of call is the expected one.
std::string outcome_problem(const Call& call, const Outcome& library, const Outcome& expected,
                            std::string_view expected_name) {
    if (expected.code != MPI_SUCCESS)
        return std::string(expected_name) + " rejects the call: " + class_text(expected.code);
    if (library.code != MPI_SUCCESS)
        return "the library fails where " + std::string(expected_name) + " succeeds: " + class_text(library.code);
    if (!call.same_buffer && library.send_bytes != call.send_bytes) return "the library wrote to the send buffer";
    if (library.starts_disagree) return "the two starts of the persistent request left different receive buffers";
    return buffer_difference(call, library.recv_bytes, expected.recv_bytes, expected_name);
}

// Collective: for each check, whether native MPI can be trusted with its call. MPICH 4.0
// misplaces repeated edges of distributed graphs and graphs (and with per-edge types crashes
// on them) and the blocks of a process that is a Cartesian neighbor twice (with some types and
// counts), and its neighbor alltoallw delivers nothing on some graphs (a lone edge 0→1 already)
// and differs from one call to the next on others; where the library leaves such a call to
// native MPI, there is nothing to compare.
std::vector<int> trust_native(const std::vector<Check>& checks) {
    std::vector<int> trusted(checks.size(), 1);
#ifndef OPEN_MPI
    const auto repeats = [](std::vector<int> peers) {
        std::erase(peers, MPI_PROC_NULL);
        return std::ranges::any_of(occurrence_indices(peers), [](int k) { return k > 0; });
    };
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const Call& call = checks[i].call;
        trusted[i] = call.collective != Collective::alltoallw && !repeats(call.sources) && !repeats(call.destinations);
    }
    MPI_Allreduce(MPI_IN_PLACE, trusted.data(), static_cast<int>(trusted.size()), MPI_INT, MPI_LAND, MPI_COMM_WORLD);
#endif
    return trusted;
}

using StatsFunction = decltype(&nbrcomb_comm_stats_sized);

StatsFunction stats_function() {
    static const auto function = reinterpret_cast<StatsFunction>(dlsym(RTLD_DEFAULT, "nbrcomb_comm_stats_sized"));
    return function;
}

// "" if the library ran the call (or left it to native MPI) as expected.
std::string library_use_problem(Expect expect, int rc_before, const nbrcomb_stats& before, int rc_after,
                                const nbrcomb_stats& after) {
    if (expect == Expect::native_runs)
        return rc_after == MPI_ERR_COMM
                   ? ""
                   : "nbrcomb_comm_stats does not return MPI_ERR_COMM on a communicator the library must leave alone";
    if (rc_before != MPI_SUCCESS || rc_after != MPI_SUCCESS)
        return "the library does not manage the communicator (nbrcomb_comm_stats: " + class_text(rc_after) + ")";
    if (expect == Expect::any_route) return {};
    if (after.calls <= before.calls)
        return "the library did not run the call itself (stats.calls stayed at " + std::to_string(after.calls) + ")";
    return {};
}

// The same call, blocking: the form native results are taken from.
Call blocking(Call call) {
    call.form = Form::blocking;
    return call;
}

// Says which native results could not serve as the reference, so a pass on MPICH is read right.
void note_untrusted(const std::vector<Check>& checks, const std::vector<int>& trusted, Expect expect) {
    std::string calls;
    std::size_t untrusted = 0;
    for (std::size_t i = 0; i < checks.size(); ++i) {
        if (trusted[i]) continue;
        const std::string call = std::string(name_of(checks[i].call.form)) + " " + name_of(checks[i].call.collective);
        if (calls.find(call) == std::string::npos) calls += (calls.empty() ? "" : ", ") + call;
        ++untrusted;
    }
    if (untrusted == 0 || rank_of(MPI_COMM_WORLD) != 0) return;
    std::printf("[ note     ] %zu of %zu calls (%s) %s: native MPI is known wrong for them (repeated edges, "
                "alltoallw)\n",
                untrusted, checks.size(), calls.c_str(),
                expect != Expect::native_runs ? "compared with one point-to-point message per edge"
                                               : "left to native MPI, not compared");
}

}  // namespace

std::string Shape::describe() const {
    std::string text = (mixed_types ? std::string("mixed types") : types->name) + ", " + std::to_string(units) +
                       (vary ? " units at most" : " units");
    if (reverse) text += ", reverse order";
    if (same_buffer) text += ", one buffer";
    return text;
}

Call make_call(Collective collective, MPI_Comm comm, const TypeCatalog& catalog, const Shape& shape) {
    const int rank = rank_of(comm);
    const Neighborhood neighbors = neighborhood_of(comm);
    const std::vector<int>& sources = neighbors.sources;
    const std::vector<int>& destinations = neighbors.destinations;
    const std::vector<int>& in_edge = neighbors.source_edges;
    const std::vector<int>& out_edge = neighbors.destination_edges;

    Call call;
    call.collective = collective;
    call.comm = comm;
    call.same_buffer = shape.same_buffer && has_edge_arrays(collective);
    call.sources = sources;
    call.destinations = destinations;
    call.source_edges = in_edge;
    call.destination_edges = out_edge;
    Side& send = call.send;
    Side& recv = call.recv;

    MPI_Aint send_size = 0, recv_size = 0;
    const auto recv_base = [&] { return call.same_buffer ? send_size : 0; };
    switch (collective) {
    case Collective::allgather:
    case Collective::alltoall: {
        const TypePair& pair = *shape.types;
        send = {.count = shape.units * pair.send_per_unit, .type = pair.send};
        recv = {.count = shape.units * pair.recv_per_unit, .type = pair.recv};
        const std::size_t send_block_count = collective == Collective::alltoall ? destinations.size() : 1;
        send_size = strided_size(send_block_count, send.count * extent_of(send.type), span_of(send.type, send.count));
        recv_size = strided_size(sources.size(), recv.count * extent_of(recv.type), span_of(recv.type, recv.count));
        break;
    }
    case Collective::allgatherv: {
        const TypePair& pair = *shape.types;
        send = {.count = rank_units(shape, rank) * pair.send_per_unit, .type = pair.send};
        send_size = span_of(send.type, send.count);
        std::vector<int> counts;
        for (const int source : sources) counts.push_back(rank_units(shape, source) * pair.recv_per_unit);
        recv_size = set_v_side(recv, pair.recv, std::move(counts), shape.reverse, recv_base());
        break;
    }
    case Collective::alltoallv: {
        const TypePair& pair = *shape.types;
        std::vector<int> send_counts, recv_counts;
        for (std::size_t j = 0; j < destinations.size(); ++j)
            send_counts.push_back(edge_units(shape, rank, destinations[j], out_edge[j]) * pair.send_per_unit);
        for (std::size_t i = 0; i < sources.size(); ++i)
            recv_counts.push_back(edge_units(shape, sources[i], rank, in_edge[i]) * pair.recv_per_unit);
        send_size = set_v_side(send, pair.send, std::move(send_counts), shape.reverse, 0);
        recv_size = set_v_side(recv, pair.recv, std::move(recv_counts), shape.reverse, recv_base());
        break;
    }
    case Collective::alltoallw: {
        std::vector<int> send_counts, recv_counts;
        std::vector<MPI_Datatype> send_types, recv_types;
        for (std::size_t j = 0; j < destinations.size(); ++j) {
            const TypePair& pair = edge_types(shape, catalog, rank, destinations[j], out_edge[j]);
            send_counts.push_back(edge_units(shape, rank, destinations[j], out_edge[j]) * pair.send_per_unit);
            send_types.push_back(pair.send);
        }
        for (std::size_t i = 0; i < sources.size(); ++i) {
            const TypePair& pair = edge_types(shape, catalog, sources[i], rank, in_edge[i]);
            recv_counts.push_back(edge_units(shape, sources[i], rank, in_edge[i]) * pair.recv_per_unit);
            recv_types.push_back(pair.recv);
        }
        send_size = set_w_side(send, std::move(send_types), std::move(send_counts), shape.reverse, 0);
        recv_size = set_w_side(recv, std::move(recv_types), std::move(recv_counts), shape.reverse, recv_base());
        break;
    }
    }
    if (has_edge_arrays(collective)) {
        if (collective != Collective::allgatherv) add_spare_entries(send, collective);
        add_spare_entries(recv, collective);
    }

    call.recv_bytes.resize(static_cast<std::size_t>(std::max(recv_size, send_size) + tail_bytes));
    for (std::size_t i = 0; i < call.recv_bytes.size(); ++i) call.recv_bytes[i] = sentinel_byte(i);
    std::vector<std::byte>& data = call.same_buffer ? call.recv_bytes : call.send_bytes;
    if (!call.same_buffer) data.resize(static_cast<std::size_t>(send_size + tail_bytes));
    for (std::size_t i = 0; i < static_cast<std::size_t>(send_size); ++i) data[i] = data_byte(rank, i);
    return call;
}

Outcome run(Path path, const Call& call) {
    return run_on_copies(call, [&](const void* sendbuf, void* recvbuf, Outcome& outcome) {
        return invoke(path, call, sendbuf, recvbuf, outcome);
    });
}

namespace {

// The expected outcome of calls: native MPI's blocking call, or where native MPI is not trusted
// the point-to-point reference, on a split of the call's communicator made once.
class Expectations {
public:
    Outcome of(const Call& call, bool trusted) {
        if (trusted) return run(Path::native, blocking(call));
        Comm& comm = reference_comms_[call.comm];
        if (comm == MPI_COMM_NULL) {
            MPI_Comm split = MPI_COMM_NULL;
            MPI_Comm_split(call.comm, 0, rank_of(call.comm), &split);
            comm = Comm(split);
        }
        return run_on_copies(call, [&](const void* sendbuf, void* recvbuf, Outcome&) {
            return reference(call, comm, sendbuf, recvbuf);
        });
    }

private:
    std::map<MPI_Comm, Comm> reference_comms_;
};

std::string describe(const Call& call, std::string_view what, const std::string& problem) {
    return std::string(name_of(call.form)) + (call.large_count ? " large-count " : " ") + name_of(call.collective) +
           ", " + std::string(what) + ": " + problem;
}

}  // namespace

bool expect_matches_native(const std::vector<Check>& checks, Expect expect, std::source_location where) {
    if (!expect_library_loaded(where)) return false;
    const std::vector<int> trusted = trust_native(checks);
    Expectations expectations;
    std::string first_problem;
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const Call& call = checks[i].call;
        nbrcomb_stats before{}, after{};
        const int rc_before = comm_stats(call.comm, before);
        const Outcome library = run(Path::library, call);
        const int rc_after = comm_stats(call.comm, after);
        // Left to a native MPI known wrong, the call has nothing to be compared with; the library
        // never leaves a call it manages to such an MPI.
        const bool comparable = trusted[i] || expect != Expect::native_runs;
        const Outcome expected = comparable ? expectations.of(call, trusted[i]) : Outcome{};
        std::string problem = library_use_problem(expect, rc_before, before, rc_after, after);
        if (problem.empty() && comparable)
            problem = outcome_problem(call, library, expected, trusted[i] ? "native" : "the reference");
        if (first_problem.empty() && !problem.empty()) first_problem = describe(call, checks[i].what, problem);
    }
    note_untrusted(checks, trusted, expect);
    return expect_all_ranks(first_problem.empty(), first_problem, MPI_COMM_WORLD, where);
}

Outcome fresh_buffers(const Call& call) { return {MPI_SUCCESS, call.send_bytes, call.recv_bytes}; }

int start_library_call(const Call& call, Outcome& buffers, MPI_Request& request) {
    void* recvbuf = buffers.recv_bytes.data();
    const void* sendbuf = call.same_buffer ? recvbuf : buffers.send_bytes.data();
#if NBRCOMB_MPI_LARGE_COUNT
    if (call.large_count) return start_with<MPI_Count, MPI_Aint>(call, sendbuf, recvbuf, request);
#endif
    return start_with<int, int>(call, sendbuf, recvbuf, request);
}

std::string difference_from_native(const Call& call, const Outcome& buffers) {
    const std::vector<int> trusted = trust_native({{call, ""}});
    return outcome_problem(call, buffers, Expectations().of(call, trusted[0] != 0), trusted[0] ? "native" : "the reference");
}

bool native_known_wrong(const Call& call) { return trust_native({{call, ""}})[0] == 0; }

bool expect_matches_native(const Call& call, std::string_view what, Expect expect, std::source_location where) {
    return expect_matches_native({{call, std::string(what)}}, expect, where);
}

bool expect_all_collectives_match_native(MPI_Comm comm, const TypeCatalog& catalog, const Shape& shape,
                                         std::string_view what, Expect expect, std::source_location where) {
    std::vector<Check> checks;
    for (const Collective collective : all_collectives)
        checks.push_back({make_call(collective, comm, catalog, shape), std::string(what)});
    return expect_matches_native(checks, expect, where);
}

bool expect_same_error(const Call& call, std::string_view what, bool same_class, std::source_location where) {
    if (!expect_library_loaded(where)) return false;
    const Outcome library = run(Path::library, call);
    const Outcome native = run(Path::native, call);
    const bool agree = same_class ? error_class(library.code) == error_class(native.code)
                                  : library.code != MPI_SUCCESS || native.code == MPI_SUCCESS;
    std::string problem = stray_write(call, library);
    if (problem.empty() && !agree)
        problem = "the library returns " + class_text(library.code) + ", native MPI " + class_text(native.code);
    return expect_all_ranks(problem.empty(), describe(call, what, problem), MPI_COMM_WORLD, where);
}

bool expect_library_fails(const Call& call, std::string_view what, std::source_location where) {
    if (!expect_library_loaded(where)) return false;
    const Outcome library = run(Path::library, call);
    std::string problem = stray_write(call, library);
    if (problem.empty() && library.code == MPI_SUCCESS) problem = "the library returns MPI_SUCCESS";
    return expect_all_ranks(problem.empty(), describe(call, what, problem), MPI_COMM_WORLD, where);
}

bool library_loaded() { return stats_function() != nullptr; }

bool expect_library_loaded(std::source_location where) {
    // Without it the MPI_ names are native MPI too, and every comparison would hold.
    return expect_all_ranks(library_loaded(), "libnbrcomb is not loaded (no nbrcomb_comm_stats)", MPI_COMM_WORLD,
                            where);
}

int comm_stats(MPI_Comm comm, nbrcomb_stats& stats) {
    const StatsFunction function = stats_function();
    return function ? function(comm, &stats, sizeof stats) : MPI_ERR_OTHER;
}

int comm_reset_stats(MPI_Comm comm) {
    using ResetFunction = decltype(&nbrcomb_comm_reset_stats);
    static const auto function = reinterpret_cast<ResetFunction>(dlsym(RTLD_DEFAULT, "nbrcomb_comm_reset_stats"));
    return function ? function(comm) : MPI_ERR_OTHER;
}

}  // namespace nbrcomb::test
