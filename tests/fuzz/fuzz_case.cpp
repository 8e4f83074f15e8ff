#include "fuzz_case.h"

#include "native_quirks.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>

namespace nbrcomb::fuzz {

namespace {

// What keyed draws are about, so that draws about different things never share a stream.
enum Topic : std::uint64_t {
    send_repeats_topic = 1,
    recv_repeats_topic,
    process_units_topic,
    edge_units_topic,
    edge_unit_topic,
    layout_topic,
    fill_topic,
    wait_topic,
    timing_topic
};

constexpr int reference_tag = 7;

std::uint64_t u64(int value) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(value)); }

std::string error_text(int code) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    return text;
}

std::string hex(std::byte value) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02x", static_cast<unsigned>(value));
    return text;
}

// For each entry of peers, how many earlier entries name the same peer: both ends of a repeated
// edge number it alike.
std::vector<int> occurrences(const std::vector<int>& peers) {
    std::vector<int> result;
    for (std::size_t i = 0; i < peers.size(); ++i)
        result.push_back(
            static_cast<int>(std::count(peers.begin(), peers.begin() + static_cast<std::ptrdiff_t>(i), peers[i])));
    return result;
}

// ---- What both ends of an edge derive alike ----

// How many units one element of process's type on one side carries: 1..4, a divisor of
// block_units where the collective fixes the block (allgather, alltoall).
int repeats_of(const OpSpec& op, Topic side, int process) {
    const bool fixed_block = op.collective == Collective::allgather || op.collective == Collective::alltoall;
    std::vector<int> choices;
    for (int repeats = 1; repeats <= 4; ++repeats)
        if (!fixed_block || op.block_units == 0 || op.block_units % repeats == 0) choices.push_back(repeats);
    Random random{op.key, side, u64(process)};
    return random.pick(choices);
}

// The units process sends to all its destinations in allgatherv: a multiple of what one
// element of its send type and of each destination's receive type carries.
int allgatherv_units(const OpSpec& op, const Graph& graph, int process) {
    int granule = repeats_of(op, send_repeats_topic, process);
    for (const int destination : graph.out[process])
        granule = std::lcm(granule, repeats_of(op, recv_repeats_topic, destination));
    Random random{op.key, process_units_topic, u64(process)};
    return random.between(0, 3) * granule;
}

// What the k-th edge from -> to carries.
struct EdgeShape {
    Signature unit;
    int send_repeats = 1;  // units per element of the sender's type
    int recv_repeats = 1;  // units per element of the receiver's type
    int units = 0;
};

EdgeShape edge_shape(const CaseSpec& spec, const OpSpec& op, int from, int to, int k) {
    EdgeShape shape;
    Random edge{op.key, edge_units_topic, u64(from), u64(to), u64(k)};
    if (op.collective == Collective::alltoallw) {
        Random unit{op.key, edge_unit_topic, u64(from), u64(to), u64(k)};
        shape.unit = random_signature(unit);
        shape.send_repeats = edge.between(1, 4);
        shape.recv_repeats = edge.between(1, 4);
        shape.units = edge.between(0, 3) * std::lcm(shape.send_repeats, shape.recv_repeats);
        return shape;
    }
    shape.unit = op.unit;
    shape.send_repeats = repeats_of(op, send_repeats_topic, from);
    shape.recv_repeats = repeats_of(op, recv_repeats_topic, to);
    switch (op.collective) {
        case Collective::allgather:
        case Collective::alltoall:
            shape.units = op.block_units;
            break;
        case Collective::allgatherv:
            shape.units = allgatherv_units(op, spec.graph, from);
            break;
        default:
            shape.units = edge.between(0, 3) * std::lcm(shape.send_repeats, shape.recv_repeats);
            break;
    }
    return shape;
}

// ---- One rank's side of an operation ----

// count elements of type at origin bytes from the buffer's address.
struct Block {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int count = 0;
    MPI_Aint origin = 0;
};

// Bytes around the address passed to MPI: a type may reach below it (negative displacements).
struct Buffer {
    std::vector<std::byte> bytes;
    MPI_Aint base = 0;  // index of the address
    std::byte* address() { return bytes.data() + base; }
};

