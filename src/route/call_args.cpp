#include "src/route/call_args.h"

#include "schedule/datatype_facts.h"

#include <algorithm>

namespace nbrcomb::detail {

namespace {

struct TypeShape {
    MPI_Aint extent;
    std::size_t size;
};

// MPI_DATATYPE_NULL, legal on a side of degree 0, has no shape and no identity.
TypeShape shape_of(MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL) return {0, 0};
    MPI_Aint lb = 0, extent = 0;
    int size = 0;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_size(type, &size);
    return {extent, static_cast<std::size_t>(size)};
}

Block block_at(Space space, MPI_Aint offset, int count, MPI_Datatype type, std::size_t type_size) {
    return {{space, offset}, count, type, static_cast<std::size_t>(count) * type_size};
}

// A datatype as a number that no other datatype has while it lives, and that tells its extent
// and size.
std::intptr_t identity_of(MPI_Datatype type) {
    return type == MPI_DATATYPE_NULL ? 0 : static_cast<std::intptr_t>(datatype_facts(type).identity);
}

// One word at a time: a range insert would cost more than the words.
void append_side_key(const SideArgs& side, int degree, CallKey& key) {
    key.push_back(static_cast<std::intptr_t>(side.layout));
    if (side.layout == Layout::typed) {
        for (int i = 0; i < degree; ++i) {
            key.push_back(side.counts[i]);
            key.push_back(side.byte_displs[i]);
            key.push_back(identity_of(side.types[i]));
        }
        return;
    }
    key.push_back(identity_of(side.type));
    if (side.layout != Layout::displaced) {
        key.push_back(side.count);
        return;
    }
    for (int i = 0; i < degree; ++i) {
        key.push_back(side.counts[i]);
        key.push_back(side.displs[i]);
    }
}

std::size_t largest_of_side(const SideArgs& side, int degree) {
    if (side.layout == Layout::typed) {
        std::size_t largest = 0;
        for (int i = 0; i < degree; ++i)
            largest = std::max(largest, static_cast<std::size_t>(side.counts[i]) * shape_of(side.types[i]).size);
        return largest;
    }
    const std::size_t size = shape_of(side.type).size;
    if (side.layout != Layout::displaced) return degree > 0 ? static_cast<std::size_t>(side.count) * size : 0;
    const int* most = std::max_element(side.counts, side.counts + degree);
    return degree > 0 ? static_cast<std::size_t>(*most) * size : 0;
}

std::size_t bytes_of_side(const SideArgs& side, int degree) {
    std::size_t bytes = 0;
    if (side.layout == Layout::typed) {
        for (int i = 0; i < degree; ++i)
            bytes += static_cast<std::size_t>(side.counts[i]) * shape_of(side.types[i]).size;
        return bytes;
    }
    const std::size_t size = shape_of(side.type).size;
    if (side.layout != Layout::displaced) return static_cast<std::size_t>(degree) * static_cast<std::size_t>(side.count) * size;
    for (int i = 0; i < degree; ++i) bytes += static_cast<std::size_t>(side.counts[i]) * size;
    return bytes;
}

}  // namespace

std::vector<Block> side_blocks(const SideArgs& side, int degree, Space space) {
    std::vector<Block> blocks;
    blocks.reserve(static_cast<std::size_t>(degree));
    if (side.layout == Layout::typed) {
        for (int i = 0; i < degree; ++i)
            blocks.push_back(block_at(space, side.byte_displs[i], side.counts[i], side.types[i],
                                      shape_of(side.types[i]).size));
        return blocks;
    }
    const TypeShape shape = shape_of(side.type);
    for (int i = 0; i < degree; ++i) {
        switch (side.layout) {
        case Layout::same: blocks.push_back(block_at(space, 0, side.count, side.type, shape.size)); break;
        case Layout::strided:
            blocks.push_back(block_at(space, MPI_Aint{i} * side.count * shape.extent, side.count, side.type, shape.size));
            break;
        case Layout::displaced:
            blocks.push_back(block_at(space, MPI_Aint{side.displs[i]} * shape.extent, side.counts[i], side.type, shape.size));
            break;
        case Layout::typed: break;
        }
    }
    return blocks;
}

void append_call_key(const CallArgs& args, int indegree, int outdegree, CallKey& key) {
    key.push_back(static_cast<std::intptr_t>(args.collective));
    append_side_key(args.send, outdegree, key);
    append_side_key(args.recv, indegree, key);
}

bool named_type(MPI_Datatype type) {
    int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
    PMPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner);
    return combiner == MPI_COMBINER_NAMED;
}

std::size_t asked_type_size(MPI_Datatype type) {
    int size = 0;
    PMPI_Type_size(type, &size);
    if (size > 0 && named_type(type)) {
        remembered_state.named_type = type;
        remembered_state.named_size = size;
    }
    return static_cast<std::size_t>(size);
}

std::size_t largest_block(const CallArgs& args, int indegree, int outdegree) {
    return std::max(largest_of_side(args.send, outdegree), largest_of_side(args.recv, indegree));
}

std::size_t mean_block(const CallArgs& args, int indegree, int outdegree) {
    const int blocks = indegree + outdegree;
    if (blocks == 0) return 0;
    return (bytes_of_side(args.send, outdegree) + bytes_of_side(args.recv, indegree)) / static_cast<std::size_t>(blocks);
}

}  // namespace nbrcomb::detail
