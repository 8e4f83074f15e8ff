// The large-count forms of MPI-4 (MPI_Neighbor_*_c, MPI_Ineighbor_*_c, MPI_Neighbor_*_init_c).
// Their counts are MPI_Count and the v forms' displacements MPI_Aint; where every one of a
// call fits in an int, the call is the int form's and runs through the same core. A call with a
// larger value, or on a communicator the library does not manage, is the MPI's own, with the
// caller's arguments.
#include <mpi.h>

#if MPI_VERSION >= 4

#include "src/collective_args.h"
#include "src/collective_entry.h"
#include "src/export.h"
#include "src/statistics.h"
#include "src/topo_state.h"

#include <climits>
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

// The int form's arguments of each collective, if the call has them. The arrays the CallArgs
// points into live in the object.
struct AllgatherC {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;

    bool narrow(CallArgs& args, Collective collective) const {
        Degrees degrees;
        if (!managed_degrees(comm, degrees) || !fits(sendcount) || !fits(recvcount)) return false;
        const int s = static_cast<int>(sendcount), r = static_cast<int>(recvcount);
        args = collective == Collective::allgather ? allgather_args(sendbuf, s, sendtype, recvbuf, r, recvtype, comm)
                                                   : alltoall_args(sendbuf, s, sendtype, recvbuf, r, recvtype, comm);
        return true;
    }
};
using AlltoallC = AllgatherC;

struct AllgathervC {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const MPI_Count* recvcounts;
    const MPI_Aint* displs;
    MPI_Datatype recvtype;
    MPI_Comm comm;
    mutable IntArray counts, displacements;

    bool narrow(CallArgs& args, Collective) const {
        Degrees degrees;
        if (!managed_degrees(comm, degrees) || !fits(sendcount) || !counts.assign(recvcounts, degrees.in) ||
            !displacements.assign(displs, degrees.in))
            return false;
        args = allgatherv_args(sendbuf, static_cast<int>(sendcount), sendtype, recvbuf, counts.get(),
                               displacements.get(), recvtype, comm);
        return true;
    }
};

struct AlltoallvC {
    const void* sendbuf;
    const MPI_Count* sendcounts;
    const MPI_Aint* sdispls;
    MPI_Datatype sendtype;
    void* recvbuf;
    const MPI_Count* recvcounts;
    const MPI_Aint* rdispls;
    MPI_Datatype recvtype;
    MPI_Comm comm;
    mutable IntArray send_counts, send_displs, recv_counts, recv_displs;

    bool narrow(CallArgs& args, Collective) const {
        Degrees degrees;
        if (!managed_degrees(comm, degrees) || !send_counts.assign(sendcounts, degrees.out) ||
            !send_displs.assign(sdispls, degrees.out) || !recv_counts.assign(recvcounts, degrees.in) ||
            !recv_displs.assign(rdispls, degrees.in))
            return false;
        args = alltoallv_args(sendbuf, send_counts.get(), send_displs.get(), sendtype, recvbuf, recv_counts.get(),
                              recv_displs.get(), recvtype, comm);
        return true;
    }
};

struct AlltoallwC {
    const void* sendbuf;
    const MPI_Count* sendcounts;
    const MPI_Aint* sdispls;
    const MPI_Datatype* sendtypes;
    void* recvbuf;
    const MPI_Count* recvcounts;
    const MPI_Aint* rdispls;
    const MPI_Datatype* recvtypes;
    MPI_Comm comm;
    mutable IntArray send_counts, recv_counts;

    bool narrow(CallArgs& args, Collective) const {
        Degrees degrees;
        if (!managed_degrees(comm, degrees) || !send_counts.assign(sendcounts, degrees.out) ||
            !recv_counts.assign(recvcounts, degrees.in))
            return false;
        args = alltoallw_args(sendbuf, send_counts.get(), sdispls, sendtypes, recvbuf, recv_counts.get(), rdispls,
                              recvtypes, comm);
        return true;
    }
};

