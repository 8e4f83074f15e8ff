// One fuzz case: what every rank draws alike from (seed, case index), and running it: the
// communicator, the calls through the MPI_ names the library intercepts, and each call checked
// byte for byte against point-to-point messages on a communicator of its own.
#pragma once

#include "common/neighbor_call.h"
#include "fuzz_modes.h"
#include "random_datatype.h"
#include "random_graph.h"

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nbrcomb::fuzz {

using calls::Collective;
using calls::Form;

// One operation of a case; which units each edge carries is drawn from key, per process and
// per edge, so that both ends of an edge derive the same without asking each other.
struct OpSpec {
    Collective collective = Collective::allgather;
    int comm = 0;         // 0: the graph communicator; 1: a duplicate of it
    Signature unit;       // all but alltoallw, whose edges draw units of their own
    int block_units = 0;  // allgather and alltoall: units per block
    std::uint64_t key = 0;
};

struct CaseSpec {
    std::uint64_t seed = 0;
    int index = 0;
    const Mode* mode = nullptr;
    // The MPI's own collectives may run the calls: the library is not loaded, or mode is off.
    bool may_run_natively = false;
    Graph graph;
    Construction construction;
    Form form = Form::blocking;
    int calls = 1;  // how often every operation runs, each run checked
    bool two_comms = false;
    bool free_types_early = false;  // the datatypes are freed right after each start (or init)
    std::vector<OpSpec> ops;
};

// The same on every rank. forced_mode, where not null, replaces the drawn mode and shapes the
// rest of the case as if drawn. Where the MPI's own collectives may run the calls, the case
// avoids what they are known to get wrong (native_quirks.h).
CaseSpec draw_case(std::uint64_t seed, int index, int size, const Mode* forced_mode, bool library_loaded);

// One line: the operations, the form, the calls, the graph.
std::string describe(const CaseSpec& spec);

struct CaseOutcome {
    bool failed = false;
    std::string problem;  // the first rank's first problem, on every rank
};

struct Watch {
    std::chrono::steady_clock::time_point deadline;
    // Called by a rank still waiting past the deadline, with what it waits for; does not return.
    std::function<void(const std::string&)> hang;
    bool verbose = false;  // every rank prints its blocks and datatypes
};

// Collective over MPI_COMM_WORLD: runs spec and checks every call against the point-to-point
// reference on reference_comm (a duplicate of MPI_COMM_WORLD). All ranks return the same.
CaseOutcome run_case(const CaseSpec& spec, MPI_Comm reference_comm, const Watch& watch);

}  // namespace nbrcomb::fuzz
