#include "src/call_args.h"

namespace nbrcomb::detail {

namespace {

struct TypeShape {
    MPI_Aint extent;
    std::size_t size;
};

TypeShape shape_of(MPI_Datatype type) {
    MPI_Aint lb = 0, extent = 0;
    int size = 0;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_size(type, &size);
    return {extent, static_cast<std::size_t>(size)};
}

Block block_at(Space space, MPI_Aint offset, int count, MPI_Datatype type, std::size_t type_size) {
    return {{space, offset}, count, type, static_cast<std::size_t>(count) * type_size};
}

}  // namespace

const char* collective_name(Collective collective) {
    switch (collective) {
    case Collective::allgather: return "allgather";
    case Collective::allgatherv: return "allgatherv";
    case Collective::alltoall: return "alltoall";
    case Collective::alltoallv: return "alltoallv";
    case Collective::alltoallw: return "alltoallw";
    }
    return "?";
}

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

}  // namespace nbrcomb::detail
