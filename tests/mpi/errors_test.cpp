// Erroneous calls fail with the error class native MPI gives, through the communicator's error
// handler, exactly once, and leave the communicator usable; calls on communicators the
// library does not manage reach native MPI unchanged.
#include "all_ranks.h"
#include "datatypes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <string>

using namespace nbrcomb::test;

namespace {

// Ways to break one side of a call.
enum class Fault { negative_count, datatype_null, in_place, null_counts, null_displacements, null_types, truncation };
constexpr Fault all_faults[] = {Fault::negative_count,     Fault::datatype_null, Fault::in_place,  Fault::null_counts,
                                Fault::null_displacements, Fault::null_types,    Fault::truncation};

const char* name_of(Fault fault) {
    switch (fault) {
    case Fault::negative_count: return "negative count";
    case Fault::datatype_null: return "MPI_DATATYPE_NULL";
    case Fault::in_place: return "MPI_IN_PLACE";
    case Fault::null_counts: return "NULL counts";
    case Fault::null_displacements: return "NULL displacements";
    case Fault::null_types: return "NULL types";
    case Fault::truncation: return "count smaller than sent";
    }
    return "?";
}

// Whether the side has what fault breaks; a truncation only the receiving end can see.
bool applies(Fault fault, const Side& side, bool send_side) {
    switch (fault) {
    case Fault::null_counts:
    case Fault::null_displacements: return !side.counts.empty();
    case Fault::null_types: return !side.types.empty();
    case Fault::truncation: return !send_side;
    default: return true;
    }
}

// The count of the side's first edge (or its only count).
int& first_count(Side& side) { return side.counts.empty() ? side.count : side.counts[0]; }

void apply(Fault fault, Side& side) {
    switch (fault) {
    case Fault::negative_count: first_count(side) = -1; break;
    case Fault::datatype_null: (side.types.empty() ? side.type : side.types[0]) = MPI_DATATYPE_NULL; break;
    case Fault::in_place: side.in_place = true; break;
    case Fault::null_counts: side.null_counts = true; break;
    case Fault::null_displacements: side.null_displs = true; break;
    case Fault::null_types: side.null_types = true; break;
    case Fault::truncation: --first_count(side); break;
    }
}

// What native MPI's answer to a fault says about the library's.
enum class Judgement {
    same_class,         // both fail with the same error class
    fails_with_native,  // a truncation, whose class MPIs choose freely (some let it pass):
                        // the library fails where native MPI does
    fails_alone,        // native MPI crashes: the library must fail cleanly
};

// Open MPI 4.1 dereferences NULL recvcounts of allgatherv, and its MPI_Ineighbor_allgatherv
// does not check them for negative counts, nor do Open MPI 5.0's persistent forms; MPICH 4.0 dereferences MPI_IN_PLACE and every NULL
// array, and its persistent forms check no count and, after a truncation, leave messages
// behind that a later communicator with the recycled context receives.
Judgement judgement([[maybe_unused]] Fault fault, [[maybe_unused]] Collective collective,
                    [[maybe_unused]] bool send_side, [[maybe_unused]] Form form) {
#ifndef OPEN_MPI
    if (form == Form::persistent) return Judgement::fails_alone;
#endif
    if (fault == Fault::truncation) return Judgement::fails_with_native;
#ifdef OPEN_MPI
    if (form == Form::persistent && fault == Fault::negative_count) return Judgement::fails_alone;
    if (collective == Collective::allgatherv && !send_side &&
        (fault == Fault::null_counts || (fault == Fault::negative_count && form == Form::nonblocking)))
        return Judgement::fails_alone;
#else
    if (fault != Fault::negative_count && fault != Fault::datatype_null) return Judgement::fails_alone;
#endif
    return Judgement::same_class;
}

// MPICH 4.0 checks the count arrays of a communicator without topology up to an uninitialized
// degree, so its class for the v and w forms depends on what is on the stack.
bool native_judges_without_topology([[maybe_unused]] Collective collective) {
#ifdef OPEN_MPI
    return true;
#else
    return !has_edge_arrays(collective);
#endif
}

Shape ints_shape(const TypeCatalog& catalog) { return {.types = &catalog.pair("int"), .units = 3}; }

// Open MPI 4.1 raises some errors (MPI_IN_PLACE in alltoall) on MPI_COMM_WORLD instead of the
// call's communicator, so the world must return errors too while native MPI gets bad calls.
// Without the library every comparison would hold (all ranks load the same, so no rank waits).
class Errors : public testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(library_loaded()) << "libnbrcomb is not loaded (no nbrcomb_comm_stats)";
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }
    void TearDown() override { MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL); }
};

// A communicator whose errors return to the caller.
Comm returning_errors(Comm comm) {
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    return comm;
}

// The same in the blocking, nonblocking and persistent forms of the calls.
class ErrorsInForm : public Errors, public testing::WithParamInterface<Form> {
protected:
    void SetUp() override {
        if (GetParam() == Form::persistent && !has_persistent_collectives)
            GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
        Errors::SetUp();
    }

    Call make(Collective collective, MPI_Comm comm, const TypeCatalog& catalog) const {
        Call call = make_call(collective, comm, catalog, ints_shape(catalog));
        call.form = GetParam();
        return call;
    }
};