// A buffer that holds the blocks with a margin of 8 to 24 bytes on either side.
Buffer buffer_for(const std::vector<Block>& blocks, Random& random) {
    MPI_Aint low = 0, high = 0;
    for (const Block& block : blocks) {
        const Span span = span_of(block.type, block.count);
        if (span.low == span.high) continue;
        low = std::min(low, block.origin + span.low);
        high = std::max(high, block.origin + span.high);
    }
    Buffer buffer;
    buffer.base = round_up(random.between(1, 3) * 8 - low, 8);
    buffer.bytes.resize(static_cast<std::size_t>(buffer.base + high + random.between(1, 3) * 8));
    return buffer;
}

// Origins, multiples of granule, that lay the blocks apart in a random order with random gaps;
// on the send side a block may lie on an earlier one (the same bytes sent twice).
void place_blocks(std::vector<Block>& blocks, MPI_Aint granule, Side side, Random& random) {
    std::vector<std::size_t> order(blocks.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    random.shuffle(order);
    MPI_Aint cursor = 0;
    std::vector<std::size_t> placed;
    for (const std::size_t i : order) {
        const Span span = span_of(blocks[i].type, blocks[i].count);
        if (side == Side::send && !placed.empty() && random.chance(1, 8)) {
            blocks[i].origin = blocks[random.pick(placed)].origin;
        } else {
            blocks[i].origin = round_up(cursor + random.below(3) * 8 - span.low, granule);
            cursor = std::max(cursor, blocks[i].origin + span.high);
        }
        placed.push_back(i);
    }
}

// The datatype arguments of a call.
struct CallTypes {
    MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
    std::vector<MPI_Datatype> sends, recvs;  // alltoallw, one spare entry each
};

bool is_derived(MPI_Datatype type) {
    int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
    MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner);
    return combiner != MPI_COMBINER_NAMED;
}

// types with every type replaced by another of the same type map, which made lists for freeing:
// a duplicate (MPI_Type_dup, of a predefined type too), or a derived type's layout built again
// from its draws.
CallTypes replaced(const CallTypes& types, EarlyFree how, const std::vector<Layout>& layouts,
                   std::vector<MPI_Datatype>& made) {
    std::vector<std::pair<MPI_Datatype, MPI_Datatype>> replacements;  // one per type, however often named
    const auto replace = [&](MPI_Datatype type) {
        if (type == MPI_DATATYPE_NULL || (how == EarlyFree::remade && !is_derived(type))) return type;
        for (const auto& [original, replacement] : replacements)
            if (original == type) return replacement;
        MPI_Datatype copy = MPI_DATATYPE_NULL;
        if (how == EarlyFree::duplicates) {
            MPI_Type_dup(type, &copy);
        } else {
            const auto layout = std::ranges::find(layouts, type, &Layout::type);
            copy = remade_layout(*layout).type;
        }
        replacements.emplace_back(type, copy);
        made.push_back(copy);
        return copy;
    };
    CallTypes copy{replace(types.send), replace(types.recv), {}, {}};
    for (const MPI_Datatype type : types.sends) copy.sends.push_back(replace(type));
    for (const MPI_Datatype type : types.recvs) copy.recvs.push_back(replace(type));
    return copy;
}

struct Op {
    const OpSpec* spec = nullptr;
    int index = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<Layout> layouts;
    // The call's arguments; per-edge arrays carry one spare entry, so that they are never NULL
    // at degree 0 (Open MPI 4.1 rejects NULL there).
    int sendcount = 0, recvcount = 0;
    std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
    std::vector<MPI_Aint> byte_sdispls, byte_rdispls;
    CallTypes types;
    // What the call in flight was given: types, or others of the same type maps where they are
    // freed early; MPI reads its arrays until the operation completes.
    CallTypes in_flight;
    std::vector<Block> send_blocks, recv_blocks;  // per destination, per source
    Buffer send, sent, recv, expected;
    MPI_Request request = MPI_REQUEST_NULL;

    calls::NeighborArguments<> arguments(const CallTypes& call_types) {
        calls::NeighborArguments<> a;
        a.sendbuf = send.address();
        a.sendcount = sendcount;
        a.sendcounts = sendcounts.data();
        a.sdispls = sdispls.data();
        a.byte_sdispls = byte_sdispls.data();
        a.sendtype = call_types.send;
        a.sendtypes = call_types.sends.data();
        a.recvbuf = recv.address();
        a.recvcount = recvcount;
        a.recvcounts = recvcounts.data();
        a.displs = rdispls.data();
        a.rdispls = rdispls.data();
        a.byte_rdispls = byte_rdispls.data();
        a.recvtype = call_types.recv;
        a.recvtypes = call_types.recvs.data();
        a.comm = comm;
        return a;
    }

