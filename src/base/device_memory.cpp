#include "src/base/device_memory.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>

namespace nbrcomb::detail {

namespace {

// The few declarations of the CUDA driver API (cuda.h) and of the HIP runtime
// (hip_runtime_api.h) that detection needs: both runtimes are found at run time, neither is
// needed to build.
constexpr int cuda_success = 0;
constexpr int cu_pointer_attribute_memory_type = 2;
constexpr unsigned cu_memorytype_host = 1;
// CUdeviceptr is an integer of pointer size; CUcontext a pointer.
using CuPointerGetAttribute = int (*)(void* data, int attribute, std::uintptr_t address);
using CuCtxGetCurrent = int (*)(void** context);
using CuDeviceGetCount = int (*)(int* count);
using CuDevicePrimaryCtxGetState = int (*)(int device, unsigned* flags, int* active);

constexpr int hip_success = 0;
// hipPointerAttribute_t, alike in ROCm 5 and 6 but for the numbering of its type.
struct HipPointerAttributes {
    int type;
    int device;
    void* device_pointer;
    void* host_pointer;
    int is_managed;
    unsigned allocation_flags;
};
using HipPointerGetAttributes = int (*)(HipPointerAttributes* attributes, const void* address);
using HipRuntimeGetVersion = int (*)(int* version);
using HipGetLastError = int (*)();
// ROCm 6 renumbered hipMemoryType. Before: Host 0, Device 1, Array 2, Unified 3, Managed 4;
// from 6 on: Unregistered 0, Host 1, Device 2, Managed 3, Array 10, Unified 11. So Device of
// ROCm 5 is Host of ROCm 6, and the runtime's version decides which one a type means.
constexpr int hip_version_6 = 60000000;  // HIP_VERSION: major * 10000000 + minor * 100000 + patch
constexpr int hip5_memory_type_host = 0;
constexpr int hip6_memory_type_unregistered = 0;
constexpr int hip6_memory_type_host = 1;

enum class Runtime { not_looked_for, none, cuda, hip };

// Set once by find_runtime, before runtime publishes which of them to use.
CuPointerGetAttribute cu_pointer_get_attribute = nullptr;
CuCtxGetCurrent cu_ctx_get_current = nullptr;
CuDeviceGetCount cu_device_get_count = nullptr;
CuDevicePrimaryCtxGetState cu_device_primary_ctx_get_state = nullptr;
HipPointerGetAttributes hip_pointer_get_attributes = nullptr;
HipGetLastError hip_get_last_error = nullptr;
bool hip_numbering_6 = false;
std::atomic<Runtime> runtime{Runtime::not_looked_for};

// Only a HIP runtime that the process has loaded already: the first call into one initializes
// it (every GPU of the node, threads of its own), which no host-only process should pay for. A
// HIP program has it from its start, as it links it.
bool find_hip() {
    for (const char* name : {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"}) {
        void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (library == nullptr) continue;
        const auto get_attributes =
            reinterpret_cast<HipPointerGetAttributes>(dlsym(library, "hipPointerGetAttributes"));
        const auto get_version = reinterpret_cast<HipRuntimeGetVersion>(dlsym(library, "hipRuntimeGetVersion"));
        const auto get_last_error = reinterpret_cast<HipGetLastError>(dlsym(library, "hipGetLastError"));
        int version = 0;
        if (get_attributes == nullptr || get_version == nullptr || get_last_error == nullptr ||
            get_version(&version) != hip_success) {
            dlclose(library);
            continue;
        }
        // The handle stays open, so that the runtime stays loaded while its functions are called.
        hip_pointer_get_attributes = get_attributes;
        hip_get_last_error = get_last_error;
        hip_numbering_6 = version >= hip_version_6;
        return true;
    }
    return false;
}

// The CUDA driver, loaded here if installed: until the program initializes CUDA,
// cuPointerGetAttribute only fails (host memory) and initializes nothing. A CUDA program loads the
// driver at its first CUDA call, which may come after its first MPI call, so that looking only
// for a driver loaded already could miss it.
bool find_cuda() {
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return false;
    const auto get_attribute = reinterpret_cast<CuPointerGetAttribute>(dlsym(library, "cuPointerGetAttribute"));
    if (get_attribute == nullptr) {
        dlclose(library);
        return false;
    }
    cu_pointer_get_attribute = get_attribute;
    cu_ctx_get_current = reinterpret_cast<CuCtxGetCurrent>(dlsym(library, "cuCtxGetCurrent"));
    cu_device_get_count = reinterpret_cast<CuDeviceGetCount>(dlsym(library, "cuDeviceGetCount"));
    cu_device_primary_ctx_get_state =
        reinterpret_cast<CuDevicePrimaryCtxGetState>(dlsym(library, "cuDevicePrimaryCtxGetState"));
    return true;
}

Runtime find_runtime() {
    // A process with HIP loaded uses HIP, even where a CUDA driver is installed too.
    if (find_hip()) return Runtime::hip;
    if (find_cuda()) return Runtime::cuda;
    return Runtime::none;
}

Runtime looked_for_runtime() {
    const Runtime known = runtime.load(std::memory_order_acquire);
    if (known != Runtime::not_looked_for) return known;
    // A function-local static: the first caller looks, callers meanwhile wait for its answer.
    static const Runtime found = find_runtime();
    runtime.store(found, std::memory_order_release);
    if (found == Runtime::none) call_flags.device_runtime_absent.store(true, std::memory_order_relaxed);
    return found;
}

bool hip_is_device_memory(const void* address) {
    HipPointerAttributes attributes{};
    // ROCm 5 fails for memory it does not know, ROCm 6 says Unregistered: host memory both. Every
    // HIP call sets the thread's last error; the one this failure sets is cleared, so that the
    // program does not find it in its next hipGetLastError.
    if (hip_pointer_get_attributes(&attributes, address) != hip_success) {
        hip_get_last_error();
        return false;
    }
    // Managed memory may come with type Host (ROCm 5): its flag says what it is.
    if (attributes.is_managed != 0) return true;
    if (hip_numbering_6) {
        return attributes.type != hip6_memory_type_unregistered && attributes.type != hip6_memory_type_host;
    }
    return attributes.type != hip5_memory_type_host;
}

// The answer of the runtime found.
bool ask_runtime(Runtime asked, const void* address) {
    switch (asked == Runtime::not_looked_for ? looked_for_runtime() : asked) {
    case Runtime::cuda: {
        unsigned type = 0;
        // Every error, such as CUDA not initialized or an address the driver does not know, means
        // host memory.
        return cu_pointer_get_attribute(&type, cu_pointer_attribute_memory_type,
                                        reinterpret_cast<std::uintptr_t>(address)) == cuda_success &&
               type != cu_memorytype_host;
    }
    case Runtime::hip:
        return hip_is_device_memory(address);
    case Runtime::not_looked_for:
    case Runtime::none:
        break;
    }
    return false;
}

// The host answers of this thread, by address: an address answered host memory stays host until
// the process's memory map changes, since device memory comes only by a mapping (the driver's own
// mmap, or its reservation made by one) and every mapping through the dynamic linker bumps the
// generation (memory_map_changed), which empties every thread's answers at once. The allocator's
// own unmapping (glibc's free calls munmap inside libc) is not seen, but what comes at the
// address next as device memory is mapped by the driver, which is. Device answers are not kept:
// such a call goes to the MPI, whose own copy costs far more than a question. A hot thread-local
// (call_flags.h).
struct HostAnswer {
    std::uintptr_t address;
    std::uint64_t generation;  // of the memory map when answered; 0 never matches
};
// Eight sets of two: a call's send and receive buffers, often a few bytes apart, each keep theirs.
constexpr std::size_t answer_sets = 8;
NBRCOMB_HOT_THREAD_LOCAL std::array<std::array<HostAnswer, 2>, answer_sets> answered{};
std::atomic<std::uint64_t> memory_generation{1};

std::array<HostAnswer, 2>& answer_set(std::uintptr_t address) {
    // Fibonacci hashing of the 16-byte granule: neighboring buffers land in different sets.
    return answered[((address >> 4) * 0x9e3779b97f4a7c15ULL) >> 61];
}

}  // namespace

bool asks_device_runtime(const void* address) {
    if (address == nullptr) return false;
    const auto key = reinterpret_cast<std::uintptr_t>(address);
    std::array<HostAnswer, 2>& set = answer_set(key);
    const std::uint64_t generation = memory_generation.load(std::memory_order_acquire);
    for (const HostAnswer& answer : set)
        if (answer.address == key && answer.generation == generation) return false;
    const bool device = ask_runtime(runtime.load(std::memory_order_acquire), address);
    // The newest answer first, the one before it second: the older one goes.
    if (!device) set = {HostAnswer{key, generation}, set[0]};
    return device;
}

void memory_map_changed() { memory_generation.fetch_add(1, std::memory_order_acq_rel); }

namespace {

// A CUDA context on the calling thread, or any device's primary context active (the runtime API's,
// made by another thread or before this one's current context was set). Every query fails before
// cuInit: no GPU in use.
bool cuda_in_use() {
    void* context = nullptr;
    if (cu_ctx_get_current != nullptr && cu_ctx_get_current(&context) == cuda_success && context != nullptr)
        return true;
    int devices = 0;
    if (cu_device_get_count == nullptr || cu_device_primary_ctx_get_state == nullptr ||
        cu_device_get_count(&devices) != cuda_success)
        return false;
    for (int device = 0; device < devices; ++device) {
        unsigned flags = 0;
        int active = 0;
        if (cu_device_primary_ctx_get_state(device, &flags, &active) == cuda_success && active != 0) return true;
    }
    return false;
}

}  // namespace

bool device_runtime_in_use() {
    switch (looked_for_runtime()) {
    case Runtime::cuda:
        return cuda_in_use();
    case Runtime::hip:
        // Loaded by the program or by its MPI (a ROCm-aware one loads it for every job): the
        // library cannot tell them apart, and takes it as in use.
        return true;
    case Runtime::not_looked_for:
    case Runtime::none:
        break;
    }
    return false;
}

const char* device_runtime_name() {
    switch (looked_for_runtime()) {
    case Runtime::cuda:
        return "CUDA driver";
    case Runtime::hip:
        return "HIP runtime";
    case Runtime::not_looked_for:
    case Runtime::none:
        break;
    }
    return nullptr;
}

}  // namespace nbrcomb::detail
