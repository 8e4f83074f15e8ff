// The kinds of argument of the Fortran bindings. Fortran passes everything by reference; each
// kind turns what a binding receives into what the C function takes, and after the call writes
// back what Fortran expects (handles converted, statuses converted, indices counted from 1).
//
// A kind K has K::Fortran, the parameter's type; a constructor K(Fortran, all), where all is the
// tuple of the call's Fortran arguments (for the kinds whose size another argument gives);
// c(), the C argument; and finish(all, err), run after the C function returned err.
#pragma once

#include "src/fortran/fortran_sentinels.h"

#include <mpi.h>

#include <cstddef>
#include <tuple>
#include <vector>

namespace nbrcomb::detail::fortran {

// A Fortran INTEGER is a C int, so integer arrays and outputs go to C as they are.
static_assert(sizeof(MPI_Fint) == sizeof(int));

// A Fortran status is an INTEGER array of MPI_STATUS_SIZE elements, as many bytes as a C status;
// mpi_f08's TYPE(MPI_Status) has the same layout in Open MPI and MPICH.
constexpr std::size_t status_size = sizeof(MPI_Status) / sizeof(MPI_Fint);
#ifdef MPI_F_STATUS_SIZE
static_assert(status_size == MPI_F_STATUS_SIZE);
#endif

template <class Kind>
using fortran_t = typename Kind::Fortran;

// The MPI's handle conversions: functions in Open MPI, macros in MPICH.
inline MPI_Comm comm_f2c(MPI_Fint comm) { return PMPI_Comm_f2c(comm); }
inline MPI_Fint comm_c2f(MPI_Comm comm) { return PMPI_Comm_c2f(comm); }
inline MPI_Datatype type_f2c(MPI_Fint type) { return PMPI_Type_f2c(type); }
inline MPI_Info info_f2c(MPI_Fint info) { return PMPI_Info_f2c(info); }
inline MPI_Request request_f2c(MPI_Fint request) { return PMPI_Request_f2c(request); }
inline MPI_Fint request_c2f(MPI_Request request) { return PMPI_Request_c2f(request); }

// The value a Fortran argument at index points to.
template <std::size_t index, class Args>
int value_at(const Args& all) {
    return *std::get<index>(all);
}

struct NothingToWriteBack {
    template <class Args>
    void finish(const Args&, int) {}
};

// A choice buffer. MPI_IN_PLACE and MPI_BOTTOM are Fortran variables, MPI_BOTTOM is C's null.
class Buffer : public NothingToWriteBack {
public:
    using Fortran = void*;
    template <class Args>
    Buffer(Fortran buffer, const Args&)
        : c_(is(buffer, sentinels().in_place) ? MPI_IN_PLACE
             : is(buffer, sentinels().bottom) ? MPI_BOTTOM
                                              : buffer) {}
    void* c() const { return c_; }

private:
    void* c_;
};

// An INTEGER passed by value in C.
class Integer : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Integer(Fortran value, const Args&) : c_(*value) {}
    int c() const { return c_; }

private:
    int c_;
};

// An INTEGER array, or an INTEGER the C function writes.
class Integers : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Integers(Fortran values, const Args&) : c_(values) {}
    int* c() const { return c_; }

private:
    int* c_;
};

// A LOGICAL the C function writes: 0 or 1, which are gfortran's .FALSE. and .TRUE.
using Flag = Integers;

// An INTEGER(KIND=MPI_ADDRESS_KIND) array.
class Addresses : public NothingToWriteBack {
public:
    using Fortran = MPI_Aint*;
    template <class Args>
    Addresses(Fortran values, const Args&) : c_(values) {}
    const MPI_Aint* c() const { return c_; }

private:
    const MPI_Aint* c_;
};

// The edge weights of a graph constructor, or MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY.
class Weights : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Weights(Fortran weights, const Args&)
        : c_(is(weights, sentinels().unweighted)      ? MPI_UNWEIGHTED
             : is(weights, sentinels().weights_empty) ? MPI_WEIGHTS_EMPTY
                                                      : weights) {}
    const int* c() const { return c_; }

private:
    const int* c_;
};

// A LOGICAL: any nonzero value is true, whatever the compiler's value for .TRUE.
class Logical : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Logical(Fortran value, const Args&) : c_(*value != 0) {}
    int c() const { return c_; }

private:
    int c_;
};

// How long an array argument is: the value of the argument at index, or the number of dimensions
// of the Cartesian communicator at index (0 for any other, whose error the C function reports).
template <std::size_t index>
struct ValueOf {
    template <class Args>
    static int of(const Args& all) {
        return value_at<index>(all);
    }
};
int cartesian_dimensions(MPI_Comm comm);
template <std::size_t index>
struct DimensionsOf {
    template <class Args>
    static int of(const Args& all) {
        return cartesian_dimensions(comm_f2c(value_at<index>(all)));
    }
};

// An array of LOGICALs, as long as Length says (MPI_Cart_create's periods, MPI_Cart_sub's
// remain_dims), as the C function's ints.
template <class Length>
class Logicals : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Logicals(Fortran values, const Args& all) {
        for (int i = 0; i < Length::of(all); ++i) c_.push_back(values[i] != 0);
    }
    const int* c() const { return c_.data(); }

private:
    std::vector<int> c_;
};

// A handle the C function takes by value.
template <auto f2c>
class Handle : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Handle(Fortran handle, const Args&) : c_(f2c(*handle)) {}
    auto c() const { return c_; }

