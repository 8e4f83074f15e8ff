#include "src/fortran/fortran_arguments.h"

namespace nbrcomb::detail::fortran {

int neighbor_count(MPI_Comm comm, Side side) {
    if (comm == MPI_COMM_NULL) return 0;  // an invalid handle; the C function raises the error
    int topology = MPI_UNDEFINED;
    PMPI_Topo_test(comm, &topology);
    if (topology == MPI_DIST_GRAPH) {
        int indegree = 0, outdegree = 0, weighted = 0;
        PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
        return side == Side::send ? outdegree : indegree;
    }
    if (topology == MPI_CART) {
        int dimensions = 0;
        PMPI_Cartdim_get(comm, &dimensions);
        return 2 * dimensions;
    }
    if (topology == MPI_GRAPH) {
        int rank = 0, neighbors = 0;
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &neighbors);
        return neighbors;
    }
    return 0;
}

int cartesian_dimensions(MPI_Comm comm) {
    int topology = MPI_UNDEFINED, dimensions = 0;
    if (comm == MPI_COMM_NULL) return 0;
    PMPI_Topo_test(comm, &topology);
    if (topology == MPI_CART) PMPI_Cartdim_get(comm, &dimensions);
    return dimensions;
}

}  // namespace nbrcomb::detail::fortran
