// The differential harness: a neighborhood collective run through the library
// (MPI_Neighbor_*) and natively (PMPI_Neighbor_*) on the same inputs must return the same and
// leave the same bytes everywhere in the receive buffer, gaps included.
#pragma once

#include "datatypes.h"
#include "common/neighbor_call.h"

#include <mpi.h>
#include <nbrcomb/nbrcomb.h>

#include <cstddef>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::test {

using calls::all_collectives;
using calls::Collective;
using calls::name_of;
inline bool has_edge_arrays(Collective c) { return c != Collective::allgather && c != Collective::alltoall; }

// library: MPI_Neighbor_*, which the library intercepts. native: PMPI_Neighbor_*.
using calls::Path;

// How a call is issued: MPI_Neighbor_*; MPI_Ineighbor_* and MPI_Wait; or (MPI-4)
// MPI_Neighbor_*_init, then MPI_Start and MPI_Wait twice (the receive buffer reset to its
// sentinels in between, so the second start shows what reuse gives), then MPI_Request_free.
using calls::Form;
// Whether the MPI has the persistent neighborhood collectives, and the large-count forms.
using calls::has_large_count_forms;
using calls::has_persistent_collectives;

// One side of a call. Per-edge arrays carry one spare entry past the degree so they are never
// NULL at degree 0 (Open MPI 4.1 rejects NULL there, the standard allows it); the null_*
// and in_place flags let tests pass the invalid values instead.
struct Side {
    int count = 0;                          // allgather, alltoall, send side of allgatherv
    MPI_Datatype type = MPI_DATATYPE_NULL;  // all but alltoallw
    std::vector<int> counts{};              // v and w forms
    std::vector<int> displs{};              // v forms, in extents of type
    std::vector<MPI_Aint> byte_displs{};    // alltoallw
    std::vector<MPI_Datatype> types{};      // alltoallw
    bool in_place = false;
    bool null_counts = false;
    bool null_displs = false;
    bool null_types = false;
};

// One call: its arguments and the buffer contents it starts from.
struct Call {
    Collective collective = Collective::allgather;
    Form form = Form::blocking;
    MPI_Comm comm = MPI_COMM_NULL;
    Side send, recv;
    // Send and receive regions lie apart in one buffer passed as both (legal, unlike MPI_IN_PLACE).
    bool same_buffer = false;
    // Issued through the large-count forms (MPI-4 MPI_Neighbor_*_c), counts and displacements widened.
    bool large_count = false;
    std::vector<std::byte> send_bytes;  // data to send; empty when same_buffer
    std::vector<std::byte> recv_bytes;  // sentinels (and, when same_buffer, the data to send)
    std::vector<int> sources, destinations;
    std::vector<int> source_edges, destination_edges;  // which edge between its ends each block is (Neighborhood)
};

// How make_call shapes a call.
struct Shape {
    const TypePair* types = nullptr;
    int units = 1;             // per edge; the v and w forms may vary it
    bool vary = false;         // v and w forms: units from 0 to units, different per edge
    bool reverse = false;      // v and w forms: blocks in reverse neighbor order
    bool same_buffer = false;  // v and w forms
    bool mixed_types = false;  // alltoallw: every edge picks its own type pair
    std::string describe() const;
};

// A valid call of collective on comm: blocks of the v and w forms sit apart with gaps, the send
// buffer holds a pattern unique to rank and byte, the receive buffer a sentinel pattern. Both
// ends of every edge derive the same counts (and types), repeated edges included.
Call make_call(Collective collective, MPI_Comm comm, const TypeCatalog& catalog, const Shape& shape);

// What a call returned and left in fresh copies of its buffers.
struct Outcome {
    int code = MPI_SUCCESS;
    std::vector<std::byte> send_bytes, recv_bytes;
    bool starts_disagree = false;  // persistent: the two starts left different receive buffers
};
Outcome run(Path path, const Call& call);

// For tests that keep several operations in flight: fresh copies of call's buffers, and the
// library's start of call on them (MPI_Ineighbor_*, or MPI_Neighbor_*_init without the start,
// as call.form says).
Outcome fresh_buffers(const Call& call);
int start_library_call(const Call& call, Outcome& buffers, MPI_Request& request);

// Collective: "" if buffers hold what native MPI's blocking call leaves for call (the
// point-to-point reference where native MPI is known wrong), else what differs.
std::string difference_from_native(const Call& call, const Outcome& buffers);

// Whether the library must run the call itself (it manages the communicator), must leave it to
// native MPI (it does not manage the communicator), or manages the communicator and may take
// either way (auto mode; never to a native MPI known wrong for the call).
enum class Expect { library_runs, native_runs, any_route };

// A call to check, and how a failure names it.
struct Check {
    Call call;
    std::string what;
};

// Collective: runs every check's call through the library and natively and checks, on every
// rank, that both succeed with identical buffers, that the send buffer is untouched, and
// through nbrcomb_comm_stats that the library ran the call itself or left the communicator
// alone, as expect says. Where the library must run a call and native MPI is known to get it
// wrong (MPICH 4.0), a reference stands in: one point-to-point message per edge, as the
// standard prescribes. A rank reports its first failing check; all ranks run all checks, so one
// reduction at the end decides.
bool expect_matches_native(const std::vector<Check>& checks, Expect expect = Expect::library_runs,
                           std::source_location where = std::source_location::current());

bool expect_matches_native(const Call& call, std::string_view what, Expect expect = Expect::library_runs,
                           std::source_location where = std::source_location::current());

// Collective: whether native MPI is known to get call wrong (MPICH 4.0: repeated edges,
// alltoallw); the library then runs the calls it manages itself, those it would leave to native
// MPI included.
bool native_known_wrong(const Call& call);

// expect_matches_native for every collective on comm, shaped alike.
bool expect_all_collectives_match_native(MPI_Comm comm, const TypeCatalog& catalog, const Shape& shape,
                                         std::string_view what, Expect expect = Expect::library_runs,
                                         std::source_location where = std::source_location::current());

// Collective: runs erroneous call both ways and checks that the library writes nothing outside
// the receive blocks the call describes and fails with native MPI's error class (or, unless
// same_class, with any class where native MPI fails).
bool expect_same_error(const Call& call, std::string_view what, bool same_class = true,
                       std::source_location where = std::source_location::current());

// Collective: the same for an erroneous call native MPI crashes on: the library must fail
// with any error class.
bool expect_library_fails(const Call& call, std::string_view what,
                          std::source_location where = std::source_location::current());

// nbrcomb_comm_stats of the loaded library, looked up at run time so that linked and preloaded
// builds are tested alike; MPI_ERR_OTHER when the library is not loaded.
bool library_loaded();
int comm_stats(MPI_Comm comm, nbrcomb_stats& stats);
int comm_reset_stats(MPI_Comm comm);

// Collective: records a failure unless the library is loaded (every rank loads the same).
bool expect_library_loaded(std::source_location where = std::source_location::current());

}  // namespace nbrcomb::test