INSTANTIATE_TEST_SUITE_P(Forms, ErrorsInForm, testing::Values(Form::blocking, Form::nonblocking, Form::persistent),
                         [](const testing::TestParamInfo<Form>& info) { return name_of(info.param); });

TEST_P(ErrorsInForm, invalid_arguments_fail_as_natively_and_leave_the_communicator_usable) {
    // Every rank has degree 1, so every rank fails alike and none waits for a failed one.
    const Comm comm = returning_errors(create_dist_graph(MPI_COMM_WORLD, ring(size_of(MPI_COMM_WORLD)), {}));
    const TypeCatalog catalog;
    for (const Collective collective : all_collectives) {
        const Call valid = make(collective, comm, catalog);
        for (const bool send_side : {true, false})
            for (const Fault fault : all_faults) {
                Call call = valid;
                Side& side = send_side ? call.send : call.recv;
                if (!applies(fault, side, send_side)) continue;
                apply(fault, side);
                const std::string what = std::string(name_of(fault)) + (send_side ? " to send" : " to receive");
                // A wrong class is worth reporting for every fault; a failed valid call ends the test.
                switch (judgement(fault, collective, send_side, GetParam())) {
                case Judgement::same_class: expect_same_error(call, what); break;
                case Judgement::fails_with_native: expect_same_error(call, what, false); break;
                case Judgement::fails_alone: expect_library_fails(call, what); break;
                }
                if (!expect_matches_native(valid, "a valid call after " + what)) return;
            }
    }
}

TEST_F(Errors, communicator_without_topology_fails_as_natively) {
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    const Comm comm = returning_errors(Comm(dup));
    const TypeCatalog catalog;
    for (const Collective collective : all_collectives)
        if (native_judges_without_topology(collective) &&
            !expect_same_error(make_call(collective, comm, catalog, ints_shape(catalog)), "no topology"))
            return;
}

TEST_F(Errors, cartesian_communicator_errors_stay_native) {
    const int size = size_of(MPI_COMM_WORLD);
    const int dims[] = {size}, periods[] = {0};
    MPI_Comm cart = MPI_COMM_NULL;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    const Comm comm = returning_errors(Comm(cart));
    const TypeCatalog catalog;
    for (const Collective collective : all_collectives) {
        Call call = make_call(collective, comm, catalog, ints_shape(catalog));
        apply(Fault::negative_count, call.send);
        if (!expect_same_error(call, "negative count on a Cartesian communicator")) return;
    }
}

// The call whose native error class the library's must have: MPICH 4.0's persistent forms
// check no count, so there its blocking form's class stands in.
Call native_reference(Call call) {
#ifndef OPEN_MPI
    if (call.form == Form::persistent) call.form = Form::blocking;
#endif
    return call;
}

int handler_invocations = 0;
void count_invocation(MPI_Comm*, int*, ...) { ++handler_invocations; }

TEST_P(ErrorsInForm, error_goes_through_the_user_error_handler_once) {
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, ring(size_of(MPI_COMM_WORLD)), {});
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(count_invocation, &handler);
    MPI_Comm_set_errhandler(comm, handler);
    MPI_Errhandler_free(&handler);
    const TypeCatalog catalog;
    for (const Collective collective : all_collectives) {
        Call call = make(collective, comm, catalog);
        apply(Fault::negative_count, call.send);
        handler_invocations = 0;
        const int code = run(Path::library, call).code;
        const int library_invocations = handler_invocations;
        handler_invocations = 0;
        const int native_code = run(Path::native, native_reference(call)).code;
        const bool ok =
            library_invocations == 1 && handler_invocations == 1 && error_class(code) == error_class(native_code);
        if (!expect_all_ranks(ok, std::string(name_of(collective)) + ": the handler ran " +
                                      std::to_string(library_invocations) + " times for the library's error (class " +
                                      std::to_string(error_class(code)) + "), " + std::to_string(handler_invocations) +
                                      " times for native MPI's (class " + std::to_string(error_class(native_code)) +
                                      ")"))
            return;
    }
}

TEST_F(Errors, null_arrays_are_accepted_at_degree_zero) {
    // Not compared with native MPI: Open MPI 4.1 rejects some NULL arrays even at degree 0.
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, edgeless(size_of(MPI_COMM_WORLD)), {});
    const TypeCatalog catalog;
    for (const Collective collective : all_collectives) {
        if (!has_edge_arrays(collective)) continue;
        Call call = make_call(collective, comm, catalog, ints_shape(catalog));
        for (Side* side : {&call.send, &call.recv}) {
            side->null_counts = !side->counts.empty();
            side->null_displs = !side->counts.empty();
            side->null_types = !side->types.empty();
        }
        const Outcome outcome = run(Path::library, call);
        if (!expect_all_ranks(outcome.code == MPI_SUCCESS && outcome.recv_bytes == call.recv_bytes,
                              std::string(name_of(collective)) + ": NULL arrays at degree 0 give error class " +
                                  std::to_string(error_class(outcome.code)) + " or change the receive buffer"))
            return;
    }
}

}  // namespace
