// Datatypes in every mode, collective and form: type maps out of memory order travel in type-map
// order (a dense block proves nothing), and a datatype the program frees while an operation
// that uses it is in flight stays valid until the operation ends, a duplicate of a predefined
// one included.
#include "all_ranks.h"
#include "differential.h"
#include "mode_cases.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

// The out-of-order pairs of the catalog (datatypes.cpp), and one in order beside them.
const std::vector<std::string> out_of_order_pairs{"swapped_to_ints", "ints_to_swapped", "backward_struct_to_struct",
                                                  "negative_lb_swapped_to_ints", "int_twice_to_ints", "int"};

// A complete graph with self-loops (which the global mode runs as the MPI's global collective,
// and whose self-loops every mode copies locally), and a random graph with repeated edges,
// self-loops and processes without edges.
struct GraphCase {
    std::string name;
    Digraph (*graph)(int size);
};

void PrintTo(const GraphCase& graph, std::ostream* out) { *out << graph.name; }

Digraph complete_with_self(int size) { return named_digraph("complete", size); }
Digraph random_with_repeats(int size) { return random_digraph(size, 33); }

const std::vector<GraphCase> graph_cases{{"complete", complete_with_self}, {"random", random_with_repeats}};

bool skip(Form form) { return form == Form::persistent && !has_persistent_collectives; }

Expect expect_for(const ModeCase& mode) {
    return mode.hints.front().second == "auto" ? Expect::any_route : Expect::library_runs;
}

class OutOfOrder : public testing::TestWithParam<std::tuple<ModeCase, GraphCase, Form>> {};

// Auto mode decides from its trials, which the calls of a few rounds run both ways.
TEST_P(OutOfOrder, type_maps_travel_in_type_map_order) {
    const auto& [mode, graph, form] = GetParam();
    if (skip(form)) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, graph.graph(size_of(MPI_COMM_WORLD)), {.hints = mode.hints});
    const TypeCatalog catalog;
    const int rounds = expect_for(mode) == Expect::any_route ? 3 : 1;
    for (int round = 0; round < rounds; ++round) {
        std::vector<Check> checks;
        for (const Collective collective : all_collectives)
            for (const std::string& pair : out_of_order_pairs) {
                const bool edge_arrays = has_edge_arrays(collective);
                Call call = make_call(collective, comm, catalog,
                                      {.types = &catalog.pair(pair), .units = 3, .vary = edge_arrays, .reverse = edge_arrays});
                call.form = form;
                checks.push_back({std::move(call), std::string(name_of(collective)) + " " + pair});
            }
        expect_matches_native(checks, expect_for(mode));
    }
}

INSTANTIATE_TEST_SUITE_P(Modes, OutOfOrder,
                         testing::Combine(testing::ValuesIn(all_modes()), testing::ValuesIn(graph_cases),
                                          testing::Values(Form::blocking, Form::nonblocking, Form::persistent)),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name + "_" +
                                    name_of(std::get<2>(info.param));
                         });

// A vector receive type and a swapped send type, made afresh for one call.
struct FreshTypes {
    MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
    FreshTypes() {
        const int ones[2] = {1, 1}, swapped[2] = {1, 0};
        MPI_Type_indexed(2, ones, swapped, MPI_INT, &send);
        MPI_Type_commit(&send);
        MPI_Type_vector(2, 1, 2, MPI_INT, &recv);
        MPI_Type_commit(&recv);
    }
    void release() {
        if (send != MPI_DATATYPE_NULL) MPI_Type_free(&send);
        if (recv != MPI_DATATYPE_NULL) MPI_Type_free(&recv);
    }
};

// Starts call through the library, lets free_types free its datatypes right after the start
// (persistent: after the init, before the starts), completes the operation as often as it runs,
// and checks its buffers against native's for reference, the same call on live datatypes of the
// same layout.
void expect_native_results_when_freed_early(Call call, Form form, const std::function<void()>& free_types,
                                            Call reference, const std::string& what) {
    call.form = form;
    Outcome buffers = fresh_buffers(call);
    MPI_Request request = MPI_REQUEST_NULL;
    ASSERT_EQ(start_library_call(call, buffers, request), MPI_SUCCESS) << what;
    free_types();
    const int starts = form == Form::persistent ? 2 : 1;
    for (int start = 0; start < starts; ++start) {
        if (form == Form::persistent) {
            ASSERT_EQ(MPI_Start(&request), MPI_SUCCESS) << what;
        }
        ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << what;
    }
    if (form == Form::persistent) MPI_Request_free(&request);
    reference.form = form;
    expect_all_ranks(difference_from_native(reference, buffers).empty(), "results differ: " + what, MPI_COMM_WORLD);
}

class FreedInFlight : public testing::TestWithParam<std::tuple<ModeCase, Form>> {};

// The program frees both datatypes right after the call that starts the operation; the operation
// completes, with native's bytes, as often as it runs, and a datatype created next under the
// freed handle does not inherit its schedule.
TEST_P(FreedInFlight, operation_completes_with_native_results) {
    const auto& [mode, form] = GetParam();
    if (skip(form)) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, complete_with_self(size_of(MPI_COMM_WORLD)), {.hints = mode.hints});
    const TypeCatalog catalog;
    FreshTypes reference;
    const TypePair reference_pair{"reference", reference.send, 1, reference.recv, 1};
    const int calls = expect_for(mode) == Expect::any_route ? 12 : 3;  // auto: past Phase 1 and into the trials
    for (int i = 0; i < calls; ++i)
        for (const Collective collective : all_collectives) {
            FreshTypes doomed;
            const TypePair doomed_pair{"doomed", doomed.send, 1, doomed.recv, 1};
            expect_native_results_when_freed_early(
                make_call(collective, comm, catalog, {.types = &doomed_pair, .units = 2}), form,
                [&] { doomed.release(); }, make_call(collective, comm, catalog, {.types = &reference_pair, .units = 2}),
                std::string(name_of(collective)) + " call " + std::to_string(i));
        }
    reference.release();
}

