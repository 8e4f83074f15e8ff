// A row-major grid of the processes that take part in calls, over which multi-hop schedules move
// a block one dimension at a time (pattern/grid_routing.h), and how the processes choose it.
//
// Two families of shapes are tried. Stencil shapes (2 or 3 dimensions) are the grids an
// application lays its ranks out on: where every process's neighbors are one set of offsets on
// such a grid, each dimension takes one message per distinct offset along it (Träff and Hunold,
// ICPP 2019). Cube shapes are virtual k-ary n-cubes, the nodes' dimensions first, for irregular
// graphs: a process sends at most n(k-1) messages whatever its degree (Selvitopi and Aykanat,
// SC 2019). The shape chosen is the one the cost model of pattern/message_cost.h prices lowest.
#pragma once

#include "pattern/pattern.h"

#include <memory>
#include <vector>

namespace nbrcomb::detail {

struct ProcessGrid {
    std::vector<int> dims;   // dims[0] varies slowest
    std::vector<int> reach;  // per dimension, the farthest cyclic step any block takes along it
    std::shared_ptr<const std::vector<int>> members;   // (*members)[i]: the rank at grid index i
    std::shared_ptr<const std::vector<int>> index_of;  // (*index_of)[r]: rank r's grid index, -1 off the grid

    int coordinate(int rank, std::size_t d) const;
    // The rank whose coordinates are rank's but in dimension d, where it is value.
    int moved(int rank, std::size_t d, int value) const;
    // Those a process exchanges with in round d: the ranks that differ from rank in dimension d
    // only, by at most reach[d] cyclic steps, by ascending coordinate.
    std::vector<int> line_peers(int rank, std::size_t d) const;
};

// The grid of each family the processes route over, the same on all of them, and whether it
// pays: whether it has more than one dimension and sends fewer messages than one per edge.
struct GridChoices {
    std::shared_ptr<const ProcessGrid> stencil;
    std::shared_ptr<const ProcessGrid> cube;
    bool stencil_pays = false;
    bool cube_pays = false;
};

// Choosing the grids: every process surveys its edges, the surveys are reduced by maximum over
// the processes (an allreduce over MPI, a loop in the simulator), and every process chooses
// alike from the result.
class GridSurvey {
public:
    // (*node_of)[r]: the node of rank r, -1 for a process without edges (off the grid).
    explicit GridSurvey(std::shared_ptr<const std::vector<int>> node_of);

    // One process's part: its out-degree, then per stencil shape and dimension the farthest
    // cyclic step its out-edges take.
    std::vector<int> of(const LocalGraph& graph) const;
    GridChoices choose(const std::vector<int>& maximum) const;

private:
    std::shared_ptr<const std::vector<int>> node_of_;
    std::shared_ptr<const std::vector<int>> members_;
    std::shared_ptr<const std::vector<int>> index_of_;
    std::vector<std::vector<int>> stencil_shapes_;
};

// The shapes each family tries besides the grid of one dimension (exposed for the tests).
// Stencil shapes: every ordered factorization of count into 2 or 3 factors of at least 2.
std::vector<std::vector<int>> stencil_shapes(int count);
// Cube shapes: k-ary n-cubes of balanced factors, the node dimensions first where the processes
// fill their nodes in rank order, node_size of them each (0: they do not).
std::vector<std::vector<int>> cube_shapes(int count, int node_size);

}  // namespace nbrcomb::detail
