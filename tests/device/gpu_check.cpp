// Device memory detection on a real NVIDIA GPU, built and run by gpu_check.sh: allocates device,
// managed and pinned host memory through the CUDA driver and checks what is_device_memory says of
// them and of malloc'ed memory; times it on host memory. Exit status 0: all as expected, 1: a
// wrong answer, 2: no usable GPU. The driver's declarations are our own, so that no CUDA toolkit
// is needed.
#include "src/base/device_memory.h"

#include <dlfcn.h>
#include <link.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

using nbrcomb::detail::device_runtime_name;
using nbrcomb::detail::is_device_memory;

namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUdeviceptr = std::uintptr_t;

constexpr int cu_pointer_attribute_memory_type = 2;
constexpr int cu_pointer_attribute_is_managed = 8;
constexpr unsigned cu_mem_attach_global = 1;

// The driver's functions under the symbol names that cuda.h maps them to (cuMemAlloc is
// cuMemAlloc_v2, ...).
struct Driver {
    CUresult (*init)(unsigned flags);
    CUresult (*driver_get_version)(int* version);
    CUresult (*device_get_count)(int* count);
    CUresult (*device_get)(CUdevice* device, int ordinal);
    CUresult (*device_get_name)(char* name, int length, CUdevice device);
    CUresult (*device_primary_ctx_retain)(CUcontext* context, CUdevice device);
    CUresult (*ctx_set_current)(CUcontext context);
    CUresult (*mem_alloc)(CUdeviceptr* address, std::size_t bytes);
    CUresult (*mem_alloc_managed)(CUdeviceptr* address, std::size_t bytes, unsigned flags);
    CUresult (*mem_alloc_host)(void** address, std::size_t bytes);
    CUresult (*mem_free)(CUdeviceptr address);
    CUresult (*mem_free_host)(void* address);
    CUresult (*pointer_get_attribute)(void* data, int attribute, CUdeviceptr address);
    CUresult (*get_error_name)(CUresult error, const char** name);
};

template <typename Function>
bool find(void* library, const char* name, Function*& function) {
    function = reinterpret_cast<Function*>(dlsym(library, name));
    if (function == nullptr) std::printf("libcuda.so.1 lacks %s\n", name);
    return function != nullptr;
}

bool find_driver(void* library, Driver& driver) {
    bool found = find(library, "cuInit", driver.init);
    found &= find(library, "cuDriverGetVersion", driver.driver_get_version);
    found &= find(library, "cuDeviceGetCount", driver.device_get_count);
    found &= find(library, "cuDeviceGet", driver.device_get);
    found &= find(library, "cuDeviceGetName", driver.device_get_name);
    found &= find(library, "cuDevicePrimaryCtxRetain", driver.device_primary_ctx_retain);
    found &= find(library, "cuCtxSetCurrent", driver.ctx_set_current);
    found &= find(library, "cuMemAlloc_v2", driver.mem_alloc);
    found &= find(library, "cuMemAllocManaged", driver.mem_alloc_managed);
    found &= find(library, "cuMemAllocHost_v2", driver.mem_alloc_host);
    found &= find(library, "cuMemFree_v2", driver.mem_free);
    found &= find(library, "cuMemFreeHost", driver.mem_free_host);
    found &= find(library, "cuPointerGetAttribute", driver.pointer_get_attribute);
    found &= find(library, "cuGetErrorName", driver.get_error_name);
    return found;
}

const Driver* driver_for_errors = nullptr;

const char* error_name(CUresult error) {
    const char* name = nullptr;
    if (driver_for_errors == nullptr || driver_for_errors->get_error_name(error, &name) != 0 || name == nullptr) {
        return "unknown error";
    }
    return name;
}

// False, with a line, when call failed.
bool ok(CUresult result, const char* call) {
    if (result != 0) std::printf("%s failed: %d %s\n", call, result, error_name(result));
    return result == 0;
}

// Nanoseconds per is_device_memory call on address, over a million calls.
double nanoseconds_per_call(const void* address) {
    constexpr int calls = 1000000;
    int device_answers = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) device_answers += is_device_memory(address) ? 1 : 0;
    const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    if (device_answers != 0 && device_answers != calls) std::printf("answers changed while timing\n");
    return elapsed.count() / calls;
}

// What the driver says of address itself, beside what is_device_memory makes of it.
void print_driver_attributes(const Driver& driver, const void* address) {
    unsigned memory_type = 0;
    const CUresult type_result = driver.pointer_get_attribute(&memory_type, cu_pointer_attribute_memory_type,
                                                              reinterpret_cast<CUdeviceptr>(address));
    unsigned is_managed = 0;
    const CUresult managed_result = driver.pointer_get_attribute(&is_managed, cu_pointer_attribute_is_managed,
                                                                 reinterpret_cast<CUdeviceptr>(address));
    std::printf("  [driver: MEMORY_TYPE ");
    if (type_result == 0) {
        std::printf("%u", memory_type);
    } else {
        std::printf("error %s", error_name(type_result));
    }
    std::printf(", IS_MANAGED ");
    if (managed_result == 0) {
        std::printf("%u", is_managed);
    } else {
        std::printf("error %s", error_name(managed_result));
    }
    std::printf("]\n");
}