INSTANTIATE_TEST_SUITE_P(Modes, FreedInFlight,
                         testing::Combine(testing::ValuesIn(all_modes()), testing::Values(Form::nonblocking, Form::persistent)),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

class FreedDuplicateOfPredefined : public testing::TestWithParam<std::tuple<ModeCase, Form>> {};

// A duplicate of a predefined datatype (MPI_Type_dup(MPI_INT)) is the program's to free like any
// derived one. Freed right after the call that starts the operation, its handle comes back for
// the next datatype the program makes (MPICH hands a freed handle out again first, Open MPI's
// allocator the freed object's memory): here one of another size, which the operation must never
// take for it. Before the library knew a duplicate from its original, a schedule kept the handle.
TEST_P(FreedDuplicateOfPredefined, operation_completes_with_native_results) {
    const auto& [mode, form] = GetParam();
    if (skip(form)) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, complete_with_self(size_of(MPI_COMM_WORLD)), {.hints = mode.hints});
    const TypeCatalog catalog;
    const TypePair& ints = catalog.pair("int");
    // The library meets MPI_INT first, as in a program that called with it before.
    ASSERT_EQ(run(Path::library, make_call(Collective::allgather, comm, catalog, {.types = &ints, .units = 2})).code,
              MPI_SUCCESS);
    const int calls = expect_for(mode) == Expect::any_route ? 12 : 3;  // auto: past Phase 1 and into the trials
    for (int i = 0; i < calls; ++i)
        for (const Collective collective : all_collectives) {
            MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
            MPI_Type_dup(MPI_INT, &send);
            MPI_Type_dup(MPI_INT, &recv);
            const TypePair duplicates{"duplicates", send, 1, recv, 1};
            std::vector<MPI_Datatype> newcomers(2);
            expect_native_results_when_freed_early(
                make_call(collective, comm, catalog, {.types = &duplicates, .units = 2}), form,
                [&] {
                    MPI_Type_free(&send);
                    MPI_Type_free(&recv);
                    MPI_Type_contiguous(3, MPI_CHAR, &newcomers[0]);
                    MPI_Type_vector(3, 1, 2, MPI_SHORT, &newcomers[1]);
                    for (MPI_Datatype& type : newcomers) MPI_Type_commit(&type);
                },
                make_call(collective, comm, catalog, {.types = &ints, .units = 2}),
                std::string(name_of(collective)) + " call " + std::to_string(i));
            for (MPI_Datatype& type : newcomers) MPI_Type_free(&type);
        }
}

INSTANTIATE_TEST_SUITE_P(Modes, FreedDuplicateOfPredefined,
                         testing::Combine(testing::ValuesIn(all_modes()), testing::Values(Form::nonblocking, Form::persistent)),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

// A derived datatype built of a Fortran kind's type (MPI_Type_create_f90_real), which MPI counts
// as predefined: the program never frees it, and neither may the library when it reads the
// derived type's contents (Open MPI aborts the job in MPI_Type_free).
TEST(FortranKindType, inside_a_derived_type_stays_the_mpis) {
    const Comm comm =
        create_dist_graph(MPI_COMM_WORLD, complete_with_self(size_of(MPI_COMM_WORLD)), {.hints = pairs_hints});
    MPI_Datatype real = MPI_DATATYPE_NULL, reals = MPI_DATATYPE_NULL;
    ASSERT_EQ(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &real), MPI_SUCCESS);
    MPI_Type_contiguous(2, real, &reals);
    MPI_Type_commit(&reals);
    const TypeCatalog catalog;
    const TypePair pair{"f90 reals", reals, 1, reals, 1};
    std::vector<Check> checks;
    for (const Collective collective : all_collectives)
        checks.push_back({make_call(collective, comm, catalog, {.types = &pair, .units = 2}), name_of(collective)});
    expect_matches_native(checks, Expect::library_runs);
    MPI_Type_free(&reals);
}

}  // namespace

namespace {

// A side of degree 0 may name MPI_DATATYPE_NULL: the library answers as Open MPI does (alltoallv
// checks its datatypes per edge, allgatherv its receive datatype always; MPICH rejects both) and
// asks the MPI nothing about a datatype that no edge uses, which would abort the job.
TEST(NullDatatype, on_sides_of_degree_zero_the_library_answers_as_open_mpi) {
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, edgeless(size_of(MPI_COMM_WORLD)), {.hints = pairs_hints});
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    std::vector<int> zero(1, 0);
    char buffer[2] = {};
    EXPECT_EQ(error_class(MPI_Neighbor_alltoallv(buffer, zero.data(), zero.data(), MPI_DATATYPE_NULL, buffer + 1,
                                                 zero.data(), zero.data(), MPI_DATATYPE_NULL, comm)),
              MPI_SUCCESS);
    EXPECT_EQ(error_class(MPI_Neighbor_allgatherv(buffer, 0, MPI_INT, buffer + 1, zero.data(), zero.data(),
                                                  MPI_DATATYPE_NULL, comm)),
              MPI_ERR_TYPE);
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

}  // namespace
