// MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create as the library runs them: natively,
// or, for reorder=1 with reordering on, on the ranks mapping/ chooses (mapping/README.md); then
// the library takes the new communicator under its management (adopt_topology.h). The same for
// the constructors of Cartesian and graph topologies, which always run natively.
#pragma once

#include <mpi.h>

namespace nbrcomb::detail {

struct AdjacentGraphArgs {
    MPI_Comm comm_old;
    int indegree;
    const int* sources;
    const int* sourceweights;
    int outdegree;
    const int* destinations;
    const int* destweights;
    MPI_Info info;
    int reorder;
};

struct GeneralGraphArgs {
    MPI_Comm comm_old;
    int n;
    const int* sources;
    const int* degrees;
    const int* destinations;
    const int* weights;
    MPI_Info info;
    int reorder;
};

// Each returns what its constructor returns and lets no exception out.
int create_adjacent_graph(const AdjacentGraphArgs& args, MPI_Comm* comm_dist_graph);
int create_general_graph(const GeneralGraphArgs& args, MPI_Comm* comm_dist_graph);

// The ranks stay as the MPI gives them, whatever reorder asks. A graph whose neighborhood
// collectives are undefined (classic_topologies.h: symmetric_graph) stays native.
int create_cartesian(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm* comm_cart);
int create_cartesian_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm);
int create_graph(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                 MPI_Comm* comm_graph);

}  // namespace nbrcomb::detail