struct Allocation {
    const char* what;
    const void* begin;
    std::size_t bytes;
    bool device;
};

}  // namespace

int main() {
    static char host_static[256];
    const char* runtime = device_runtime_name();
    std::printf("device runtime of the library: %s\n", runtime == nullptr ? "none" : runtime);
    if (runtime == nullptr) {
        std::printf("FAIL: is_device_memory found no CUDA driver (libcuda.so.1)\n");
        return 2;
    }
    std::printf("host memory, driver loaded but CUDA not initialized: %.1f ns per call\n",
                nanoseconds_per_call(host_static));

    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        std::printf("dlopen(libcuda.so.1): %s\n", dlerror());
        return 2;
    }
    link_map* map = nullptr;
    if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr) {
        std::printf("libcuda.so.1 loaded from %s\n", map->l_name);
    }
    Driver driver{};
    if (!find_driver(library, driver)) return 2;
    driver_for_errors = &driver;

    int version = 0, count = 0;
    CUdevice device = 0;
    CUcontext context = nullptr;
    char name[256] = {};
    if (!ok(driver.init(0), "cuInit") || !ok(driver.driver_get_version(&version), "cuDriverGetVersion") ||
        !ok(driver.device_get_count(&count), "cuDeviceGetCount") || count == 0 ||
        !ok(driver.device_get(&device, 0), "cuDeviceGet") ||
        !ok(driver.device_get_name(name, sizeof name, device), "cuDeviceGetName") ||
        !ok(driver.device_primary_ctx_retain(&context, device), "cuDevicePrimaryCtxRetain") ||
        !ok(driver.ctx_set_current(context), "cuCtxSetCurrent")) {
        std::printf("no usable GPU (%d devices)\n", count);
        return 2;
    }
    std::printf("CUDA driver %d.%d, %d devices, device 0: %s\n", version / 1000, version % 1000 / 10, count, name);

    constexpr std::size_t bytes = 1 << 20;
    CUdeviceptr device_memory = 0, managed_memory = 0;
    void* pinned_memory = nullptr;
    void* host_memory = std::malloc(bytes);
    if (!ok(driver.mem_alloc(&device_memory, bytes), "cuMemAlloc") ||
        !ok(driver.mem_alloc_managed(&managed_memory, bytes, cu_mem_attach_global), "cuMemAllocManaged") ||
        !ok(driver.mem_alloc_host(&pinned_memory, bytes), "cuMemAllocHost") || host_memory == nullptr) {
        return 2;
    }
    const Allocation allocations[] = {
        {"device (cuMemAlloc)", reinterpret_cast<const void*>(device_memory), bytes, true},
        {"managed (cuMemAllocManaged)", reinterpret_cast<const void*>(managed_memory), bytes, true},
        {"pinned host (cuMemAllocHost)", pinned_memory, bytes, false},
        {"host (malloc)", host_memory, bytes, false},
        {"host (static)", host_static, sizeof host_static, false},
    };

    bool all_right = true;
    for (const Allocation& allocation : allocations) {
        const char* last = static_cast<const char*>(allocation.begin) + allocation.bytes - 1;
        const bool at_begin = is_device_memory(allocation.begin);
        const bool at_end = is_device_memory(last);
        const bool right = at_begin == allocation.device && at_end == allocation.device;
        all_right &= right;
        std::printf("%-4s %-30s is_device_memory: first byte %d, last byte %d, expected %d\n", right ? "ok" : "FAIL",
                    allocation.what, at_begin, at_end, allocation.device);
        print_driver_attributes(driver, allocation.begin);
    }
    const bool null_right = !is_device_memory(nullptr);
    all_right &= null_right;
    std::printf("%-4s %-30s is_device_memory: %d, expected 0\n", null_right ? "ok" : "FAIL", "NULL",
                !null_right);

    // A thread with no current context, as an MPI call from another thread of the program may be.
    bool device_elsewhere = false, managed_elsewhere = false;
    std::thread([&] {
        device_elsewhere = is_device_memory(allocations[0].begin);
        managed_elsewhere = is_device_memory(allocations[1].begin);
    }).join();
    std::printf("(informational) from a thread without a current context: device %d, managed %d\n",
                device_elsewhere, managed_elsewhere);

    std::printf("host memory (malloc), CUDA initialized: %.1f ns per call\n", nanoseconds_per_call(host_memory));
    std::printf("pinned host memory: %.1f ns per call\n", nanoseconds_per_call(pinned_memory));
    std::printf("device memory: %.1f ns per call\n", nanoseconds_per_call(allocations[0].begin));

    driver.mem_free(device_memory);
    driver.mem_free(managed_memory);
    driver.mem_free_host(pinned_memory);
    std::free(host_memory);
    std::printf("%s\n", all_right ? "PASS" : "FAIL");
    return all_right ? 0 : 1;
}