private:
    decltype(f2c(0)) c_;
};

using Comm = Handle<comm_f2c>;
using Datatype = Handle<type_f2c>;
using Info = Handle<info_f2c>;
using RequestValue = Handle<request_f2c>;

// A handle the C function creates; Fortran gets it only if the call succeeded.
template <class C, C null, auto c2f>
class NewHandle {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    NewHandle(Fortran handle, const Args&) : fortran_(handle) {}
    C* c() { return &c_; }
    template <class Args>
    void finish(const Args&, int err) {
        if (err == MPI_SUCCESS) *fortran_ = c2f(c_);
    }

private:
    Fortran fortran_;
    C c_ = null;
};

using NewComm = NewHandle<MPI_Comm, MPI_COMM_NULL, comm_c2f>;
using NewRequest = NewHandle<MPI_Request, MPI_REQUEST_NULL, request_c2f>;

// A request the C function may complete, free or start: written back whatever the outcome, as
// one that completed is freed even when another one in the same call failed.
class Request {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Request(Fortran request, const Args&) : fortran_(request), c_(request_f2c(*request)) {}
    MPI_Request* c() { return &c_; }
    template <class Args>
    void finish(const Args&, int) {
        *fortran_ = request_c2f(c_);
    }

private:
    Fortran fortran_;
    MPI_Request c_;
};

// An array of requests. Every MPI call that takes one has its length as its first argument.
class Requests {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Requests(Fortran requests, const Args& all) : fortran_(requests) {
        for (int i = 0; i < value_at<0>(all); ++i) c_.push_back(request_f2c(requests[i]));
    }
    MPI_Request* c() { return c_.data(); }
    template <class Args>
    void finish(const Args&, int) {
        for (std::size_t i = 0; i < c_.size(); ++i) fortran_[i] = request_c2f(c_[i]);
    }

private:
    Fortran fortran_;
    std::vector<MPI_Request> c_;
};

// A status, or MPI_STATUS_IGNORE.
class Status {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Status(Fortran status, const Args&) : fortran_(is(status, sentinels().status_ignore) ? nullptr : status) {}
    MPI_Status* c() { return fortran_ ? &c_ : MPI_STATUS_IGNORE; }
    template <class Args>
    void finish(const Args&, int) {
        if (fortran_) PMPI_Status_c2f(&c_, fortran_);
    }

private:
    Fortran fortran_;
    MPI_Status c_{};
};

// An array of statuses, or MPI_STATUSES_IGNORE, as long as the requests (the first argument);
// the C function fills as many as the argument at filled says.
template <std::size_t filled>
class Statuses {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Statuses(Fortran statuses, const Args& all)
        : fortran_(is(statuses, sentinels().statuses_ignore) ? nullptr : statuses) {
        if (fortran_ && value_at<0>(all) > 0) c_.resize(static_cast<std::size_t>(value_at<0>(all)));
    }
    MPI_Status* c() { return fortran_ ? c_.data() : MPI_STATUSES_IGNORE; }
    template <class Args>
    void finish(const Args& all, int) {
        if (!fortran_) return;
        for (int i = 0; i < value_at<filled>(all) && static_cast<std::size_t>(i) < c_.size(); ++i)
            PMPI_Status_c2f(&c_[static_cast<std::size_t>(i)], fortran_ + static_cast<std::size_t>(i) * status_size);
    }

private:
    Fortran fortran_;
    std::vector<MPI_Status> c_;
};

// The index of the request that completed: Fortran counts from 1.
class Index {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Index(Fortran index, const Args&) : fortran_(index) {}
    int* c() const { return fortran_; }
    template <class Args>
    void finish(const Args&, int err) {
        if (err == MPI_SUCCESS && *fortran_ != MPI_UNDEFINED) ++*fortran_;
    }

private:
    Fortran fortran_;
};

// The indices of the requests that completed, as many as the argument at count says.
template <std::size_t count>
class Indices {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Indices(Fortran indices, const Args&) : fortran_(indices) {}
    int* c() const { return fortran_; }
    template <class Args>
    void finish(const Args& all, int err) {
        if (err != MPI_SUCCESS) return;
        for (int i = 0; i < value_at<count>(all); ++i) ++fortran_[i];  // MPI_UNDEFINED is negative
    }

private:
    Fortran fortran_;
};

enum class Side { send, recv };

// How many neighbors a process of comm sends to or receives from: the length of alltoallw's
// datatype arrays (0 without a topology, where the C function reports the error).
int neighbor_count(MPI_Comm comm, Side side);

// The datatypes of alltoallw, one per neighbor of the communicator at index comm.
template <Side side, std::size_t comm>
class Datatypes : public NothingToWriteBack {
public:
    using Fortran = MPI_Fint*;
    template <class Args>
    Datatypes(Fortran types, const Args& all) {
        const int count = neighbor_count(comm_f2c(value_at<comm>(all)), side);
        for (int i = 0; i < count; ++i) c_.push_back(type_f2c(types[i]));
    }
    const MPI_Datatype* c() const { return c_.data(); }

private:
    std::vector<MPI_Datatype> c_;
};

template <std::size_t comm>
using SendTypes = Datatypes<Side::send, comm>;
template <std::size_t comm>
using RecvTypes = Datatypes<Side::recv, comm>;

}  // namespace nbrcomb::detail::fortran
