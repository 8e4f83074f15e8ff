// The library follows its communicators through duplication and freeing, leaves the ones it
// does not manage alone, and never takes the application's messages.
#include "all_ranks.h"
#include "datatypes.h"
#include "differential.h"
#include "topologies.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <array>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace nbrcomb::test;

namespace {

Comm random_topology(std::uint64_t seed, Construction construction = Construction::adjacent) {
    return create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), seed),
                             {.construction = construction});
}

Comm duplicate(MPI_Comm comm) {
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(comm, &dup);
    return Comm(dup);
}

Shape varying_ints(const TypeCatalog& catalog) {
    return {.types = &catalog.pair("int"), .units = 5, .vary = true, .reverse = true};
}

// Handle indices are handed out lowest free first, so one that keeps growing over
// create/free cycles means objects of that kind leak.
MPI_Fint next_comm_index() {
    Comm probe = duplicate(MPI_COMM_WORLD);
    return MPI_Comm_c2f(probe);
}

MPI_Fint next_type_index() {
    MPI_Datatype probe = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &probe);
    const MPI_Fint index = MPI_Type_c2f(probe);
    MPI_Type_free(&probe);
    return index;
}

bool expect_managed(MPI_Comm comm, std::string_view what) {
    nbrcomb_stats stats{};
    const int code = comm_stats(comm, stats);
    return expect_all_ranks(code == MPI_SUCCESS, std::string(what) + ": nbrcomb_comm_stats gives error class " +
                                                     std::to_string(error_class(code)));
}

TEST(Communicator, duplicate_of_a_topology_communicator_runs_through_the_library) {
    const Comm topology = random_topology(11);
    const Comm dup = duplicate(topology);
    const TypeCatalog catalog;
    if (!expect_managed(dup, "the duplicate")) return;
    expect_all_collectives_match_native(dup, catalog, varying_ints(catalog), "on the duplicate");
}

TEST(Communicator, duplicate_outlives_the_original) {
    Comm topology = random_topology(12, Construction::general);
    const Comm dup = duplicate(topology);
    const TypeCatalog catalog;
    if (!expect_all_collectives_match_native(topology, catalog, varying_ints(catalog), "on the original")) return;
    topology.reset();
    if (!expect_managed(dup, "the duplicate of a freed communicator")) return;
    expect_all_collectives_match_native(dup, catalog, varying_ints(catalog),
                                        "on the duplicate of a freed communicator");
}

TEST(Communicator, create_and_free_cycles_leak_no_communicators_or_datatypes) {
    if (!expect_library_loaded()) return;
    constexpr int cycles = 200;
    const TypeCatalog catalog;
    // Equal counts on all edges: with mode off this runs natively, and MPICH 4.0 misplaces repeated edges.
    const Shape shape{.types = &catalog.pair("struct_with_holes"), .units = 2};
    // Both constructors, a combining mode, and mode off (the library sets up and drops its state).
    const std::vector<TopologyOptions> variants{
        {.construction = Construction::adjacent},
        {.construction = Construction::general, .hints = pairs_hints},
        {.construction = Construction::adjacent, .hints = {{"nbrcomb_mode", "off"}}},
    };
    const auto cycle = [&](int i) {
        const Comm topology = create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 100 + i % 7),
                                                variants[static_cast<std::size_t>(i) % variants.size()]);
        const Comm dup = duplicate(topology);
        const Outcome outcome = run(Path::library, make_call(Collective::alltoallv, dup, catalog, shape));
        return outcome.code == MPI_SUCCESS;
    };
    // One cycle first, so that anything the library sets up once per process already exists.
    if (!expect_all_ranks(cycle(0), "a collective in the first cycle fails")) return;
    const MPI_Fint comms_before = next_comm_index(), types_before = next_type_index();
    bool all_succeeded = true;
    for (int i = 1; i <= cycles; ++i) all_succeeded = cycle(i) && all_succeeded;
    const MPI_Fint comms_after = next_comm_index(), types_after = next_type_index();
    // A little room for MPI's own lazily created objects; a leak per cycle shows as hundreds.
    constexpr MPI_Fint slack = 8;
    expect_all_ranks(all_succeeded, "a collective failed during the cycles");
    expect_all_ranks(comms_after <= comms_before + slack,
                     "communicator handle index grew from " + std::to_string(comms_before) + " to " +
                         std::to_string(comms_after) + " over " + std::to_string(cycles) + " cycles");
    expect_all_ranks(types_after <= types_before + slack,
                     "datatype handle index grew from " + std::to_string(types_before) + " to " +
                         std::to_string(types_after) + " over " + std::to_string(cycles) + " cycles");
}

