// The process-wide words every intercepted call reads before anything else, in one cache line:
// a call the library leaves to the MPI then finds them all with one load, however much of the
// cache the MPI's own work took since the last call. Each has one writer, named beside it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

// The thread-locals every call reads: initial-exec, a load rather than a call to __tls_get_addr,
// as the library is loaded with the program (LD_PRELOAD or linking); under SMPI, which loads a
// copy of the program and its libraries for every simulated process, the static TLS those would
// take runs out, so there they keep the default model.
#ifdef NBRCOMB_SMPI
#define NBRCOMB_HOT_THREAD_LOCAL thread_local
#else
#define NBRCOMB_HOT_THREAD_LOCAL [[gnu::tls_model("initial-exec")]] thread_local
#endif

namespace nbrcomb::detail {

struct alignas(64) CallFlags {
    // States attached to communicators and freed, from 1 (communicator/topo_state.cpp).
    std::atomic<std::uint64_t> states_changed{1};
    // Operations in the engine (communicator/progress_engine.cpp).
    std::atomic<std::size_t> operations_in_flight{0};
    // Library persistent requests, and the failures kept for them (route/persistent_collective.cpp).
    std::atomic<std::size_t> persistent_collectives{0};
    std::atomic<std::size_t> persistent_failures{0};
    // The device check found no GPU runtime (base/device_memory.cpp).
    std::atomic<bool> device_runtime_absent{false};
    // The MPI calls the library's progress (progress/mpi_progress_hook.cpp).
    std::atomic<bool> mpi_progress_hooked{false};
};
inline CallFlags call_flags;

}  // namespace nbrcomb::detail
