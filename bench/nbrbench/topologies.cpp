#include "nbrbench/topologies.h"

#include "halo_job/options.h"

#include <charconv>
#include <stdexcept>
#include <vector>

namespace nbrcomb::bench {

BenchTopology parse_bench_topology(const std::string& text) {
    BenchTopology topology;
    topology.name = text;
    const std::string prefix = "cart:";
    if (text.starts_with(prefix)) {
        const char* first = text.data() + prefix.size();
        const char* last = text.data() + text.size();
        const auto [end, error] = std::from_chars(first, last, topology.cartesian_dims);
        if (first == last || error != std::errc() || end != last || topology.cartesian_dims < 1)
            throw std::invalid_argument("topology '" + text + "': expected cart:D with D >= 1");
        return topology;
    }
    topology.spec = topology::parse_topology(text);
    if (topology.spec.kind == topology::TopologySpec::Kind::matrix)
        topology.spec.path = nbrcomb::common::resolve_matrix_path(topology.spec.path);
    return topology;
}

ProcessGraph distribute_graph(const BenchTopology& topology, MPI_Comm world) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &processes);
    ProcessGraph mine;
    mine.lists.rank = rank;
    if (topology.is_cartesian()) return mine;
    // Per process: in-degree, out-degree, sources, destinations, then the blocks of both lists
    // where the topology has them.
    std::vector<int> packed, counts(static_cast<std::size_t>(processes)), displs(counts.size(), 0);
    int weighted = 0;
    if (rank == 0) {
        const topology::WeightedGraphs all = topology::generate_weighted(topology.spec, processes);
        weighted = all.blocks.empty() ? 0 : 1;
        for (int r = 0; r < processes; ++r) {
            const auto& lists = all.graphs[static_cast<std::size_t>(r)];
            displs[static_cast<std::size_t>(r)] = static_cast<int>(packed.size());
            packed.push_back(static_cast<int>(lists.sources.size()));
            packed.push_back(static_cast<int>(lists.destinations.size()));
            packed.insert(packed.end(), lists.sources.begin(), lists.sources.end());
            packed.insert(packed.end(), lists.destinations.begin(), lists.destinations.end());
            if (weighted) {
                const auto& blocks = all.blocks[static_cast<std::size_t>(r)];
                packed.insert(packed.end(), blocks.sources.begin(), blocks.sources.end());
                packed.insert(packed.end(), blocks.destinations.begin(), blocks.destinations.end());
            }
            counts[static_cast<std::size_t>(r)] = static_cast<int>(packed.size()) - displs[static_cast<std::size_t>(r)];
        }
    }
    int size = 0;
    MPI_Bcast(&weighted, 1, MPI_INT, 0, world);
    MPI_Scatter(counts.data(), 1, MPI_INT, &size, 1, MPI_INT, 0, world);
    std::vector<int> part(static_cast<std::size_t>(size));
    MPI_Scatterv(packed.data(), counts.data(), displs.data(), MPI_INT, part.data(), size, MPI_INT, 0, world);
    const auto in = static_cast<std::ptrdiff_t>(part[0]), out = static_cast<std::ptrdiff_t>(part[1]);
    auto next = part.begin() + 2;
    const auto take = [&next](std::vector<int>& list, std::ptrdiff_t length) {
        list.assign(next, next + length);
        next += length;
    };
    take(mine.lists.sources, in);
    take(mine.lists.destinations, out);
    if (weighted) {
        take(mine.blocks.sources, in);
        take(mine.blocks.destinations, out);
    }
    return mine;
}

MPI_Comm create_communicator(const BenchTopology& topology, const nbrcomb::detail::LocalGraph& mine, MPI_Info hints,
                             bool reorder, MPI_Comm world) {
    int processes = 0;
    MPI_Comm_size(world, &processes);
    MPI_Comm comm = MPI_COMM_NULL;
    if (topology.is_cartesian()) {
        // The grid of the Moore and von Neumann generators, so cart:D compares with vonneumann:D:1.
        // PMPI_: the library would manage an MPI_Cart_create grid in the environment's mode, which
        // no variant's hints reach; the cart:D rows are native MPI's.
        std::vector<int> dims = topology::balanced_dims(processes, topology.cartesian_dims);
        const std::vector<int> periodic(dims.size(), 1);
        PMPI_Cart_create(world, topology.cartesian_dims, dims.data(), periodic.data(), 0, &comm);
        return comm;
    }
    MPI_Dist_graph_create_adjacent(world, static_cast<int>(mine.sources.size()), mine.sources.data(),
                                   MPI_UNWEIGHTED, static_cast<int>(mine.destinations.size()),
                                   mine.destinations.data(), MPI_UNWEIGHTED, hints, reorder ? 1 : 0, &comm);
    return comm;
}

}  // namespace nbrcomb::bench