// Communicators the library must leave to native MPI: no statistics, native results.
void expect_native(MPI_Comm comm, std::string_view what) {
    nbrcomb_stats stats{};
    const int code = comm_stats(comm, stats);
    if (!expect_all_ranks(code == MPI_ERR_COMM, std::string(what) + ": nbrcomb_comm_stats gives error class " +
                                                    std::to_string(error_class(code)) + ", not MPI_ERR_COMM"))
        return;
    const TypeCatalog catalog;
    expect_all_collectives_match_native(comm, catalog, varying_ints(catalog), what, Expect::native_runs);
}

TEST(Communicator, mode_off_hint_leaves_the_communicator_native) {
    const Comm comm = create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 13),
                                        {.hints = {{"nbrcomb_mode", "off"}}});
    expect_native(comm, "nbrcomb_mode=off");
}

// The message every rank sends to the next one, and what the receiver checks.
constexpr int user_tag = 7;
std::array<int, 2> user_message(int sender) { return {sender, 424242}; }

std::string user_message_problem(const MPI_Status& status, const std::array<int, 2>& received, int size, int rank) {
    const int sender = (rank + size - 1) % size;
    if (status.MPI_SOURCE != sender || status.MPI_TAG != user_tag || received != user_message(sender))
        return "got {" + std::to_string(received[0]) + ", " + std::to_string(received[1]) + "} from " +
               std::to_string(status.MPI_SOURCE) + " with tag " + std::to_string(status.MPI_TAG) +
               ", expected the user's message from " + std::to_string(sender) + " with tag " + std::to_string(user_tag);
    return {};
}

// Posts a wildcard receive on comm, runs work (collective, true if it went well), and checks
// that the receive still waits and then gets the message the previous rank sends.
void expect_wildcard_receive_gets_user_message(MPI_Comm comm, const std::function<bool()>& work) {
    const int rank = rank_of(comm), size = size_of(comm);
    std::array<int, 2> received{-1, -1};
    MPI_Request receive = MPI_REQUEST_NULL;
    MPI_Irecv(received.data(), 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &receive);

    const bool work_ok = work();
    int completed = 0;
    MPI_Status status{};
    MPI_Test(&receive, &completed, &status);
    const bool untouched = expect_all_ranks(!completed, "the pending wildcard receive matched library traffic");
    if (!work_ok || !untouched) {
        MPI_Cancel(&receive);
        MPI_Wait(&receive, MPI_STATUS_IGNORE);
        return;
    }

    const std::array<int, 2> message = user_message(rank);
    MPI_Send(message.data(), 2, MPI_INT, (rank + 1) % size, user_tag, comm);
    MPI_Wait(&receive, &status);
    const std::string problem = user_message_problem(status, received, size, rank);
    expect_all_ranks(problem.empty(), problem);
}

TEST(Communicator, wildcard_receive_posted_before_collectives_gets_the_user_message) {
    const Comm comm = random_topology(14);
    const TypeCatalog catalog;
    expect_wildcard_receive_gets_user_message(comm, [&] {
        return expect_all_collectives_match_native(comm, catalog, varying_ints(catalog),
                                                   "with a wildcard receive pending");
    });
}

TEST(Communicator, wildcard_receive_on_the_old_communicator_survives_topology_setup) {
    // Setting up a combining pattern communicates; none of it may use the application's communicator.
    const Comm base = duplicate(MPI_COMM_WORLD);
    const TypeCatalog catalog;
    expect_wildcard_receive_gets_user_message(base, [&] {
        const Comm topology = create_dist_graph(base, random_digraph(size_of(base), 16), {.hints = pairs_hints});
        return expect_all_collectives_match_native(topology, catalog, varying_ints(catalog),
                                                   "with a wildcard receive pending on the old communicator");
    });
}

TEST(Communicator, user_message_sent_before_collectives_stays_for_the_user) {
    const Comm comm =
        create_dist_graph(MPI_COMM_WORLD, random_digraph(size_of(MPI_COMM_WORLD), 15), {.hints = pairs_hints});
    const int rank = rank_of(comm), size = size_of(comm);
    const std::array<int, 2> message = user_message(rank);
    MPI_Request send = MPI_REQUEST_NULL;
    MPI_Isend(message.data(), 2, MPI_INT, (rank + 1) % size, user_tag, comm, &send);

    const TypeCatalog catalog;
    expect_all_collectives_match_native(comm, catalog, varying_ints(catalog), "with a user message waiting");

    std::array<int, 2> received{-1, -1};
    MPI_Status status{};
    MPI_Recv(received.data(), 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &status);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    const std::string problem = user_message_problem(status, received, size, rank);
    expect_all_ranks(problem.empty(), problem);
}

}  // namespace

