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

topology::Graphs generate_graphs(const BenchTopology& topology, int processes) {
    if (topology.is_cartesian()) return {};
    return topology::generate(topology.spec, processes);
}

MPI_Comm create_communicator(const BenchTopology& topology, const topology::Graphs& graphs, MPI_Info hints,
                             bool reorder, MPI_Comm world) {
    int rank = 0, processes = 0;
    MPI_Comm_rank(world, &rank);
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
    const auto& mine = graphs[static_cast<std::size_t>(rank)];
    MPI_Dist_graph_create_adjacent(world, static_cast<int>(mine.sources.size()), mine.sources.data(),
                                   MPI_UNWEIGHTED, static_cast<int>(mine.destinations.size()),
                                   mine.destinations.data(), MPI_UNWEIGHTED, hints, reorder ? 1 : 0, &comm);
    return comm;
}

}  // namespace nbrcomb::bench