    std::string layout_text(MPI_Datatype type) const {
        for (const Layout& layout : layouts)
            if (layout.type == type) return layout.text;
        return "?";
    }
};

// One rank's side of op: its types, counts, displacements and buffers.
Op build_op(const CaseSpec& spec, const OpSpec& op_spec, int index, MPI_Comm comm, const Neighbors& neighbors,
            int rank) {
    Op op;
    op.spec = &op_spec;
    op.index = index;
    op.comm = comm;
    Random random{spec.seed, layout_topic, u64(index), u64(rank)};
    const std::vector<int> out_k = occurrences(neighbors.destinations), in_k = occurrences(neighbors.sources);
    const Collective collective = op_spec.collective;
    const auto keep = [&](Layout layout) {
        op.layouts.push_back(layout);
        return layout.type;
    };

    std::vector<EdgeShape> out_shapes, in_shapes;
    for (std::size_t i = 0; i < neighbors.destinations.size(); ++i)
        out_shapes.push_back(edge_shape(spec, op_spec, rank, neighbors.destinations[i], out_k[i]));
    for (std::size_t j = 0; j < neighbors.sources.size(); ++j)
        in_shapes.push_back(edge_shape(spec, op_spec, neighbors.sources[j], rank, in_k[j]));

    std::vector<Block> send_extent_blocks;  // what the send buffer holds (allgather: one block for all)
    if (collective == Collective::alltoallw) {
        for (const EdgeShape& shape : out_shapes) {
            const MPI_Datatype type = keep(random_layout(shape.unit, shape.send_repeats, Side::send, random));
            op.send_blocks.push_back({type, shape.units / shape.send_repeats, 0});
        }
        for (const EdgeShape& shape : in_shapes) {
            const MPI_Datatype type = keep(random_layout(shape.unit, shape.recv_repeats, Side::receive, random));
            op.recv_blocks.push_back({type, shape.units / shape.recv_repeats, 0});
        }
        place_blocks(op.send_blocks, 8, Side::send, random);
        place_blocks(op.recv_blocks, 8, Side::receive, random);
        for (const Block& block : op.send_blocks) {
            op.sendcounts.push_back(block.count);
            op.byte_sdispls.push_back(block.origin);
            op.types.sends.push_back(block.type);
        }
        for (const Block& block : op.recv_blocks) {
            op.recvcounts.push_back(block.count);
            op.byte_rdispls.push_back(block.origin);
            op.types.recvs.push_back(block.type);
        }
        send_extent_blocks = op.send_blocks;
    } else {
        const int send_repeats = repeats_of(op_spec, send_repeats_topic, rank);
        const int recv_repeats = repeats_of(op_spec, recv_repeats_topic, rank);
        op.types.send = keep(random_layout(op_spec.unit, send_repeats, Side::send, random));
        op.types.recv = keep(random_layout(op_spec.unit, recv_repeats, Side::receive, random));
        for (const EdgeShape& shape : out_shapes)
            op.send_blocks.push_back({op.types.send, shape.units / send_repeats, 0});
        for (const EdgeShape& shape : in_shapes)
            op.recv_blocks.push_back({op.types.recv, shape.units / recv_repeats, 0});
        const MPI_Aint send_extent = extent_of(op.types.send), recv_extent = extent_of(op.types.recv);
        switch (collective) {
            case Collective::allgather:
            case Collective::alltoall: {
                // The collective fixes the blocks: the i-th at i * count extents.
                op.sendcount = op_spec.block_units / send_repeats;
                op.recvcount = op_spec.block_units / recv_repeats;
                const bool gather = collective == Collective::allgather;
                for (std::size_t i = 0; i < op.send_blocks.size(); ++i)
                    op.send_blocks[i].origin = gather ? 0 : static_cast<MPI_Aint>(i) * op.sendcount * send_extent;
                for (std::size_t j = 0; j < op.recv_blocks.size(); ++j)
                    op.recv_blocks[j].origin = static_cast<MPI_Aint>(j) * op.recvcount * recv_extent;
                send_extent_blocks = gather ? std::vector<Block>{{op.types.send, op.sendcount, 0}} : op.send_blocks;
                break;
            }
            case Collective::allgatherv:
                op.sendcount = allgatherv_units(op_spec, spec.graph, rank) / send_repeats;
                send_extent_blocks = {{op.types.send, op.sendcount, 0}};
                place_blocks(op.recv_blocks, recv_extent, Side::receive, random);
                break;
            default:
                place_blocks(op.send_blocks, send_extent, Side::send, random);
                place_blocks(op.recv_blocks, recv_extent, Side::receive, random);
                for (const Block& block : op.send_blocks) {
                    op.sendcounts.push_back(block.count);
                    op.sdispls.push_back(static_cast<int>(block.origin / send_extent));
                }
                send_extent_blocks = op.send_blocks;
                break;
        }
        if (collective == Collective::allgatherv || collective == Collective::alltoallv) {
            for (const Block& block : op.recv_blocks) {
                op.recvcounts.push_back(block.count);
                op.rdispls.push_back(static_cast<int>(block.origin / recv_extent));
            }
        }
    }
    for (auto* list : {&op.sendcounts, &op.sdispls, &op.recvcounts, &op.rdispls}) list->push_back(0);
    for (auto* list : {&op.byte_sdispls, &op.byte_rdispls}) list->push_back(0);
    for (auto* list : {&op.types.sends, &op.types.recvs}) list->push_back(MPI_BYTE);
    op.in_flight = op.types;

    op.send = buffer_for(send_extent_blocks, random);
    op.recv = buffer_for(op.recv_blocks, random);
    op.expected = op.recv;
    return op;
}

