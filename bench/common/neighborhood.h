// A process's neighbors as a topology communicator reports them, in the order of the
// neighborhood collectives' blocks, and which of the edges between two processes each block is:
// what the tests and nbrbench need to know where every block of a call must land.
#pragma once

#include <mpi.h>

#include <vector>

namespace nbrcomb::common {

// The neighbors of the calling process in the order the neighborhood collectives use, as the
// communicator reports them (distributed graph, Cartesian or graph); empty for other kinds. For
// every block, which of the edges between its two ends it is, a number both ends give the edge:
// on a Cartesian topology the sender's block (send block s meets receive block s^1, MPI-4.1
// §8.6), elsewhere which repeat of the edge it is (occurrence_indices).
struct Neighborhood {
    std::vector<int> sources;
    std::vector<int> destinations;
    std::vector<int> source_edges;
    std::vector<int> destination_edges;
};
Neighborhood neighborhood_of(MPI_Comm comm);

// For each entry of peers, how many earlier entries name the same peer: which repeat of an
// edge it is, the value both ends of a repeated edge agree on.
std::vector<int> occurrence_indices(const std::vector<int>& peers);

}  // namespace nbrcomb::common
