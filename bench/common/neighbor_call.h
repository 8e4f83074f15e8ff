// One neighborhood collective call of any collective, in any form, through the library (MPI_*)
// or the MPI itself (PMPI_*), with int or (MPI-4) large counts: what the MPI tests and nbrbench
// issue, from the one list of collectives of src/base/neighbor_collectives.def.
#pragma once

#include "schedule/mpi_features.h"
#include "src/shims/export.h"

#include <mpi.h>

#include <type_traits>

namespace nbrcomb::calls {

#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, ...) name,
enum class Collective {
#include "src/base/neighbor_collectives.def"
};
#undef NBRCOMB_NEIGHBOR_COLLECTIVE

#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, ...) Collective::name,
inline constexpr Collective all_collectives[] = {
#include "src/base/neighbor_collectives.def"
};
#undef NBRCOMB_NEIGHBOR_COLLECTIVE

#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, ...) #name,
inline constexpr const char* collective_names[] = {
#include "src/base/neighbor_collectives.def"
};
#undef NBRCOMB_NEIGHBOR_COLLECTIVE

inline const char* collective_name(Collective collective) { return collective_names[static_cast<int>(collective)]; }

// blocking: MPI_Neighbor_*; nonblocking: MPI_Ineighbor_*; persistent: MPI_Neighbor_*_init (MPI-4,
// Open MPI 5.0).
enum class Form { blocking, nonblocking, persistent };
inline const char* form_name(Form form) {
    constexpr const char* names[] = {"blocking", "nonblocking", "persistent"};
    return names[static_cast<int>(form)];
}

// The names as tests print them (found by argument-dependent lookup).
inline const char* name_of(Collective collective) { return collective_name(collective); }
inline const char* name_of(Form form) { return form_name(form); }
inline constexpr bool has_persistent_collectives = NBRCOMB_MPI_PERSISTENT_COLLECTIVES;
inline constexpr bool has_large_count_forms = NBRCOMB_MPI_LARGE_COUNT;

// library: MPI_*, which the library intercepts where it is linked or preloaded. native: PMPI_*.
enum class Path { library, native };

// The arguments of every collective by their names in the MPI standard, with Count for counts
// and Displ for the v forms' displacements: int, or MPI_Count and MPI_Aint for the large-count
// forms. Each collective reads its own; allgatherv's receive displacements are displs.
template <class Count = int, class Displ = int>
struct NeighborArguments {
    const void* sendbuf = nullptr;
    Count sendcount = 0;
    const Count* sendcounts = nullptr;
    const Displ* sdispls = nullptr;
    const MPI_Aint* byte_sdispls = nullptr;  // alltoallw
    MPI_Datatype sendtype = MPI_DATATYPE_NULL;
    const MPI_Datatype* sendtypes = nullptr;
    void* recvbuf = nullptr;
    Count recvcount = 0;
    const Count* recvcounts = nullptr;
    const Displ* displs = nullptr;
    const Displ* rdispls = nullptr;
    const MPI_Aint* byte_rdispls = nullptr;  // alltoallw
    MPI_Datatype recvtype = MPI_DATATYPE_NULL;
    const MPI_Datatype* recvtypes = nullptr;
    MPI_Comm comm = MPI_COMM_NULL;

    // Issues the call: the blocking form runs it, the nonblocking one starts it into *request,
    // the persistent one initializes *request with info (MPI_ERR_OTHER before MPI-4).
    int call(Path path, Collective collective, Form form, MPI_Request* request = nullptr,
             MPI_Info info = MPI_INFO_NULL) const {
        constexpr bool large = !std::is_same_v<Count, int>;
        static_assert(!large || has_large_count_forms, "the large-count forms are MPI-4's");
        const bool library = path == Path::library;
        switch (collective) {
#define NBRCOMB_ISSUE(function, names, ...) \
    (library ? MPI_##function(NBRCOMB_UNPAREN names __VA_OPT__(, ) __VA_ARGS__) \
             : PMPI_##function(NBRCOMB_UNPAREN names __VA_OPT__(, ) __VA_ARGS__))
#if NBRCOMB_MPI_LARGE_COUNT
#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, NAME, int_parameters, large_count_parameters, names, kinds)           \
    case Collective::name:                                                                                    \
        if constexpr (large) {                                                                                \
            switch (form) {                                                                                   \
            case Form::blocking: return NBRCOMB_ISSUE(Neighbor_##name##_c, names);                            \
            case Form::nonblocking: return NBRCOMB_ISSUE(Ineighbor_##name##_c, names, request);               \
            case Form::persistent: return NBRCOMB_ISSUE(Neighbor_##name##_init_c, names, info, request);      \
            }                                                                                                 \
        } else {                                                                                              \
            switch (form) {                                                                                   \
            case Form::blocking: return NBRCOMB_ISSUE(Neighbor_##name, names);                                \
            case Form::nonblocking: return NBRCOMB_ISSUE(Ineighbor_##name, names, request);                   \
            case Form::persistent: return NBRCOMB_ISSUE(Neighbor_##name##_init, names, info, request);        \
            }                                                                                                 \
        }                                                                                                     \
        break;
#elif NBRCOMB_MPI_PERSISTENT_COLLECTIVES
#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, NAME, int_parameters, large_count_parameters, names, kinds)    \
    case Collective::name:                                                                             \
        switch (form) {                                                                                \
        case Form::blocking: return NBRCOMB_ISSUE(Neighbor_##name, names);                             \
        case Form::nonblocking: return NBRCOMB_ISSUE(Ineighbor_##name, names, request);                \
        case Form::persistent: return NBRCOMB_ISSUE(Neighbor_##name##_init, names, info, request);     \
        }                                                                                              \
        break;
#else
#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, NAME, int_parameters, large_count_parameters, names, kinds) \
    case Collective::name:                                                                          \
        switch (form) {                                                                             \
        case Form::blocking: return NBRCOMB_ISSUE(Neighbor_##name, names);                          \
        case Form::nonblocking: return NBRCOMB_ISSUE(Ineighbor_##name, names, request);             \
        case Form::persistent: break;                                                               \
        }                                                                                           \
        break;
#endif
#include "src/base/neighbor_collectives.def"
#undef NBRCOMB_NEIGHBOR_COLLECTIVE
#undef NBRCOMB_ISSUE
        }
        (void)info;
        return MPI_ERR_OTHER;
    }
};

}  // namespace nbrcomb::calls
