#include "src/progress/mpi_progress_hook.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

namespace nbrcomb::detail {

namespace {

using Callback = int (*)();
using Registration = int (*)(Callback);

struct Hook {
    std::once_flag once;
    std::atomic<Callback> registered{nullptr};
    Registration unregister = nullptr;
};

Hook& hook() {
    static Hook instance;
    return instance;
}

}  // namespace

void hook_into_mpi_progress(Callback advance) {
    Hook& state = hook();
    std::call_once(state.once, [&] {
        // Open MPI's, in the libopen-pal its libmpi links.
        const auto add = reinterpret_cast<Registration>(dlsym(RTLD_DEFAULT, "opal_progress_register"));
        const auto remove = reinterpret_cast<Registration>(dlsym(RTLD_DEFAULT, "opal_progress_unregister"));
        if (add == nullptr || remove == nullptr || add(advance) != 0) return;
        state.registered = advance;
        state.unregister = remove;
        call_flags.mpi_progress_hooked.store(true, std::memory_order_relaxed);
    });
}


void unhook_from_mpi_progress() {
    Hook& state = hook();
    if (state.registered.load() == nullptr) return;
    call_flags.mpi_progress_hooked.store(false, std::memory_order_relaxed);
    state.unregister(state.registered.exchange(nullptr));
}

}  // namespace nbrcomb::detail
