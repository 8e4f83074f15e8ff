// Bad buffers and datatypes in every mode, auto mode's included, whose calls may go to the MPI's
// own collective: the call fails at once, on every process, with the error class MPICH gives and
// Open MPI's point to point calls give (Open MPI's own neighborhood collectives crash on a NULL
// buffer), through the communicator's error handler, never hanging the peers of a multi-round
// schedule; and the communicator stays usable.
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

// One call of collective in form (blocking or nonblocking) with one int per edge, receiving into
// recv and sending type; its error class.
int call(Collective collective, Form form, MPI_Comm comm, const int* send, int* recv, MPI_Datatype type, int degree) {
    std::vector<int> ones(static_cast<std::size_t>(degree) + 1, 1), displs(ones.size());
    std::vector<MPI_Aint> byte_displs(ones.size());
    std::vector<MPI_Datatype> types(ones.size(), type);
    for (std::size_t i = 0; i < ones.size(); ++i) {
        displs[i] = static_cast<int>(i);
        byte_displs[i] = static_cast<MPI_Aint>(i * sizeof(int));
    }
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Request* r = form == Form::nonblocking ? &request : nullptr;
    int code = MPI_SUCCESS;
    switch (collective) {
    case Collective::allgather:
        code = r ? MPI_Ineighbor_allgather(send, 1, type, recv, 1, type, comm, r)
                 : MPI_Neighbor_allgather(send, 1, type, recv, 1, type, comm);
        break;
    case Collective::allgatherv:
        code = r ? MPI_Ineighbor_allgatherv(send, 1, type, recv, ones.data(), displs.data(), type, comm, r)
                 : MPI_Neighbor_allgatherv(send, 1, type, recv, ones.data(), displs.data(), type, comm);
        break;
    case Collective::alltoall:
        code = r ? MPI_Ineighbor_alltoall(send, 1, type, recv, 1, type, comm, r)
                 : MPI_Neighbor_alltoall(send, 1, type, recv, 1, type, comm);
        break;
    case Collective::alltoallv:
        code = r ? MPI_Ineighbor_alltoallv(send, ones.data(), displs.data(), type, recv, ones.data(), displs.data(),
                                           type, comm, r)
                 : MPI_Neighbor_alltoallv(send, ones.data(), displs.data(), type, recv, ones.data(), displs.data(),
                                          type, comm);
        break;
    case Collective::alltoallw:
        code = r ? MPI_Ineighbor_alltoallw(send, ones.data(), byte_displs.data(), types.data(), recv, ones.data(),
                                           byte_displs.data(), types.data(), comm, r)
                 : MPI_Neighbor_alltoallw(send, ones.data(), byte_displs.data(), types.data(), recv, ones.data(),
                                          byte_displs.data(), types.data(), comm);
        break;
    }
    if (code == MPI_SUCCESS && r) code = MPI_Wait(r, MPI_STATUS_IGNORE);
    return error_class(code);
}

bool auto_mode(const ModeCase& mode) { return mode.hints.front().second == "auto"; }

class BadInput : public testing::TestWithParam<std::tuple<ModeCase, Form>> {};

TEST_P(BadInput, fails_at_the_call_on_every_process_and_the_communicator_stays_usable) {
    const auto& [mode, form] = GetParam();
    const int size = size_of(MPI_COMM_WORLD);
    Comm comm = create_dist_graph(MPI_COMM_WORLD, complete_digraph(size), {.hints = mode.hints});
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    const int degree = size - 1;
    std::vector<int> send(static_cast<std::size_t>(size), rank_of(MPI_COMM_WORLD)), recv(send.size(), -1);
    MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(1, MPI_INT, &uncommitted);
    for (const Collective collective : all_collectives) {
        const std::string what = std::string(name_of(collective)) + " " + name_of(form);
        // Degree 0 (one process) moves nothing, so nothing is wrong; where auto mode leaves such a
        // call to the MPI, the MPI may still reject it (MPICH a NULL buffer, Open MPI an uncommitted
        // datatype).
        const auto expect_class = [&](int code, int error, const char* input) {
            if (degree > 0) {
                EXPECT_EQ(code, error) << what << ", " << input;
            } else if (auto_mode(mode)) {
                EXPECT_TRUE(code == MPI_SUCCESS || code == error) << what << ", " << input << ": " << code;
            } else {
                EXPECT_EQ(code, MPI_SUCCESS) << what << ", " << input;
            }
        };
        expect_class(call(collective, form, comm, send.data(), nullptr, MPI_INT, degree), MPI_ERR_BUFFER,
                     "NULL receive buffer");
        expect_class(call(collective, form, comm, send.data(), recv.data(), uncommitted, degree), MPI_ERR_TYPE,
                     "uncommitted datatype");
        EXPECT_EQ(call(collective, form, comm, send.data(), recv.data(), MPI_INT, degree), MPI_SUCCESS)
            << what << ", a valid call after the failed ones";
        std::vector<int> expected(send.size(), -1);
        PMPI_Neighbor_alltoall(send.data(), 1, MPI_INT, expected.data(), 1, MPI_INT, comm);
        if (collective == Collective::alltoall) {
            EXPECT_EQ(recv, expected) << what;
        }
    }
    MPI_Type_free(&uncommitted);
    EXPECT_TRUE(on_all_ranks(!HasFailure()));
}

INSTANTIATE_TEST_SUITE_P(Modes, BadInput,
                         testing::Combine(testing::ValuesIn(all_modes()), testing::Values(Form::blocking, Form::nonblocking)),
                         [](const auto& info) {
                             return std::get<0>(info.param).name + "_" + name_of(std::get<1>(info.param));
                         });

}  // namespace
