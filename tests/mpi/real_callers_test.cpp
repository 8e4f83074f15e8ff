// What real callers do that bends MPI's rules, and native MPIs tolerate (USERS.md of the
// project's design notes; README, "What the library assumes of callers"), in every mode:
// - PETSc's PetscSF skips the collectives on a process whose neighborhood is empty, with a
//   reduction over all processes between calls, as a Krylov solver has;
// - mpi4py's own tests build graphs whose two sides disagree, query them and free them;
// - a process blocks in another MPI call (a barrier, a reduction, another communicator's
//   collective, a constructor) while an operation it relays for others is in flight
//   (blocked_caller_test.cpp).
// Every call must finish with the bytes native MPI gives.
#include "schedule/mpi_features.h"
#include "all_ranks.h"
#include "differential.h"
#include "mode_cases.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

const std::vector<ModeCase> modes = all_modes();

bool forced(const ModeCase& mode) {
    for (const auto& [key, value] : mode.hints)
        if (key == "nbrcomb_mode") return value != "auto";
    return false;
}

// Rank 0 has no edge; the others form a ring, a complete digraph, or two components (a ring of
// the odd ranks and a complete digraph of the even ones) whose blocks differ in size.
enum class Kind { ring, complete, components };
const char* name_of(Kind kind) {
    switch (kind) {
    case Kind::ring: return "ring";
    case Kind::complete: return "complete";
    case Kind::components: return "components";
    }
    return "?";
}

Digraph with_idle_rank0(Kind kind, int size) {
    Digraph graph{std::vector<std::vector<int>>(static_cast<std::size_t>(size)),
                  std::vector<std::vector<int>>(static_cast<std::size_t>(size))};
    auto edge = [&](int u, int v) {
        graph.out[static_cast<std::size_t>(u)].push_back(v);
        graph.in[static_cast<std::size_t>(v)].push_back(u);
    };
    auto ring_of = [&](const std::vector<int>& members) {
        // Two members are one pair of edges, not a repeated one: MPICH 4.0 misplaces repeated edges.
        const std::size_t pairs = members.size() == 2 ? 1 : members.size();
        for (std::size_t i = 0; members.size() > 1 && i < pairs; ++i) {
            edge(members[i], members[(i + 1) % members.size()]);
            edge(members[(i + 1) % members.size()], members[i]);
        }
    };
    auto complete_of = [&](const std::vector<int>& members) {
        for (const int u : members)
            for (const int v : members)
                if (u != v) edge(u, v);
    };
    std::vector<int> active, odd, even;
    for (int r = 1; r < size; ++r) {
        active.push_back(r);
        (r % 2 == 1 ? odd : even).push_back(r);
    }
    if (kind == Kind::ring) ring_of(active);
    if (kind == Kind::complete) complete_of(active);
    if (kind == Kind::components) {
        ring_of(odd);
        complete_of(even);
    }
    return graph;
}

// Ints per block: in two components, the odd ranks' ring sends larger blocks, and from iteration
// 25 on larger still (another of auto mode's size classes), so that its component tries more
// call shapes than the other.
int units_of(Kind kind, int rank, int iteration) {
    if (kind != Kind::components || rank % 2 == 0) return 1;
    return iteration < 25 ? 3 : 6;
}

// The three shapes PETSc and its peers use, issued through the library on active ranks and
// compared with native MPI's blocking call on the same inputs.
class Exchange {
public:
    Exchange(MPI_Comm comm, int units) : comm_(comm) {
        int weighted = 0;
        MPI_Dist_graph_neighbors_count(comm, &in_, &out_, &weighted);
        set_units(units);
    }

    // Ints per block from now on.
    void set_units(int units) {
        units_ = units;
        counts_in_.assign(static_cast<std::size_t>(in_) + 1, units);
        counts_out_.assign(static_cast<std::size_t>(out_) + 1, units);
        displs_in_.clear();
        displs_out_.clear();
        for (int i = 0; i <= in_; ++i) displs_in_.push_back(i * units);
        for (int j = 0; j <= out_; ++j) displs_out_.push_back(j * units);
    }

    bool idle() const { return in_ == 0 && out_ == 0; }