namespace {

template <class Function>
Function* library_function(const char* name) {
    return reinterpret_cast<Function*>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

// The query fills as much of the struct as the caller says it holds: a program built with an older
// header gets its fields, one with a newer header zeros past this library's, and a size that ends
// inside a field is refused. The unsized symbol, for programs built with version 0.2's header,
// fills 0.2's fields.
TEST(Communicator, statistics_fill_the_callers_struct_size) {
    if (!expect_library_loaded()) return;
    const auto sized = library_function<decltype(nbrcomb_comm_stats_sized)>("nbrcomb_comm_stats_sized");
    using Unsized = int(MPI_Comm, nbrcomb_stats*);
    const auto unsized = library_function<Unsized>("nbrcomb_comm_stats");
    ASSERT_NE(unsized, nullptr);
    const Comm topology = random_topology(5);
    nbrcomb_stats full{};
    ASSERT_EQ(sized(topology, &full, sizeof full), MPI_SUCCESS);

    const std::size_t prefix = offsetof(nbrcomb_stats, calls) + sizeof full.calls;
    nbrcomb_stats part;
    std::memset(&part, 0xab, sizeof part);
    ASSERT_EQ(sized(topology, &part, prefix), MPI_SUCCESS);
    EXPECT_EQ(std::memcmp(&part, &full, prefix), 0);
    EXPECT_EQ(reinterpret_cast<const unsigned char*>(&part)[prefix], 0xab) << "written past the caller's size";
    EXPECT_EQ(sized(topology, &part, prefix - 1), MPI_ERR_ARG);

    struct Newer {
        nbrcomb_stats known;
        unsigned long long later;
    } newer;
    std::memset(&newer, 0xab, sizeof newer);
    ASSERT_EQ(sized(topology, &newer.known, sizeof newer), MPI_SUCCESS);
    EXPECT_EQ(newer.later, 0u);
    EXPECT_EQ(newer.known.mode, full.mode);

    const std::size_t old_size = offsetof(nbrcomb_stats, auto_native) + sizeof full.auto_native;
    std::memset(&part, 0xab, sizeof part);
    ASSERT_EQ(unsized(topology, &part), MPI_SUCCESS);
    EXPECT_EQ(std::memcmp(&part, &full, old_size), 0);
    EXPECT_EQ(reinterpret_cast<const unsigned char*>(&part)[old_size], 0xab);
    EXPECT_EQ(sized(MPI_COMM_WORLD, &part, sizeof part), MPI_ERR_COMM);
}

// Every mode's name reads back as the mode, in any case; no other name is a mode.
TEST(Communicator, mode_names_read_back) {
    if (!expect_library_loaded()) return;
    const auto name_of = library_function<decltype(nbrcomb_mode_name)>("nbrcomb_mode_name");
    const auto mode_of = library_function<decltype(nbrcomb_mode_from_name)>("nbrcomb_mode_from_name");
    ASSERT_NE(name_of, nullptr);
    ASSERT_NE(mode_of, nullptr);
    for (int value = NBRCOMB_MODE_OFF; value <= NBRCOMB_MODE_GLOBAL; ++value) {
        const auto mode = static_cast<nbrcomb_mode>(value);
        const char* name = name_of(mode);
        ASSERT_NE(name, nullptr) << value;
        std::string upper(name);
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        nbrcomb_mode read = NBRCOMB_MODE_OFF;
        EXPECT_EQ(mode_of(upper.c_str(), &read), MPI_SUCCESS) << name;
        EXPECT_EQ(read, mode) << name;
    }
    EXPECT_EQ(name_of(static_cast<nbrcomb_mode>(NBRCOMB_MODE_GLOBAL + 1)), nullptr);
    nbrcomb_mode read = NBRCOMB_MODE_OFF;
    EXPECT_EQ(mode_of("fastest", &read), MPI_ERR_ARG);
    EXPECT_EQ(mode_of(nullptr, &read), MPI_ERR_ARG);
    EXPECT_EQ(std::string(name_of(NBRCOMB_MODE_AUTO)), "auto");
}
