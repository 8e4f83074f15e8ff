#include "src/setup/graph_constructors.h"

#include "mapping/renumbering.h"
#include "schedule/mpi_features.h"
#include "src/base/best_effort.h"
#include "src/base/error_handler.h"
#include "src/communicator/classic_topologies.h"
#include "src/communicator/emulated_graph.h"
#include "src/progress/progressing_wait.h"
#include "src/settings/environment.h"
#include "src/setup/adjacency_calls.h"
#include "src/setup/adopt_topology.h"
#include "src/setup/mapping_log.h"

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::detail {

namespace {

// The environment's settings with the communicator's nbrcomb_* hints applied; rank 0 of comm
// reports the values that do not parse.
Config communicator_config(MPI_Comm comm, MPI_Info info) {
    const Config& base = environment_config();
    if (info == MPI_INFO_NULL) return base;
    std::vector<std::string> problems;
    const Config config = read_config(
        base,
        [info](std::string_view key) -> std::optional<std::string> {
            const std::string name = "nbrcomb_" + std::string(key);
            char value[MPI_MAX_INFO_VAL + 1];
            int found = 0;
            if (PMPI_Info_get(info, name.c_str(), MPI_MAX_INFO_VAL, value, &found) != MPI_SUCCESS || !found)
                return std::nullopt;
            return std::string(value);
        },
        "nbrcomb_", problems);
    int keys = 0;
    PMPI_Info_get_nkeys(info, &keys);
    std::vector<std::string> hints;
    for (int i = 0; i < keys; ++i) {
        char key[MPI_MAX_INFO_KEY + 1];
        if (PMPI_Info_get_nthkey(info, i, key) == MPI_SUCCESS && std::string_view(key).starts_with("nbrcomb_"))
            hints.emplace_back(key);
    }
    report_unknown_settings(hints, "nbrcomb_", problems);
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (rank == 0)
        for (const std::string& problem : problems) log(LogLevel::warning, "%s", problem.c_str());
    return config;
}

int size_of(MPI_Comm comm) {
    int size = 0;
    PMPI_Comm_size(comm, &size);
    return size;
}

// Whether count ranks lie in comm and their weights (unless MPI_UNWEIGHTED) are not negative.
bool valid_edges(int count, const int* ranks, const int* weights, int size) {
    if (count == 0) return true;
    const bool weighted = weights != MPI_UNWEIGHTED;
    if (count < 0 || ranks == nullptr || (weighted && (weights == nullptr || weights == MPI_WEIGHTS_EMPTY)))
        return false;
    for (int i = 0; i < count; ++i)
        if (ranks[i] < 0 || ranks[i] >= size || (weighted && weights[i] < 0)) return false;
    return true;
}

bool valid_arguments(const AdjacentGraphArgs& a) {
    const int size = size_of(a.comm_old);
    return (a.sourceweights == MPI_UNWEIGHTED) == (a.destweights == MPI_UNWEIGHTED) &&
           valid_edges(a.indegree, a.sources, a.sourceweights, size) &&
           valid_edges(a.outdegree, a.destinations, a.destweights, size);
}

bool valid_arguments(const GeneralGraphArgs& a) {
    const int size = size_of(a.comm_old);
    if (a.n < 0 || (a.n > 0 && a.degrees == nullptr)) return false;
    int edges = 0;
    for (int i = 0; i < a.n; ++i) {
        if (a.degrees[i] < 0) return false;
        edges += a.degrees[i];
    }
    const int* no_weights = MPI_UNWEIGHTED;
    return valid_edges(a.n, a.sources, no_weights, size) && valid_edges(edges, a.destinations, a.weights, size);
}

// count values; none when count is 0, where values may be a sentinel such as MPI_WEIGHTS_EMPTY.
std::vector<int> copy_of(const int* values, int count) {
    return count > 0 ? std::vector<int>(values, values + count) : std::vector<int>{};
}

// The calling process's vertex as the arguments give it (valid ones).
Adjacency given_vertex(const AdjacentGraphArgs& a) {
    Adjacency vertex;
    vertex.weighted = a.sourceweights != MPI_UNWEIGHTED;
    vertex.sources = copy_of(a.sources, a.indegree);
    vertex.destinations = copy_of(a.destinations, a.outdegree);
    if (vertex.weighted) {
        vertex.source_weights = copy_of(a.sourceweights, a.indegree);
        vertex.destination_weights = copy_of(a.destweights, a.outdegree);
    }
    return vertex;
}

// The MPI's constructor; where the MPI has none, the library's emulation (emulated_graph.h).
int native(const AdjacentGraphArgs& a, int reorder, MPI_Comm* comm_dist_graph) {
    if constexpr (!mpi_has_topologies) {
        if (!valid_arguments(a)) return raise_error(a.comm_old, MPI_ERR_ARG);
        return emulate_dist_graph(a.comm_old, given_vertex(a), comm_dist_graph);
    }
    return PMPI_Dist_graph_create_adjacent(a.comm_old, a.indegree, a.sources, a.sourceweights, a.outdegree,
                                           a.destinations, a.destweights, a.info, reorder, comm_dist_graph);
}

int native(const GeneralGraphArgs& a, int reorder, MPI_Comm* comm_dist_graph) {
    if constexpr (!mpi_has_topologies) {
        if (!valid_arguments(a)) return raise_error(a.comm_old, MPI_ERR_ARG);
        return emulate_dist_graph(
            a.comm_old, gather_vertex(a.comm_old, a.n, a.sources, a.degrees, a.destinations, a.weights), comm_dist_graph);
    }
    return PMPI_Dist_graph_create(a.comm_old, a.n, a.sources, a.degrees, a.destinations, a.weights, a.info, reorder,
                                  comm_dist_graph);
}

// One constructor call through the library, from the settings to the adopted communicator.
class Construction {
public:
    Construction(MPI_Comm comm_old, MPI_Info info)
        : comm_old_(comm_old), info_(info), config_(communicator_config(comm_old, info)) {}

    // reorder=1: collective. Whether the processes agree to reorder; the graph is not needed yet.
    // Not on an intercommunicator, where the native constructor fails.
    bool agree(bool valid, bool weighted) {
        int inter = 0;
        if (PMPI_Comm_test_inter(comm_old_, &inter) != MPI_SUCCESS || inter) return false;
        const ReorderAgreement agreement = agree_to_reorder(comm_old_, mapping_settings(config_), valid, weighted);
        log_agreement(comm_old_, agreement);
        return agreement == ReorderAgreement::agreed;
    }

    // Once they agree: the new ranks for the graph whose vertex here is mine. Collective.
    void plan(const Adjacency& mine) {
        const OutEdges edges{mine.destinations, mine.destination_weights, mine.weighted};
        best_effort("reordering ranks", [&] {
            renumbering_ = plan_renumbering(comm_old_, mapping_settings(config_), edges);
            log_renumbering(renumbering_, config_.reorder_max_edges);
            return MPI_SUCCESS;
        });
    }

    bool reordered() const { return renumbering_.reordered; }

    // The distributed graph on the new ranks, the process given new rank v taking vertex v,
    // whose lists the process with old rank v holds. Collective.
    int create_reordered(const Adjacency& mine, MPI_Comm* comm_dist_graph) const {
        MPI_Comm renumbered = MPI_COMM_NULL;
        if (const int err = PMPI_Comm_split(comm_old_, 0, renumbering_.new_rank, &renumbered); err != MPI_SUCCESS)
            return err;
        const Adjacency vertex =
            exchange_adjacency(renumbered, mine, renumbering_.old_rank, renumbering_.vertex_holder);
        const int err = create_adjacent(renumbered, vertex, info_, comm_dist_graph);
        PMPI_Comm_free(&renumbered);
        return err;
    }

    // The constructor's result, err; on success the library adopts the communicator.
    int finish(int err, MPI_Comm* comm_dist_graph) const {
        if (err != MPI_SUCCESS) return err;
        const double seconds =
            renumbering_.tried ? PMPI_Wtime() - start_ : 0;
        if (renumbering_.tried && renumbering_.old_rank == 0)
            log(LogLevel::info, "reorder=1: %s; the constructor took %.6f s on rank 0",
                renumbering_.reordered ? "new ranks" : "ranks kept", seconds);
        best_effort("setting up a topology",
                    [&] { return adopt_topology(*comm_dist_graph, config_, renumbering_, seconds); });
        return MPI_SUCCESS;
    }

private:
    const double start_ = PMPI_Wtime();
    MPI_Comm comm_old_;
    MPI_Info info_;
    Config config_;
    Renumbering renumbering_;
};

int adjacent_through_library(const AdjacentGraphArgs& a, MPI_Comm* comm_dist_graph) {
    Construction construction(a.comm_old, a.info);
    if (a.reorder && construction.agree(valid_arguments(a), a.sourceweights != MPI_UNWEIGHTED)) {
        const Adjacency mine = given_vertex(a);
        construction.plan(mine);
        if (construction.reordered())
            return construction.finish(construction.create_reordered(mine, comm_dist_graph), comm_dist_graph);
    }
    return construction.finish(native(a, a.reorder, comm_dist_graph), comm_dist_graph);
}

int general_through_library(const GeneralGraphArgs& a, MPI_Comm* comm_dist_graph) {
    Construction construction(a.comm_old, a.info);
    if (a.reorder && construction.agree(valid_arguments(a), a.weights != MPI_UNWEIGHTED)) {
        // Each process learns its vertex only from the graph MPI puts together: first with the
        // old ranks, which is what the native constructor returns when the ranks stay.
        MPI_Comm given = MPI_COMM_NULL;
        if (const int err = native(a, 0, &given); err != MPI_SUCCESS) return err;
        const Adjacency mine = read_adjacency(given);
        construction.plan(mine);
        if (!construction.reordered()) {
            *comm_dist_graph = given;
            return construction.finish(MPI_SUCCESS, comm_dist_graph);
        }
        PMPI_Comm_free(&given);
        return construction.finish(construction.create_reordered(mine, comm_dist_graph), comm_dist_graph);
    }
    return construction.finish(native(a, a.reorder, comm_dist_graph), comm_dist_graph);
}

// An exception out of the library's part of a constructor fails the call through comm_old's
// error handler, as MPI_ERR_INTERN.
template <class Run>
int guarded(const char* name, MPI_Comm comm_old, Run run) {
    try {
        finish_before_blocking();  // the constructor blocks in the MPI
        return run();
    } catch (const std::exception& failure) {
        log(LogLevel::warning, "%s: %s", name, failure.what());
        return raise_error(comm_old, MPI_ERR_INTERN);
    }
}

// The library stays out of the way when it is off, and of calls on no communicator, which native
// MPI fails; where the MPI has no topologies, the library is the only one there is.
bool native_only(MPI_Comm comm_old) {
    return (mpi_has_topologies && environment_config().mode == NBRCOMB_MODE_OFF) || comm_old == MPI_COMM_NULL;
}

// A Cartesian or graph constructor: native, then the library's state on the new communicator
// where manageable() says the library can run its neighborhood collectives. Where the MPI has no
// neighborhood collectives (SMPI), the library leaves these topologies alone.
template <class Native, class Manageable>
int topology_through_library(const char* name, MPI_Comm comm_old, MPI_Comm* comm_topo, Native native,
                             Manageable manageable) {
    if (native_only(comm_old) || !mpi_has_topologies) return native();
    return guarded(name, comm_old, [&] {
        const Construction construction(comm_old, MPI_INFO_NULL);
        const int err = native();
        if (err != MPI_SUCCESS || !manageable()) return err;
        return construction.finish(err, comm_topo);
    });
}

bool always() { return true; }

}  // namespace

int create_adjacent_graph(const AdjacentGraphArgs& args, MPI_Comm* comm_dist_graph) {
    if (native_only(args.comm_old)) return native(args, args.reorder, comm_dist_graph);
    return guarded("MPI_Dist_graph_create_adjacent", args.comm_old,
                   [&] { return adjacent_through_library(args, comm_dist_graph); });
}

int create_general_graph(const GeneralGraphArgs& args, MPI_Comm* comm_dist_graph) {
    if (native_only(args.comm_old)) return native(args, args.reorder, comm_dist_graph);
    return guarded("MPI_Dist_graph_create", args.comm_old,
                   [&] { return general_through_library(args, comm_dist_graph); });
}

int create_cartesian(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm* comm_cart) {
    return topology_through_library(
        "MPI_Cart_create", comm_old, comm_cart,
        [&] { return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart); }, always);
}

int create_cartesian_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
    return topology_through_library(
        "MPI_Cart_sub", comm, newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); }, always);
}

int create_graph(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                 MPI_Comm* comm_graph) {
    // The arguments are valid, and the same on every process, once the native constructor took them.
    return topology_through_library(
        "MPI_Graph_create", comm_old, comm_graph,
        [&] { return PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph); },
        [&] { return symmetric_graph(nnodes, index, edges); });
}

}  // namespace nbrcomb::detail