// The request first: a persistent one may still be started with the types.
void free_op(Op& op) {
    if (op.request != MPI_REQUEST_NULL) MPI_Request_free(&op.request);
    for (Layout& layout : op.layouts) free_layout(layout);
}

// Send data unique to (case, rank, call, byte); receive buffers and their references filled
// with the same sentinels, so that a byte the call must not touch is checked too.
void refill(Op& op, std::uint64_t seed, int rank, int call) {
    std::vector<std::byte>& bytes = op.send.bytes;
    for (std::size_t i = 0; i < bytes.size(); i += 8) {
        const std::uint64_t value = mix({seed, fill_topic, u64(op.index), u64(rank), u64(call), i});
        std::memcpy(bytes.data() + i, &value, std::min<std::size_t>(8, bytes.size() - i));
    }
    op.sent = op.send;
    for (std::size_t i = 0; i < op.recv.bytes.size(); ++i) op.recv.bytes[i] = std::byte((i * 151 + 89) ^ 0x5a);
    op.expected = op.recv;
}

// Polls test(done) until it says done; past the deadline the watch reports a hang and never
// returns.
template <class Test>
int poll(const Watch& watch, const std::string& what, Test test) {
    while (true) {
        int done = 0;
        if (const int code = test(done); code != MPI_SUCCESS || done) return code;
        if (std::chrono::steady_clock::now() > watch.deadline) watch.hang(what);
        sched_yield();  // oversubscribed ranks share the cores
    }
}

// The first failed request's error where a call that completes several says MPI_ERR_IN_STATUS.
int first_error(int code, const std::vector<MPI_Status>& statuses, int count) {
    if (code != MPI_ERR_IN_STATUS) return code;
    for (int i = 0; i < count; ++i)
        if (statuses[static_cast<std::size_t>(i)].MPI_ERROR != MPI_SUCCESS)
            return statuses[static_cast<std::size_t>(i)].MPI_ERROR;
    return code;
}

// The ways an application completes requests: polling, or blocking in the MPI (where a rank
// blocks past the deadline, the alarm finds it).
enum class Completion { testall, test_each, waitall, waitany, waitsome, wait_each };