    // One iteration's calls: blocking allgather, nonblocking alltoallv (PetscSF's), and where the
    // MPI has them a persistent alltoall. "" when each matched native MPI.
    std::string run(int iteration) {
        const int rank = rank_of(comm_);
        std::vector<int> send(static_cast<std::size_t>((out_ + 1) * units_));
        for (std::size_t i = 0; i < send.size(); ++i) send[i] = rank * 1000000 + static_cast<int>(i) * 1000 + iteration;
        const std::size_t in_values = static_cast<std::size_t>((in_ + 1) * units_);
        std::vector<int> mine(in_values, -1), native(in_values, -1);

        MPI_Neighbor_allgather(send.data(), units_, MPI_INT, mine.data(), units_, MPI_INT, comm_);
        PMPI_Neighbor_allgather(send.data(), units_, MPI_INT, native.data(), units_, MPI_INT, comm_);
        if (mine != native) return "neighbor_allgather differs";

        std::ranges::fill(mine, -1);
        std::ranges::fill(native, -1);
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Ineighbor_alltoallv(send.data(), counts_out_.data(), displs_out_.data(), MPI_INT, mine.data(),
                                counts_in_.data(), displs_in_.data(), MPI_INT, comm_, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        PMPI_Neighbor_alltoallv(send.data(), counts_out_.data(), displs_out_.data(), MPI_INT, native.data(),
                                counts_in_.data(), displs_in_.data(), MPI_INT, comm_);
        if (mine != native) return "ineighbor_alltoallv differs";

#if NBRCOMB_MPI_PERSISTENT_COLLECTIVES
        std::ranges::fill(mine, -1);
        std::ranges::fill(native, -1);
        MPI_Neighbor_alltoall_init(send.data(), units_, MPI_INT, mine.data(), units_, MPI_INT, comm_, MPI_INFO_NULL,
                                   &request);
        MPI_Start(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Request_free(&request);
        PMPI_Neighbor_alltoall(send.data(), units_, MPI_INT, native.data(), units_, MPI_INT, comm_);
        if (mine != native) return "persistent neighbor_alltoall differs";
#endif
        return "";
    }

private:
    MPI_Comm comm_;
    int units_ = 0;
    int in_ = 0, out_ = 0;
    std::vector<int> counts_in_, counts_out_, displs_in_, displs_out_;
};

class SkippingCaller : public testing::TestWithParam<std::tuple<ModeCase, Kind>> {};

// 50 iterations: in auto mode with the default settings Phase 1 and the trials happen inside
// them, every iteration's calls falling on either side of a trial.
TEST_P(SkippingCaller, idle_processes_never_call_and_nothing_waits_for_them) {
    const auto& [mode, kind] = GetParam();
    const int rank = rank_of(MPI_COMM_WORLD);
    Comm comm = create_dist_graph(MPI_COMM_WORLD, with_idle_rank0(kind, size_of(MPI_COMM_WORLD)), {.hints = mode.hints});
    Exchange exchange(comm, units_of(kind, rank, 0));
    std::string failure;
    for (int iteration = 0; iteration < 50; ++iteration) {
        exchange.set_units(units_of(kind, rank, iteration));
        if (!exchange.idle() && failure.empty()) failure = exchange.run(iteration);
        int token = 1;  // a Krylov solver's dot product between two exchanges
        MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    EXPECT_EQ(failure, "") << "rank " << rank;
    if (forced(mode) && !exchange.idle() && library_loaded()) {
        nbrcomb_stats stats{};
        ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
        EXPECT_GT(stats.calls, 0u) << "the library ran none of the calls";
    }
    EXPECT_TRUE(on_all_ranks(failure.empty()));
}

INSTANTIATE_TEST_SUITE_P(Modes, SkippingCaller,
                         testing::Combine(testing::ValuesIn(modes),
                                          testing::Values(Kind::ring, Kind::complete, Kind::components)),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

class InconsistentGraph : public testing::TestWithParam<ModeCase> {};

// As mpi4py's testDistgraphcommAdjacent: every rank lists an in-edge from its successor that
// the successor does not list (and, mirrored, an out-edge nobody lists). Creating, querying and
// freeing such graphs must work; the library leaves them to the MPI.
TEST_P(InconsistentGraph, is_created_queried_and_freed) {
    const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
    const int next = (rank + 1) % size;
    MPI_Info info = make_info(GetParam().hints);
    for (const bool mirrored : {false, true}) {
        const int none = 0;
        MPI_Comm comm = MPI_COMM_NULL;
        ASSERT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, mirrored ? 0 : 1, mirrored ? &none : &next,
                                                 MPI_UNWEIGHTED, mirrored ? 1 : 0, mirrored ? &next : &none,
                                                 MPI_UNWEIGHTED, info, 0, &comm),
                  MPI_SUCCESS);
        int in = -1, out = -1, weighted = -1;
        MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
        EXPECT_EQ(in, mirrored ? 0 : 1);
        EXPECT_EQ(out, mirrored ? 1 : 0);
        nbrcomb_stats stats{};
        if (library_loaded()) {
            EXPECT_EQ(comm_stats(comm, stats), MPI_ERR_COMM) << "the library manages it";
        }
        MPI_Comm_free(&comm);
    }
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
}

INSTANTIATE_TEST_SUITE_P(Modes, InconsistentGraph, testing::ValuesIn(modes),
                         [](const auto& info) { return info.param.name; });

}  // namespace
