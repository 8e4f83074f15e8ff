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
    Form form = Form::blocking;  // the case's, or in a case of mixed forms its own
    int comm = 0;         // 0: the graph communicator; 1: a duplicate of it
    Signature unit;       // all but alltoallw, whose edges draw units of their own
    int block_units = 0;  // allgather and alltoall: units per block
    std::uint64_t key = 0;
};

// What a case does with the datatypes it gives its nonblocking and persistent calls right after
// the call that starts (or initializes) them: keeps them, frees duplicates of its own types
// (predefined ones included, MPI_Type_dup(MPI_INT)), or frees derived types it made again for the
// call (new handles every call, as a program that builds its types where it calls).
enum class EarlyFree { none, duplicates, remade };

struct CaseSpec {
    std::uint64_t seed = 0;
    int index = 0;
    const Mode* mode = nullptr;
    // The MPI's own collectives may run the calls: the library is not loaded, or mode is off.
    bool may_run_natively = false;
    Graph graph;
    Construction construction;
    Form form = Form::blocking;
    // Nonblocking cases: some operations blocking, run while the others are in flight.
    bool mixed_forms = false;
    // A barrier on the graph communicator between the starts of two operations.
    bool barriers = false;
    int calls = 1;  // how often every operation runs, each run checked
    bool two_comms = false;
    EarlyFree early_free = EarlyFree::none;
    // Nonblocking cases: the communicators are freed right after the last call's operations
    // started, while they are in flight.
    bool free_comms_early = false;
    std::vector<OpSpec> ops;
};

// How a case is drawn besides its seed and index: forced_mode, where not null, replaces the
// drawn mode and shapes the rest of the case as if drawn; early_free_percent of the nonblocking
// and persistent cases free their datatypes early.
struct DrawOptions {
    const Mode* forced_mode = nullptr;
    bool library_loaded = true;
    int early_free_percent = 25;
};

// The same on every rank. Where the MPI's own collectives may run the calls, the case avoids
// what they are known to get wrong (native_quirks.h).
CaseSpec draw_case(std::uint64_t seed, int index, int size, const DrawOptions& options);

// One line: the operations, the form, the calls, the graph.
std::string describe(const CaseSpec& spec);

struct CaseOutcome {
    bool failed = false;
    std::string problem;  // the first rank's first problem, on every rank
};

// Random pauses before a rank starts an operation and before it completes them, from draws of
// their own (seed 0: none), so that the same case meets other timings and keeps its content.
struct Timing {
    std::uint64_t seed = 0;
    int max_pause_us = 400;
};

struct Watch {
    std::chrono::steady_clock::time_point deadline;
    // Called by a rank still waiting past the deadline, with what it waits for; does not return.
    std::function<void(const std::string&)> hang;
    bool verbose = false;  // every rank prints its blocks and datatypes
};

// Collective over MPI_COMM_WORLD: runs spec and checks every call against the point-to-point
// reference on reference_comm (a duplicate of MPI_COMM_WORLD). All ranks return the same.
CaseOutcome run_case(const CaseSpec& spec, MPI_Comm reference_comm, const Watch& watch, const Timing& timing);

}  // namespace nbrcomb::fuzz
