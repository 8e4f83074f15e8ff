// The memory map calls the library watches, so that the device check's remembered host answers
// (src/base/device_memory.h) never outlive the memory they were about, as UCX's memory type cache
// watches them. Each call goes on to the next definition (the C library's, or that of another
// watcher loaded after the library, such as an MPI's registration cache) and then says the map
// changed. A call the C library makes inside itself (glibc's free unmapping a large block) does
// not pass here; what maps device memory at that address later, the GPU driver, calls through here.
#include "src/base/device_memory.h"
#include "src/shims/export.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>

using namespace nbrcomb::detail;

namespace {

// The next definition of name after this library's, looked up once; where there is none, or the
// call comes from inside the lookup (a sanitizer's allocator maps memory from dlsym), the system
// call itself stands in.
template <class Function>
Function next_definition(const char* name, std::atomic<Function>& known) {
    Function next = known.load(std::memory_order_acquire);
    if (next != nullptr) return next;
    [[gnu::tls_model("initial-exec")]] static constinit thread_local bool looking = false;
    if (looking) return nullptr;
    looking = true;
    next = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
    looking = false;
    known.store(next, std::memory_order_release);
    return next;
}

using Mmap = void* (*)(void*, size_t, int, int, int, off_t);
using Munmap = int (*)(void*, size_t);
using Mremap = void* (*)(void*, size_t, size_t, int, ...);

std::atomic<Mmap> next_mmap{nullptr}, next_mmap64{nullptr};
std::atomic<Munmap> next_munmap{nullptr};
std::atomic<Mremap> next_mremap{nullptr};

void* mapped(void* address, size_t length, int protection, int flags, int fd, off_t offset,
             std::atomic<Mmap>& known, const char* name) {
    const Mmap next = next_definition(name, known);
    void* result = next != nullptr ? next(address, length, protection, flags, fd, offset)
                                   : reinterpret_cast<void*>(syscall(SYS_mmap, address, length, protection, flags, fd,
                                                                     offset));
    memory_map_changed();
    return result;
}

}  // namespace

NBRCOMB_EXPORT void* mmap(void* address, size_t length, int protection, int flags, int fd, off_t offset) noexcept {
    return mapped(address, length, protection, flags, fd, offset, next_mmap, "mmap");
}

NBRCOMB_EXPORT void* mmap64(void* address, size_t length, int protection, int flags, int fd, off_t offset) noexcept {
    return mapped(address, length, protection, flags, fd, offset, next_mmap64, "mmap64");
}

NBRCOMB_EXPORT int munmap(void* address, size_t length) noexcept {
    const Munmap next = next_definition("munmap", next_munmap);
    const int result = next != nullptr ? next(address, length) : static_cast<int>(syscall(SYS_munmap, address, length));
    memory_map_changed();
    return result;
}

// The new address is an argument only with MREMAP_FIXED.
NBRCOMB_EXPORT void* mremap(void* address, size_t old_length, size_t new_length, int flags, ...) noexcept {
    void* new_address = nullptr;
    if ((flags & MREMAP_FIXED) != 0) {
        va_list rest;
        va_start(rest, flags);
        new_address = va_arg(rest, void*);
        va_end(rest);
    }
    const Mremap next = next_definition("mremap", next_mremap);
    void* result = next != nullptr ? next(address, old_length, new_length, flags, new_address)
                                   : reinterpret_cast<void*>(
                                         syscall(SYS_mremap, address, old_length, new_length, flags, new_address));
    memory_map_changed();
    return result;
}
