// The Fortran bindings of the calls the library intercepts, where the MPI's own ones call the C
// PMPI_ functions, so that a Fortran program would never reach the library's MPI_ ones. These
// take their place and call the library's C entry points, converting arguments as the MPI's
// bindings do. A line of fortran_bindings.def becomes one binding, exported under the names
//   Open MPI (all its Fortran bindings call PMPI_):
//     mpi_x_, mpi_x__, mpi_x, MPI_X   mpif.h and the mpi module, as compilers mangle MPI_X
//     mpi_x_f08_                      the mpi_f08 module: the same arguments (buffers as plain
//                                     addresses), with ierror optional (null when absent)
//   MPICH (mpif.h, the mpi module and mpi_f08's collectives call the C MPI_ functions):
//     mpi_x_f08_                      the mpi_f08 module's other calls, those without buffers
#include "schedule/mpi_features.h"
#include "src/fortran/fortran_arguments.h"
#include "src/shims/export.h"

#include <new>

using namespace nbrcomb::detail::fortran;

namespace {

// Runs c_function on the converted arguments and writes the results back; no exception leaves.
template <auto c_function, class... Kinds>
void call_from_fortran(fortran_t<Kinds>... arguments, MPI_Fint* ierror) {
    int err = MPI_SUCCESS;
    try {
        const std::tuple<fortran_t<Kinds>...> all{arguments...};
        std::tuple<Kinds...> converted{Kinds(arguments, all)...};
        err = std::apply([](auto&... kind) { return c_function(kind.c()...); }, converted);
        std::apply([&](auto&... kind) { (kind.finish(all, err), ...); }, converted);
    } catch (const std::bad_alloc&) {  // only the arrays of converted handles allocate
        err = MPI_ERR_NO_MEM;
    }
    if (ierror != nullptr) *ierror = err;
}

// Fortran's MPI_Init has no command line to hand over.
int init_without_arguments() { return MPI_Init(nullptr, nullptr); }
int init_thread_without_arguments(int required, int* provided) {
    return MPI_Init_thread(nullptr, nullptr, required, provided);
}

}  // namespace

// The parameters a1 … aN of a binding, typed by their kinds, and the same names as arguments.
#define NBRCOMB_FORTRAN_COUNT(...) \
    NBRCOMB_FORTRAN_COUNT_(__VA_OPT__(__VA_ARGS__, ) 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, )
#define NBRCOMB_FORTRAN_COUNT_(k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, n, ...) n
#define NBRCOMB_FORTRAN_CAT(a, b) NBRCOMB_FORTRAN_CAT_(a, b)
#define NBRCOMB_FORTRAN_CAT_(a, b) a##b
#define NBRCOMB_FORTRAN_EACH(m, ...) \
    NBRCOMB_FORTRAN_CAT(NBRCOMB_FORTRAN_EACH_, NBRCOMB_FORTRAN_COUNT(__VA_ARGS__))(m __VA_OPT__(, ) __VA_ARGS__)
#define NBRCOMB_FORTRAN_EACH_0(m)
#define NBRCOMB_FORTRAN_EACH_1(m, k1) m(1, k1)
#define NBRCOMB_FORTRAN_EACH_2(m, k1, k2) NBRCOMB_FORTRAN_EACH_1(m, k1) m(2, k2)
#define NBRCOMB_FORTRAN_EACH_3(m, k1, k2, k3) NBRCOMB_FORTRAN_EACH_2(m, k1, k2) m(3, k3)
#define NBRCOMB_FORTRAN_EACH_4(m, k1, k2, k3, k4) NBRCOMB_FORTRAN_EACH_3(m, k1, k2, k3) m(4, k4)
#define NBRCOMB_FORTRAN_EACH_5(m, k1, k2, k3, k4, k5) NBRCOMB_FORTRAN_EACH_4(m, k1, k2, k3, k4) m(5, k5)
#define NBRCOMB_FORTRAN_EACH_6(m, k1, k2, k3, k4, k5, k6) NBRCOMB_FORTRAN_EACH_5(m, k1, k2, k3, k4, k5) m(6, k6)
#define NBRCOMB_FORTRAN_EACH_7(m, k1, k2, k3, k4, k5, k6, k7) \
    NBRCOMB_FORTRAN_EACH_6(m, k1, k2, k3, k4, k5, k6) m(7, k7)
#define NBRCOMB_FORTRAN_EACH_8(m, k1, k2, k3, k4, k5, k6, k7, k8) \
    NBRCOMB_FORTRAN_EACH_7(m, k1, k2, k3, k4, k5, k6, k7) m(8, k8)
#define NBRCOMB_FORTRAN_EACH_9(m, k1, k2, k3, k4, k5, k6, k7, k8, k9) \
    NBRCOMB_FORTRAN_EACH_8(m, k1, k2, k3, k4, k5, k6, k7, k8) m(9, k9)
#define NBRCOMB_FORTRAN_EACH_10(m, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10) \
    NBRCOMB_FORTRAN_EACH_9(m, k1, k2, k3, k4, k5, k6, k7, k8, k9) m(10, k10)
#define NBRCOMB_FORTRAN_EACH_11(m, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11) \
    NBRCOMB_FORTRAN_EACH_10(m, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10) m(11, k11)
#define NBRCOMB_FORTRAN_PARAMETER(i, kind) fortran_t<kind> a##i,
#define NBRCOMB_FORTRAN_ARGUMENT(i, kind) a##i,

#define NBRCOMB_FORTRAN_ALIAS(binding, name) \
    extern "C" __attribute__((visibility("default"), alias(#binding))) decltype(binding) name;

// The binding symbol, calling c_function with arguments of the kinds given.
#define NBRCOMB_FORTRAN_DEFINE(symbol, c_function, ...)                                                 \
    NBRCOMB_EXPORT void symbol(NBRCOMB_FORTRAN_EACH(NBRCOMB_FORTRAN_PARAMETER, __VA_ARGS__) MPI_Fint* ierror) { \
        call_from_fortran<c_function __VA_OPT__(, ) __VA_ARGS__>(                                       \
            NBRCOMB_FORTRAN_EACH(NBRCOMB_FORTRAN_ARGUMENT, __VA_ARGS__) ierror);                         \
    }

#if defined(OPEN_MPI)
#define NBRCOMB_FORTRAN(name, NAME, ...)                        \
    NBRCOMB_FORTRAN_DEFINE(mpi_##name##_, __VA_ARGS__)          \
    NBRCOMB_FORTRAN_ALIAS(mpi_##name##_, mpi_##name##__)        \
    NBRCOMB_FORTRAN_ALIAS(mpi_##name##_, mpi_##name)            \
    NBRCOMB_FORTRAN_ALIAS(mpi_##name##_, MPI_##NAME)            \
    NBRCOMB_FORTRAN_ALIAS(mpi_##name##_, mpi_##name##_f08_)
#define NBRCOMB_FORTRAN_BUFFERS NBRCOMB_FORTRAN
#else
#define NBRCOMB_FORTRAN(name, NAME, ...) NBRCOMB_FORTRAN_DEFINE(mpi_##name##_f08_, __VA_ARGS__)
#define NBRCOMB_FORTRAN_BUFFERS(name, NAME, ...)
#endif

#include "src/fortran/fortran_bindings.def"