// Completes the requests in a way of this rank's own: MPI_Testall or MPI_Waitall on all at once,
// MPI_Waitany or MPI_Waitsome until none is left, or MPI_Test or MPI_Wait on one after the other
// in an order of its own; the calls on several requests only where several_at_once. Returns the
// first error.
int wait_for(std::vector<MPI_Request>& requests, bool several_at_once, Random& random, const Watch& watch,
             const std::string& what) {
    std::vector<Completion> ways{Completion::test_each, Completion::wait_each};
    if (several_at_once)
        ways.insert(ways.end(), {Completion::testall, Completion::waitall, Completion::waitsome, Completion::waitany});
    const Completion way = random.pick(ways);
    const int count = static_cast<int>(requests.size());
    std::vector<MPI_Status> statuses(requests.size());
    switch (way) {
        case Completion::testall: {
            const int code = poll(watch, what, [&](int& done) {
                return MPI_Testall(count, requests.data(), &done, statuses.data());
            });
            return first_error(code, statuses, count);
        }
        case Completion::waitall:
            return first_error(MPI_Waitall(count, requests.data(), statuses.data()), statuses, count);
        case Completion::waitany:
            for (int left = count; left > 0; --left) {
                int index = MPI_UNDEFINED;
                if (const int code = MPI_Waitany(count, requests.data(), &index, MPI_STATUS_IGNORE); code != MPI_SUCCESS)
                    return code;
                if (index == MPI_UNDEFINED) break;
            }
            return MPI_SUCCESS;
        case Completion::waitsome: {
            std::vector<int> indices(requests.size());
            while (true) {
                int done = MPI_UNDEFINED;
                const int code = MPI_Waitsome(count, requests.data(), &done, indices.data(), statuses.data());
                if (code != MPI_SUCCESS) return first_error(code, statuses, done);
                if (done == MPI_UNDEFINED) return MPI_SUCCESS;
            }
        }
        case Completion::test_each:
        case Completion::wait_each:
            break;
    }
    std::vector<std::size_t> order(requests.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    random.shuffle(order);
    for (const std::size_t i : order) {
        const int code =
            way == Completion::wait_each
                ? MPI_Wait(&requests[i], MPI_STATUS_IGNORE)
                : poll(watch, what, [&](int& done) { return MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE); });
        if (code != MPI_SUCCESS) return code;
    }
    return MPI_SUCCESS;
}

// The reference: for every out-edge its block sent, for every in-edge its block received, as
// point-to-point messages on a communicator of their own. MPI's non-overtaking rule pairs the
// k-th message between two processes with the k-th receive, which is how the neighborhood
// collectives pair repeated edges.
int reference_exchange(Op& op, const Neighbors& neighbors, MPI_Comm reference_comm, Random& random,
                       const Watch& watch) {
    std::vector<MPI_Request> requests;
    for (std::size_t j = 0; j < op.recv_blocks.size(); ++j) {
        const Block& block = op.recv_blocks[j];
        requests.emplace_back();
        MPI_Irecv(op.expected.address() + block.origin, block.count, block.type, neighbors.sources[j], reference_tag,
                  reference_comm, &requests.back());
    }
    for (std::size_t i = 0; i < op.send_blocks.size(); ++i) {
        const Block& block = op.send_blocks[i];
        requests.emplace_back();
        MPI_Isend(op.send.address() + block.origin, block.count, block.type, neighbors.destinations[i], reference_tag,
                  reference_comm, &requests.back());
    }
    return wait_for(requests, true, random, watch, "the point-to-point reference");
}

std::string offset_text(const char* buffer, MPI_Aint offset) {
    return std::string(buffer) + (offset < 0 ? "" : "+") + std::to_string(offset);
}

// "" if op's buffers hold what they must after a call.
std::string check(const Op& op, const Neighbors& neighbors) {
    const auto first_difference = [](const Buffer& got, const Buffer& want) {
        return std::mismatch(got.bytes.begin(), got.bytes.end(), want.bytes.begin()).first - got.bytes.begin();
    };
    if (op.send.bytes != op.sent.bytes)
        return "the send buffer changed at " +
               offset_text("sendbuf", first_difference(op.send, op.sent) - op.send.base);
    if (op.recv.bytes == op.expected.bytes) return {};
    const auto index = first_difference(op.recv, op.expected);
    const MPI_Aint offset = index - op.recv.base;
    std::string where = "outside every block";
    for (std::size_t j = 0; j < op.recv_blocks.size(); ++j) {
        const Block& block = op.recv_blocks[j];
        const Span span = span_of(block.type, block.count);
        if (offset >= block.origin + span.low && offset < block.origin + span.high) {
            where = "in the block from source " + std::to_string(neighbors.sources[j]) + " (in-edge " +
                    std::to_string(j) + ": " + std::to_string(block.count) + " x " + op.layout_text(block.type) + ")";
            break;
        }
    }
    return offset_text("recvbuf", offset) + " " + where + ": got " +
           hex(op.recv.bytes[static_cast<std::size_t>(index)]) + " want " +
           hex(op.expected.bytes[static_cast<std::size_t>(index)]);
}