// A call on a communicator the library manages that goes to the MPI counts as one left to it.
void count_native_call(MPI_Comm comm) {
    TopoState* state = comm == MPI_COMM_NULL ? nullptr : find_state(comm);
    if (state == nullptr) return;
    nbrcomb::detail::count_native_call(state->stats, state->topology->graph.destinations.size());
}

// The caller's arguments of a call, for its native form.
template <class Wide>
const Wide& original(const CallArgs& args) {
    return *static_cast<const Wide*>(args.native_args);
}

// The call as the core takes it, pointing back at the caller's arguments for the native call;
// false when it goes to the MPI's own large-count function (counted as left native).
template <class Wide>
bool int_form(const Wide& wide, Collective collective, CallArgs& args) {
    args = {.collective = collective, .comm = wide.comm};
    const bool narrowed = wide.narrow(args, collective);
    if (!narrowed) count_native_call(wide.comm);
    args.native_args = &wide;
    return narrowed;
}

// Each form: the core with the int form's arguments, or the native large-count call.
template <class Wide>
int blocking(const Wide& wide, Collective collective, NativeCall native) {
    CallArgs args;
    return int_form(wide, collective, args) ? enter_blocking(args, native) : native(args);
}

template <class Wide>
int nonblocking(const Wide& wide, Collective collective, MPI_Request* request, NativeStart native) {
    CallArgs args;
    return int_form(wide, collective, args) ? enter_nonblocking(args, request, native) : native(args, request);
}

template <class Wide>
int persistent(const Wide& wide, Collective collective, MPI_Info info, MPI_Request* request, NativeInit native) {
    CallArgs args;
    return int_form(wide, collective, args) ? enter_persistent(args, info, request, native)
                                            : native(args, info, request);
}

}  // namespace

// Blocking.

