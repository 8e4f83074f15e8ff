// The large-count forms of MPI-4 (MPI_Neighbor_*_c, MPI_Ineighbor_*_c, MPI_Neighbor_*_init_c).
// Their counts are MPI_Count and the v forms' displacements MPI_Aint; where every one of a
// call fits in an int, the call is the int form's and runs through the same core. A call with a
// larger value, or on a communicator the library does not manage, is the MPI's own, with the
// caller's arguments.
#include "schedule/mpi_features.h"
#include <mpi.h>

#if NBRCOMB_MPI_LARGE_COUNT

#include "src/base/statistics.h"
#include "src/call/library_entry.h"
#include "src/call/shim_arguments.h"
#include "src/communicator/topo_state.h"
#include "src/shims/export.h"

#include <climits>
#include <tuple>
#include <vector>

using namespace nbrcomb::detail;

namespace {

bool fits(MPI_Count value) { return value >= INT_MIN && value <= INT_MAX; }

// An array argument of a large-count form as the int array of the int form.
class IntArray {
public:
    // False when a value does not fit; a null array stays null, for the core to judge.
    template <class Wide>
    bool assign(const Wide* values, int n) {
        null_ = values == nullptr;
        values_.clear();
        if (null_) return true;
        for (int i = 0; i < n; ++i) {
            if (!fits(values[i])) return false;
            values_.push_back(static_cast<int>(values[i]));
        }
        return true;
    }
    const int* get() const { return null_ ? nullptr : values_.data(); }

private:
    std::vector<int> values_;
    bool null_ = true;
};

// The degrees of a communicator the library manages: the lengths of the call's arrays.
struct Degrees {
    int in = 0, out = 0;
};

bool managed_degrees(MPI_Comm comm, Degrees& degrees) {
    const TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return false;
    degrees = {state->topology->indegree(), state->topology->outdegree()};
    return true;
}

// The int arrays a narrowed call points into.
struct Narrowed {
    IntArray send_counts, send_displs, recv_counts, recv_displs;
};

// The int form's arguments of each collective, if the call has them.
using AllgatherC = std::tuple<const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm>;
bool narrow(Collective collective, const AllgatherC& wide, Narrowed&, CallArgs& args) {
    const auto& [sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm] = wide;
    Degrees degrees;
    if (!managed_degrees(comm, degrees) || !fits(sendcount) || !fits(recvcount)) return false;
    const int s = static_cast<int>(sendcount), r = static_cast<int>(recvcount);
    args = collective == Collective::allgather ? allgather_args(sendbuf, s, sendtype, recvbuf, r, recvtype, comm)
                                               : alltoall_args(sendbuf, s, sendtype, recvbuf, r, recvtype, comm);
    return true;
}

using AllgathervC = std::tuple<const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count*, const MPI_Aint*,
                               MPI_Datatype, MPI_Comm>;
bool narrow(Collective, const AllgathervC& wide, Narrowed& arrays, CallArgs& args) {
    const auto& [sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm] = wide;
    Degrees degrees;
    if (!managed_degrees(comm, degrees) || !fits(sendcount) || !arrays.recv_counts.assign(recvcounts, degrees.in) ||
        !arrays.recv_displs.assign(displs, degrees.in))
        return false;
    args = allgatherv_args(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf, arrays.recv_counts.get(),
                           arrays.recv_displs.get(), recvtype, comm);
    return true;
}

using AlltoallvC = std::tuple<const void*, const MPI_Count*, const MPI_Aint*, MPI_Datatype, void*, const MPI_Count*,
                              const MPI_Aint*, MPI_Datatype, MPI_Comm>;
bool narrow(Collective, const AlltoallvC& wide, Narrowed& arrays, CallArgs& args) {
    const auto& [sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm] = wide;
    Degrees degrees;
    if (!managed_degrees(comm, degrees) || !arrays.send_counts.assign(sendcounts, degrees.out) ||
        !arrays.send_displs.assign(sdispls, degrees.out) || !arrays.recv_counts.assign(recvcounts, degrees.in) ||
        !arrays.recv_displs.assign(rdispls, degrees.in))
        return false;
    args = alltoallv_args(sendbuf, arrays.send_counts.get(), arrays.send_displs.get(), sendtype, recvbuf,
                          arrays.recv_counts.get(), arrays.recv_displs.get(), recvtype, comm);
    return true;
}

using AlltoallwC = std::tuple<const void*, const MPI_Count*, const MPI_Aint*, const MPI_Datatype*, void*,
                              const MPI_Count*, const MPI_Aint*, const MPI_Datatype*, MPI_Comm>;
bool narrow(Collective, const AlltoallwC& wide, Narrowed& arrays, CallArgs& args) {
    const auto& [sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm] = wide;
    Degrees degrees;
    if (!managed_degrees(comm, degrees) || !arrays.send_counts.assign(sendcounts, degrees.out) ||
        !arrays.recv_counts.assign(recvcounts, degrees.in))
        return false;
    args = alltoallw_args(sendbuf, arrays.send_counts.get(), sdispls, sendtypes, recvbuf, arrays.recv_counts.get(),
                          rdispls, recvtypes, comm);
    return true;
}

// A call on a communicator the library manages that goes to the MPI counts as one left to it.
void count_left_to_mpi(MPI_Comm comm) {
    TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return;
    state->count_native_call();
}

template <class Wide>
const Wide& original(const CallArgs& args) {
    return *static_cast<const Wide*>(args.native_args);
}

// The call as the core takes it, pointing back at the caller's arguments for the native call;
// false when it goes to the MPI's own large-count function (counted as left native).
template <class Wide>
bool int_form(Collective collective, const Wide& wide, Narrowed& arrays, CallArgs& args) {
    const MPI_Comm comm = std::get<std::tuple_size_v<Wide> - 1>(wide);  // last in every collective
    args = {.collective = collective, .comm = comm};
    const bool narrowed = narrow(collective, wide, arrays, args);
    if (!narrowed) count_left_to_mpi(comm);
    args.native_args = &wide;
    return narrowed;
}

// Each form: the core with the int form's arguments, or the native large-count call.
template <auto pmpi, class Wide>
int blocking(Collective collective, const Wide& wide) {
    Narrowed arrays;
    CallArgs args;
    const auto call_mpi = [&wide] { return std::apply(pmpi, wide); };
    return int_form(collective, wide, arrays, args) ? enter_blocking([&args] { return args; }, call_mpi) : call_mpi();
}

template <auto pmpi, class Wide>
int nonblocking(Collective collective, const Wide& wide, MPI_Request* request) {
    Narrowed arrays;
    CallArgs args;
    const auto call_mpi = [&wide](MPI_Request* r) {
        return std::apply([r](auto... arguments) { return pmpi(arguments..., r); }, wide);
    };
    return int_form(collective, wide, arrays, args) ? enter_nonblocking([&args] { return args; }, request, call_mpi)
                                                    : call_mpi(request);
}

template <auto pmpi, class Wide>
int persistent(Collective collective, const Wide& wide, MPI_Info info, MPI_Request* request) {
    Narrowed arrays;
    CallArgs args;
    const NativeInit native = [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
        return std::apply([i, r](auto... arguments) { return pmpi(arguments..., i, r); }, original<Wide>(a));
    };
    return int_form(collective, wide, arrays, args) ? enter_persistent(args, info, request, native)
                                                    : native(args, info, request);
}

}  // namespace

#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, NAME, int_parameters, parameters, names, kinds)                           \
    NBRCOMB_EXPORT int MPI_Neighbor_##name##_c(NBRCOMB_UNPAREN parameters) {                                       \
        return blocking<PMPI_Neighbor_##name##_c>(Collective::name, std::tuple{NBRCOMB_UNPAREN names});           \
    }                                                                                                              \
    NBRCOMB_EXPORT int MPI_Ineighbor_##name##_c(NBRCOMB_UNPAREN parameters, MPI_Request* request) {                \
        return nonblocking<PMPI_Ineighbor_##name##_c>(Collective::name, std::tuple{NBRCOMB_UNPAREN names}, request); \
    }                                                                                                              \
    NBRCOMB_EXPORT int MPI_Neighbor_##name##_init_c(NBRCOMB_UNPAREN parameters, MPI_Info info,                     \
                                                    MPI_Request* request) {                                        \
        return persistent<PMPI_Neighbor_##name##_init_c>(Collective::name, std::tuple{NBRCOMB_UNPAREN names}, info, \
                                                         request);                                                 \
    }
#include "src/base/neighbor_collectives.def"

#endif