// A rank's first problem in a case.
struct Problem {
    int rank = 0;
    std::string text;
    void note(const std::string& what) {
        if (text.empty() && !what.empty()) text = "rank " + std::to_string(rank) + ": " + what;
    }
};

// Issues op's call in form (the persistent form only initializes); where the case frees its types
// early, with others of the same type maps, freed right after the call.
int issue(Op& op, Form form, EarlyFree early_free) {
    std::vector<MPI_Datatype> made;
    op.in_flight = early_free == EarlyFree::none ? op.types : replaced(op.types, early_free, op.layouts, made);
    const int code = op.arguments(op.in_flight).call(calls::Path::library, op.spec->collective, form, &op.request);
    // MPI_Type_free resets the handle it is given: free copies, the call may still read the arrays.
    for (MPI_Datatype type : made) MPI_Type_free(&type);
    return code;
}

std::string call_name(Collective collective, Form form) {
    const std::string name = calls::name_of(collective);
    switch (form) {
        case Form::blocking:
            return "MPI_Neighbor_" + name;
        case Form::nonblocking:
            return "MPI_Ineighbor_" + name;
        case Form::persistent:
            return "MPI_Neighbor_" + name + "_init";
    }
    return name;
}

// Every block as count x layout @ origin, for --verbose.
void print_layouts(const std::vector<Op>& ops, int rank) {
    const auto blocks_text = [](const Op& op, const std::vector<Block>& blocks) {
        std::string text;
        for (const Block& block : blocks)
            text += " " + std::to_string(block.count) + " x " + op.layout_text(block.type) + " @" +
                    std::to_string(block.origin);
        return text.empty() ? std::string(" none") : text;
    };
    for (const Op& op : ops)
        std::printf("  rank %d op %d %s: send%s; receive%s\n", rank, op.index, calls::name_of(op.spec->collective),
                    blocks_text(op, op.send_blocks).c_str(), blocks_text(op, op.recv_blocks).c_str());
    std::fflush(stdout);
}

// Persistent requests started one by one or all at once, in the same order on every rank.
int start(std::vector<MPI_Request>& requests, Random& random) {
    if (random.chance(1, 2)) return MPI_Startall(static_cast<int>(requests.size()), requests.data());
    for (MPI_Request& request : requests)
        if (const int code = MPI_Start(&request); code != MPI_SUCCESS) return code;
    return MPI_SUCCESS;
}

// Now and then a pause of up to timing.max_pause_us, where timing asks for pauses.
void pause(const Timing& timing, Random& draws) {
    if (timing.seed == 0 || draws.chance(1, 2)) return;
    usleep(static_cast<useconds_t>(draws.between(1, timing.max_pause_us)));
}