NBRCOMB_EXPORT int MPI_Neighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                            void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                            MPI_Comm comm) {
    return blocking(AllgatherC{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm},
                    Collective::allgather, [](const CallArgs& a) {
                        const auto& w = original<AllgatherC>(a);
                        return PMPI_Neighbor_allgather_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf, w.recvcount,
                                                         w.recvtype, w.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                             void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm) {
    return blocking(AllgathervC{sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {}, {}},
                    Collective::allgatherv, [](const CallArgs& a) {
                        const auto& w = original<AllgathervC>(a);
                        return PMPI_Neighbor_allgatherv_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                          w.recvcounts, w.displs, w.recvtype, w.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                           void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return blocking(AlltoallC{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm}, Collective::alltoall,
                    [](const CallArgs& a) {
                        const auto& w = original<AlltoallC>(a);
                        return PMPI_Neighbor_alltoall_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf, w.recvcount,
                                                        w.recvtype, w.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                                            const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                            const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                            MPI_Datatype recvtype, MPI_Comm comm) {
    return blocking(AlltoallvC{sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                               {}, {}, {}, {}},
                    Collective::alltoallv, [](const CallArgs& a) {
                        const auto& w = original<AlltoallvC>(a);
                        return PMPI_Neighbor_alltoallv_c(w.sendbuf, w.sendcounts, w.sdispls, w.sendtype, w.recvbuf,
                                                         w.recvcounts, w.rdispls, w.recvtype, w.comm);
                    });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                                            const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                            const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return blocking(AlltoallwC{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                               comm, {}, {}},
                    Collective::alltoallw, [](const CallArgs& a) {
                        const auto& w = original<AlltoallwC>(a);
                        return PMPI_Neighbor_alltoallw_c(w.sendbuf, w.sendcounts, w.sdispls, w.sendtypes, w.recvbuf,
                                                         w.recvcounts, w.rdispls, w.recvtypes, w.comm);
                    });
}

// Nonblocking.

NBRCOMB_EXPORT int MPI_Ineighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                             void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                             MPI_Request* request) {
    return nonblocking(AllgatherC{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm},
                       Collective::allgather, request, [](const CallArgs& a, MPI_Request* r) {
                           const auto& w = original<AllgatherC>(a);
                           return PMPI_Ineighbor_allgather_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                             w.recvcount, w.recvtype, w.comm, r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                              void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return nonblocking(AllgathervC{sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {}, {}},
                       Collective::allgatherv, request, [](const CallArgs& a, MPI_Request* r) {
                           const auto& w = original<AllgathervC>(a);
                           return PMPI_Ineighbor_allgatherv_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                              w.recvcounts, w.displs, w.recvtype, w.comm, r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                            void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Request* request) {
    return nonblocking(AlltoallC{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm},
                       Collective::alltoall, request, [](const CallArgs& a, MPI_Request* r) {
                           const auto& w = original<AlltoallC>(a);
                           return PMPI_Ineighbor_alltoall_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                            w.recvcount, w.recvtype, w.comm, r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return nonblocking(AlltoallvC{sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                  comm, {}, {}, {}, {}},
                       Collective::alltoallv, request, [](const CallArgs& a, MPI_Request* r) {
                           const auto& w = original<AlltoallvC>(a);
                           return PMPI_Ineighbor_alltoallv_c(w.sendbuf, w.sendcounts, w.sdispls, w.sendtype,
                                                             w.recvbuf, w.recvcounts, w.rdispls, w.recvtype, w.comm,
                                                             r);
                       });
}

NBRCOMB_EXPORT int MPI_Ineighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
    return nonblocking(AlltoallwC{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                  comm, {}, {}},
                       Collective::alltoallw, request, [](const CallArgs& a, MPI_Request* r) {
                           const auto& w = original<AlltoallwC>(a);
                           return PMPI_Ineighbor_alltoallw_c(w.sendbuf, w.sendcounts, w.sdispls, w.sendtypes,
                                                             w.recvbuf, w.recvcounts, w.rdispls, w.recvtypes, w.comm,
                                                             r);
                       });
}

// Persistent.

NBRCOMB_EXPORT int MPI_Neighbor_allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                                 void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                                 MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return persistent(AllgatherC{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm},
                      Collective::allgather, info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          const auto& w = original<AllgatherC>(a);
                          return PMPI_Neighbor_allgather_init_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                                w.recvcount, w.recvtype, w.comm, i, r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                                  void* recvbuf, const MPI_Count recvcounts[],
                                                  const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                                  MPI_Info info, MPI_Request* request) {
    return persistent(AllgathervC{sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {}, {}},
                      Collective::allgatherv, info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          const auto& w = original<AllgathervC>(a);
                          return PMPI_Neighbor_allgatherv_init_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                                 w.recvcounts, w.displs, w.recvtype, w.comm, i, r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                                void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                                MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return persistent(AlltoallC{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm},
                      Collective::alltoall, info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          const auto& w = original<AlltoallC>(a);
                          return PMPI_Neighbor_alltoall_init_c(w.sendbuf, w.sendcount, w.sendtype, w.recvbuf,
                                                               w.recvcount, w.recvtype, w.comm, i, r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                                 const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                                 const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                                 MPI_Request* request) {
    return persistent(AlltoallvC{sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                 comm, {}, {}, {}, {}},
                      Collective::alltoallv, info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          const auto& w = original<AlltoallvC>(a);
                          return PMPI_Neighbor_alltoallv_init_c(w.sendbuf, w.sendcounts, w.sdispls, w.sendtype,
                                                                w.recvbuf, w.recvcounts, w.rdispls, w.recvtype,
                                                                w.comm, i, r);
                      });
}

NBRCOMB_EXPORT int MPI_Neighbor_alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                                 void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                                 MPI_Request* request) {
    return persistent(AlltoallwC{sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                 comm, {}, {}},
                      Collective::alltoallw, info, request, [](const CallArgs& a, MPI_Info i, MPI_Request* r) {
                          const auto& w = original<AlltoallwC>(a);
                          return PMPI_Neighbor_alltoallw_init_c(w.sendbuf, w.sendcounts, w.sdispls, w.sendtypes,
                                                                w.recvbuf, w.recvcounts, w.rdispls, w.recvtypes,
                                                                w.comm, i, r);
                      });
}

#endif
