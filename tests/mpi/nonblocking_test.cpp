// Nonblocking (MPI_Ineighbor_*) and persistent (MPI-4 MPI_Neighbor_*_init) neighborhood
// collectives give what native MPI's blocking call gives, byte for byte; their requests
// complete through every completion call, in one array with ordinary requests, several at once
// on one communicator without crossing, and when the application freed them.
#include "all_ranks.h"
#include "collective_shapes.h"
#include "differential.h"
#include "topologies.h"
#include "topology/spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

using namespace nbrcomb::test;

namespace {

Comm topology_comm(const std::string& topology, Hints hints) {
    const auto spec = nbrcomb::topology::parse_topology(topology);
    return create_dist_graph(MPI_COMM_WORLD, digraph_of(nbrcomb::topology::generate(spec, size_of(MPI_COMM_WORLD))),
                             {.hints = std::move(hints)});
}

Hints groups_of(int k) { return {{"nbrcomb_mode", "groups"}, {"nbrcomb_k", std::to_string(k)}, {"nbrcomb_theta", "1"}}; }

struct FormCase {
    std::string name;
    std::string topology;  // as nbrsim names it
    Hints hints;
    int min_ranks = 0;  // from this many ranks on the pattern must save messages; 0: never asked
};

void PrintTo(const FormCase& form_case, std::ostream* out) { *out << form_case.name; }

// Pairs of a complete graph save from 5 ranks on (3 common neighbors), groups of 3 from 7.
const std::vector<FormCase> form_cases{
    {"random_direct", "er:0.5:1", {{"nbrcomb_mode", "direct"}}},
    {"complete_pairs", "er:1.0", pairs_hints, 5},
    {"random_partial_pairs", "er:0.6:2", {{"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "3"}}},
    {"moore_2d_r2_pairs", "moore:2:2", pairs_hints},
    {"complete_groups_k3", "er:1.0", groups_of(3), 7},
    {"random_groups_k2_aware", "er:0.8:3",
     {{"nbrcomb_mode", "groups"}, {"nbrcomb_k", "2"}, {"nbrcomb_theta", "1"}, {"nbrcomb_topo_aware", "1"},
      {"nbrcomb_node_size", "2"}}},
};

bool skip_persistent(Form form) { return form == Form::persistent && !has_persistent_collectives; }
constexpr const char* no_persistent = "this MPI has no persistent neighborhood collectives (MPI-4 MPI_Neighbor_*_init)";

class Forms : public testing::TestWithParam<std::tuple<FormCase, Form>> {};

TEST_P(Forms, every_shape_matches_native) {
    const auto& [form_case, form] = GetParam();
    if (skip_persistent(form)) GTEST_SKIP() << no_persistent;
    const Comm comm = topology_comm(form_case.topology, form_case.hints);
    expect_every_shape_matches_native(comm, form);

    // Combined where the pattern says so: the nonblocking path saves what the blocking one does.
    if (form_case.min_ranks == 0 || size_of(MPI_COMM_WORLD) < form_case.min_ranks) return;
    nbrcomb_stats stats{};
    ASSERT_EQ(comm_stats(comm, stats), MPI_SUCCESS);
    unsigned long long sent[2] = {stats.messages_sent, stats.native_messages};
    MPI_Allreduce(MPI_IN_PLACE, sent, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_LT(sent[0], sent[1]) << "no messages saved";
}

INSTANTIATE_TEST_SUITE_P(Cases, Forms,
                         testing::Combine(testing::ValuesIn(form_cases),
                                          testing::Values(Form::nonblocking, Form::persistent)),
                         [](const testing::TestParamInfo<std::tuple<FormCase, Form>>& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

// An ordinary message around a ring of all ranks, in flight beside the library's operations.
struct RingMessage {
    int sent = 0;
    int received = -1;
    MPI_Request send = MPI_REQUEST_NULL;
    MPI_Request recv = MPI_REQUEST_NULL;

    void start() {
        const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
        sent = 1000 + rank;
        MPI_Irecv(&received, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &recv);
        MPI_Isend(&sent, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &send);
    }
    bool arrived() const {
        const int size = size_of(MPI_COMM_WORLD);
        return received == 1000 + (rank_of(MPI_COMM_WORLD) + size - 1) % size;
    }
};

// Several operations in flight at once: on two communicators, and on one several of the same
// collective with the same arguments (the same schedule and the same peers, told apart only by
// their tags).
class InFlight {
public:
    explicit InFlight(Form form)
        : pairs_(topology_comm("er:1.0", pairs_hints)), groups_(topology_comm("moore:2:1", groups_of(3))) {
        const Shape varied{.types = &catalog_.pair("ints_to_vector"), .units = 7, .vary = true, .reverse = true};
        const Shape plain{.types = &catalog_.pair("int"), .units = 5};
        for (const Collective collective : all_collectives) add(collective, pairs_, varied, form);
        add(Collective::alltoallv, pairs_, plain, form);
        add(Collective::alltoallv, pairs_, plain, form);
        add(Collective::alltoallw, groups_, varied, form);
        add(Collective::allgather, groups_, plain, form);
    }

    // Starts every call (persistent ones are only created); the requests are in call order.
    std::vector<MPI_Request> start() {
        std::vector<MPI_Request> requests(calls_.size(), MPI_REQUEST_NULL);
        for (std::size_t i = 0; i < calls_.size(); ++i)
            EXPECT_EQ(start_library_call(calls_[i], buffers_[i], requests[i]), MPI_SUCCESS) << i;
        return requests;
    }

    // Collective: checks every call's buffers against native MPI.
    void expect_native_results() {
        std::string problem;
        for (std::size_t i = 0; i < calls_.size() && problem.empty(); ++i) {
            problem = difference_from_native(calls_[i], buffers_[i]);
            if (!problem.empty()) problem = "call " + std::to_string(i) + ": " + problem;
        }
        expect_all_ranks(problem.empty(), problem, MPI_COMM_WORLD);
    }

    std::vector<Call>& calls() { return calls_; }
    std::vector<Outcome>& buffers() { return buffers_; }

private:
    void add(Collective collective, MPI_Comm comm, const Shape& shape, Form form) {
        Call call = make_call(collective, comm, catalog_, shape);
        call.form = form;
        buffers_.push_back(fresh_buffers(call));
        calls_.push_back(std::move(call));
    }

    TypeCatalog catalog_;
    Comm pairs_, groups_;
    std::vector<Call> calls_;
    std::vector<Outcome> buffers_;
};

// The ways an application may complete an array of requests.
enum class Completion { waitall, wait_in_reverse, waitany, waitsome, testall, testany, testsome, get_status_then_wait };

const char* name_of(Completion completion) {
    switch (completion) {
    case Completion::waitall: return "waitall";
    case Completion::wait_in_reverse: return "wait_in_reverse";
    case Completion::waitany: return "waitany";
    case Completion::waitsome: return "waitsome";
    case Completion::testall: return "testall";
    case Completion::testany: return "testany";
    case Completion::testsome: return "testsome";
    case Completion::get_status_then_wait: return "get_status_then_wait";
    }
    return "?";
}

// Completes every request of the array the given way; all must end MPI_REQUEST_NULL.
void complete(std::vector<MPI_Request>& requests, Completion how) {
    const int count = static_cast<int>(requests.size());
    const auto pending = [&] { return std::ranges::count(requests, MPI_REQUEST_NULL) != count; };
    int index = 0, flag = 0, outcount = 0;
    std::vector<int> indices(requests.size());
    switch (how) {
    case Completion::waitall: ASSERT_EQ(MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS); break;
    case Completion::wait_in_reverse:
        for (int i = count; i-- > 0;) ASSERT_EQ(MPI_Wait(&requests[i], MPI_STATUS_IGNORE), MPI_SUCCESS);
        break;
    case Completion::waitany:
        while (pending()) ASSERT_EQ(MPI_Waitany(count, requests.data(), &index, MPI_STATUS_IGNORE), MPI_SUCCESS);
        break;
    case Completion::waitsome:
        while (pending())
            ASSERT_EQ(MPI_Waitsome(count, requests.data(), &outcount, indices.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
        break;
    case Completion::testall:
        while (!flag) ASSERT_EQ(MPI_Testall(count, requests.data(), &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        break;
    case Completion::testany:
        while (pending()) ASSERT_EQ(MPI_Testany(count, requests.data(), &index, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
        break;
    case Completion::testsome:
        while (pending())
            ASSERT_EQ(MPI_Testsome(count, requests.data(), &outcount, indices.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
        break;
    case Completion::get_status_then_wait:
        // MPI_Request_get_status leaves the request to be completed: the wait after it must return at once.
        for (MPI_Request& request : requests) {
            for (flag = 0; !flag;) ASSERT_EQ(MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
            ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
        break;
    }
    EXPECT_FALSE(pending());
}

class Completions : public testing::TestWithParam<Completion> {};

// Library and ordinary requests interleaved in one array, completed the given way.
TEST_P(Completions, complete_library_and_ordinary_requests_together) {
    InFlight in_flight(Form::nonblocking);
    RingMessage ring;
    std::vector<MPI_Request> requests = in_flight.start();
    ring.start();
    requests.insert(requests.begin() + 2, ring.recv);
    requests.push_back(ring.send);
    complete(requests, GetParam());
    in_flight.expect_native_results();
    EXPECT_TRUE(ring.arrived());
}

INSTANTIATE_TEST_SUITE_P(Ways, Completions,
                         testing::Values(Completion::waitall, Completion::wait_in_reverse, Completion::waitany,
                                         Completion::waitsome, Completion::testall, Completion::testany,
                                         Completion::testsome, Completion::get_status_then_wait),
                         [](const testing::TestParamInfo<Completion>& info) { return name_of(info.param); });

// The status of a completed collective: nothing received, not cancelled.
TEST(NonblockingRequest, status_is_a_collectives) {
    const Comm comm = topology_comm("er:1.0", pairs_hints);
    const TypeCatalog catalog;
    Call call = make_call(Collective::alltoallv, comm, catalog, {.types = &catalog.pair("int"), .units = 3});
    call.form = Form::nonblocking;
    Outcome buffers = fresh_buffers(call);
    MPI_Request request = MPI_REQUEST_NULL;
    ASSERT_EQ(start_library_call(call, buffers, request), MPI_SUCCESS);
    MPI_Status status;
    ASSERT_EQ(MPI_Wait(&request, &status), MPI_SUCCESS);
    EXPECT_EQ(request, MPI_REQUEST_NULL);
    int cancelled = 1, count = -1;
    MPI_Test_cancelled(&status, &cancelled);
    MPI_Get_count(&status, MPI_BYTE, &count);
    EXPECT_EQ(cancelled, 0);
    EXPECT_EQ(count, 0);
    expect_all_ranks(difference_from_native(call, buffers).empty(), "results differ", MPI_COMM_WORLD);
}

// Polls the MPI (which advances the library) until comm's library calls reach calls.
void progress_until_calls(MPI_Comm comm, unsigned long long calls) {
    for (nbrcomb_stats stats{}; comm_stats(comm, stats) == MPI_SUCCESS && stats.calls < calls;) {
        MPI_Request none = MPI_REQUEST_NULL;
        int flag = 0;
        MPI_Test(&none, &flag, MPI_STATUS_IGNORE);
    }
}

// A request freed while its operation runs: the operation still completes, and its buffers
// are right once it has.
void expect_freed_request_completes(Form form) {
    const Comm comm = topology_comm("er:1.0", groups_of(2));
    const TypeCatalog catalog;
    Call call = make_call(Collective::alltoallw, comm, catalog, {.units = 7, .vary = true, .mixed_types = true});
    call.form = form;
    Outcome buffers = fresh_buffers(call);
    nbrcomb_stats before{};
    ASSERT_EQ(comm_stats(comm, before), MPI_SUCCESS);
    MPI_Request request = MPI_REQUEST_NULL;
    ASSERT_EQ(start_library_call(call, buffers, request), MPI_SUCCESS);
    if (form == Form::persistent) {
        ASSERT_EQ(MPI_Start(&request), MPI_SUCCESS);
    }
    ASSERT_EQ(MPI_Request_free(&request), MPI_SUCCESS);
    EXPECT_EQ(request, MPI_REQUEST_NULL);
    progress_until_calls(comm, before.calls + 1);
    expect_all_ranks(difference_from_native(call, buffers).empty(), "results differ", MPI_COMM_WORLD);
}

TEST(NonblockingRequest, freed_while_running_still_completes) { expect_freed_request_completes(Form::nonblocking); }

TEST(PersistentRequest, freed_while_active_still_completes) {
    if (!has_persistent_collectives) GTEST_SKIP() << no_persistent;
    expect_freed_request_completes(Form::persistent);
}

// Persistent requests restarted with new send data each time, started together with
// persistent point-to-point requests by one MPI_Startall and completed by one MPI_Waitall.
TEST(PersistentRequest, restarts_with_new_data_beside_persistent_point_to_point) {
    if (!has_persistent_collectives) GTEST_SKIP() << no_persistent;
    InFlight in_flight(Form::persistent);
    std::vector<MPI_Request> requests = in_flight.start();
    const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
    int sent = 0, received = -1;
    MPI_Request ring[2];
    MPI_Recv_init(&received, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &ring[0]);
    MPI_Send_init(&sent, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &ring[1]);
    requests.insert(requests.begin() + 1, ring[0]);
    requests.push_back(ring[1]);

    for (int start = 0; start < 3; ++start) {
        for (std::size_t i = 0; i < in_flight.calls().size(); ++i) {
            Call& call = in_flight.calls()[i];
            std::vector<std::byte>& data = call.same_buffer ? call.recv_bytes : call.send_bytes;
            for (std::byte& byte : data) byte ^= std::byte{0x5a};
            // Into the same buffers: the persistent request keeps their addresses.
            Outcome& buffers = in_flight.buffers()[i];
            std::ranges::copy(call.send_bytes, buffers.send_bytes.begin());
            std::ranges::copy(call.recv_bytes, buffers.recv_bytes.begin());
        }
        sent = start * size + rank;
        ASSERT_EQ(MPI_Startall(static_cast<int>(requests.size()), requests.data()), MPI_SUCCESS);
        ASSERT_EQ(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
        in_flight.expect_native_results();
        EXPECT_EQ(received, start * size + (rank + size - 1) % size);
    }
    for (MPI_Request& request : requests) ASSERT_EQ(MPI_Request_free(&request), MPI_SUCCESS);
}

}  // namespace