// Runs every operation spec.calls times in spec.form (in a case of mixed forms, each in its own),
// each run checked; frees the communicators early where the case says so. Notes the rank's
// first problem.
void run_calls(const CaseSpec& spec, std::vector<MPI_Comm>& comms, const Neighbors& neighbors,
               MPI_Comm reference_comm, const Watch& watch, const Timing& timing, Problem& problem) {
    const int rank = problem.rank;
    std::vector<Op> ops;
    ops.reserve(spec.ops.size());
    for (std::size_t i = 0; i < spec.ops.size(); ++i)
        ops.push_back(build_op(spec, spec.ops[i], static_cast<int>(i), comms[spec.ops[i].comm], neighbors, rank));
    if (watch.verbose) print_layouts(ops, rank);
    Random random{spec.seed, wait_topic, u64(rank)};
    Random pauses{timing.seed, timing_topic, spec.seed, u64(rank)};

    if (spec.form == Form::persistent) {
        for (Op& op : ops)
            if (const int code = issue(op, Form::persistent, spec.early_free); code != MPI_SUCCESS)
                problem.note(call_name(op.spec->collective, spec.form) + " returned " + error_text(code));
    }
    for (int call = 0; call < spec.calls; ++call) {
        const std::string what = "call " + std::to_string(call + 1) + " of " + std::to_string(spec.calls);
        for (Op& op : ops) refill(op, spec.seed, rank, call);
        for (Op& op : ops)
            if (const int code = reference_exchange(op, neighbors, reference_comm, random, watch); code != MPI_SUCCESS)
                problem.note("the point-to-point reference failed: " + error_text(code));
        std::vector<MPI_Request> requests;
        if (spec.form == Form::persistent) {
            for (const Op& op : ops)
                if (op.request != MPI_REQUEST_NULL) requests.push_back(op.request);
            pause(timing, pauses);
            if (const int code = start(requests, random); code != MPI_SUCCESS)
                problem.note(what + ": starting returned " + error_text(code));
        } else {
            for (Op& op : ops) {
                if (spec.barriers && op.index > 0) MPI_Barrier(comms[0]);
                pause(timing, pauses);
                const Form form = op.spec->form;
                if (const int code = issue(op, form, spec.early_free); code != MPI_SUCCESS)
                    problem.note(what + ": " + call_name(op.spec->collective, form) + " returned " + error_text(code));
                if (op.request != MPI_REQUEST_NULL) requests.push_back(op.request);
            }
            if (spec.free_comms_early && call + 1 == spec.calls)
                for (MPI_Comm& comm : comms)
                    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
        }
        if (!requests.empty()) {
            const bool several_at_once =
                spec.form != Form::persistent || !native_quirks.completing_several_fails_on_persistent;
            pause(timing, pauses);
            if (const int code = wait_for(requests, several_at_once, random, watch, what); code != MPI_SUCCESS)
                problem.note(what + ": waiting returned " + error_text(code));
            if (spec.form == Form::nonblocking)
                for (Op& op : ops) op.request = MPI_REQUEST_NULL;
        }
        for (const Op& op : ops)
            if (const std::string text = check(op, neighbors); !text.empty())
                problem.note(what + ", op " + std::to_string(op.index) + " " + calls::name_of(op.spec->collective) +
                             ": " + text);
    }
    for (Op& op : ops) free_op(op);
}

bool on_all_ranks(bool ok, MPI_Comm comm) {
    int all = ok ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, comm);
    return all != 0;
}

// Every rank learns the lowest failing rank's problem.
CaseOutcome agree(const Problem& problem, MPI_Comm comm) {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int first = problem.text.empty() ? size : rank;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size) return {};
    int length = static_cast<int>(problem.text.size());
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    std::string text = problem.text;
    text.resize(static_cast<std::size_t>(length));
    MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
    return {true, text};
}

}  // namespace

CaseSpec draw_case(std::uint64_t seed, int index, int size, const DrawOptions& options) {
    CaseSpec spec;
    spec.seed = mix({seed, u64(index)});
    spec.index = index;
    Random random(spec.seed);
    const Mode& drawn = random.pick(fuzz_modes());
    spec.mode = options.forced_mode != nullptr ? options.forced_mode : &drawn;
    spec.may_run_natively = !options.library_loaded || spec.mode->name == "off";
    spec.graph = random_graph(size, spec.mode->complete_percent, spec.mode->stencil_percent, random);
    if (spec.may_run_natively && native_quirks.wrong_on_repeated_edges) remove_repeated_edges(spec.graph);
    spec.construction = random_construction(spec.graph, random);

    std::vector<Form> forms{Form::blocking, Form::nonblocking};
    if (calls::has_persistent_collectives) forms.push_back(Form::persistent);
    spec.form = random.pick(forms);
    // Auto mode decides after trial calls: its cases run more calls on a communicator.
    const bool auto_mode = spec.mode->name.starts_with("auto");
    const int draw = random.below(8);
    if (draw < (auto_mode ? 2 : 4))
        spec.calls = random.between(1, 3);
    else if (draw < 6)
        spec.calls = random.between(4, 12);
    else
        spec.calls = random.between(13, 40);

    const int op_count = random.chance(1, 2) ? 1 : random.between(2, 4);
    spec.two_comms = op_count > 1 && random.chance(1, 4);
    const bool may_run_native_nonblocking = spec.may_run_natively || auto_mode;
    const bool types_must_live = spec.form == Form::persistent && may_run_native_nonblocking &&
                                 native_quirks.crashes_when_persistent_types_freed;
    if (spec.form != Form::blocking && random.below(100) < options.early_free_percent && !types_must_live)
        spec.early_free = random.chance(1, 2) ? EarlyFree::duplicates : EarlyFree::remade;
    const bool nonblocking = spec.form == Form::nonblocking;
    spec.mixed_forms = nonblocking && op_count > 1 && random.chance(1, 3);
    spec.barriers = spec.form != Form::persistent && op_count > 1 && random.chance(1, 4);
    spec.free_comms_early = nonblocking && random.chance(1, 4) &&
                            !(may_run_native_nonblocking && native_quirks.crashes_when_comm_freed_in_flight);
    std::vector<Collective> collectives(std::begin(calls::all_collectives), std::end(calls::all_collectives));
    if (spec.may_run_natively && native_quirks.wrong_on_alltoallw) std::erase(collectives, Collective::alltoallw);
    for (int i = 0; i < op_count; ++i) {
        OpSpec op;
        op.collective = random.pick(collectives);
        op.form = spec.mixed_forms && random.chance(1, 2) ? Form::blocking : spec.form;
        op.comm = spec.two_comms ? random.below(2) : 0;
        op.unit = random_signature(random);
        op.block_units = random.chance(1, 6) ? 0 : random.between(1, 12);
        op.key = random.bits();
        spec.ops.push_back(op);
    }
    return spec;
}

std::string describe(const CaseSpec& spec) {
    std::string ops;
    for (const OpSpec& op : spec.ops)
        ops += (ops.empty() ? "" : "+") + std::string(calls::name_of(op.collective)) + (op.comm == 1 ? "(dup)" : "") +
               (spec.mixed_forms && op.form == Form::blocking ? "(blocking)" : "");
    std::string text = ops + " " + calls::name_of(spec.form) + ", " + std::to_string(spec.calls) +
                       (spec.calls == 1 ? " call" : " calls");
    if (spec.barriers) text += ", barriers between";
    if (spec.early_free == EarlyFree::duplicates) text += ", duplicates of the types freed early";
    if (spec.early_free == EarlyFree::remade) text += ", types made anew and freed early";
    if (spec.free_comms_early) text += ", communicators freed in flight";
    text += ", graph " + spec.graph.kind + " " + name_of(spec.construction.constructor) +
            (spec.construction.weighted ? " weighted" : "") + " P=" + std::to_string(spec.graph.size);
    return text;
}

CaseOutcome run_case(const CaseSpec& spec, MPI_Comm reference_comm, const Watch& watch, const Timing& timing) {
    Problem problem;
    MPI_Comm_rank(MPI_COMM_WORLD, &problem.rank);

    MPI_Info info = MPI_INFO_NULL;
    MPI_Info_create(&info);
    for (const auto& [key, value] : spec.mode->hints) MPI_Info_set(info, key.c_str(), value.c_str());
    std::vector<MPI_Comm> comms{MPI_COMM_NULL, MPI_COMM_NULL};
    const int created = create_graph_comm(spec.graph, spec.construction, info, &comms[0]);
    MPI_Info_free(&info);
    Neighbors neighbors;
    if (created != MPI_SUCCESS) {
        problem.note(std::string(spec.construction.constructor == Constructor::adjacent
                                     ? "MPI_Dist_graph_create_adjacent"
                                     : "MPI_Dist_graph_create") +
                     " returned " + error_text(created));
    } else if (const int code = query_neighbors(comms[0], neighbors); code != MPI_SUCCESS) {
        problem.note("MPI_Dist_graph_neighbors returned " + error_text(code));
    } else {
        problem.note(neighbors_problem(spec.graph, spec.construction, problem.rank, neighbors));
        if (spec.two_comms)
            if (const int code = MPI_Comm_dup(comms[0], &comms[1]); code != MPI_SUCCESS)
                problem.note("MPI_Comm_dup returned " + error_text(code));
    }
    // The calls only where every rank has its communicators: a rank that calls alone would hang.
    if (on_all_ranks(problem.text.empty(), reference_comm))
        run_calls(spec, comms, neighbors, reference_comm, watch, timing, problem);
    for (MPI_Comm& comm : comms)
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    return agree(problem, reference_comm);
}

}  // namespace nbrcomb::fuzz
