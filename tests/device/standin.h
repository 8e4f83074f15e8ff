// What the stand-in GPU runtimes export besides the runtimes' own functions: with these a test
// chooses the addresses they report as GPU memory. A test finds them with dlopen of the
// runtime's name ("libcuda.so.1", "libamdhip64.so.6") and dlsym, so that it shares the one
// loaded copy that device detection asks.
#pragma once

#include <cstddef>

extern "C" {

// libcuda.so.1: cuPointerGetAttribute reports CU_MEMORYTYPE_DEVICE for [begin, begin + bytes)
// from now on, as for every range marked before, and CUDA_ERROR_INVALID_VALUE for unmarked
// addresses; CU_MEMORYTYPE_HOST for a range marked as pinned host memory (cuMemAllocHost).
// Marking maps and unmaps a page, as the driver maps what it allocates. Once a range is marked
// device memory, cuCtxGetCurrent reports a current context.
void standin_cuda_mark_device(const void* begin, std::size_t bytes);
void standin_cuda_mark_pinned_host(const void* begin, std::size_t bytes);
// cuPointerGetAttribute's calls so far, and how long each takes from now on (0: at once; the
// environment's STANDIN_CUDA_ANSWER_NS to start with).
unsigned long long standin_cuda_queries();
void standin_cuda_answer_in(long long nanoseconds);

// libamdhip64.so.6: what hipPointerGetAttributes reports for a marked range, in the numbering of
// the version that hipRuntimeGetVersion returns (standin_hip_set_version; 60000000 to start with).
// It exports hipGetLastError too.
enum StandinHipMemory { standin_hip_pinned_host, standin_hip_device, standin_hip_managed };
void standin_hip_set_version(int version);
void standin_hip_mark(const void* begin, std::size_t bytes, StandinHipMemory memory);

}  // extern "C"

#include <dlfcn.h>

// Marks [begin, begin + bytes) as device memory in the stand-in libcuda.so.1 that device detection
// loaded; false where the stand-in is not on LD_LIBRARY_PATH.
inline bool standin_mark_device(const void* begin, std::size_t bytes) {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) return false;
    const auto mark = reinterpret_cast<decltype(&standin_cuda_mark_device)>(dlsym(driver, "standin_cuda_mark_device"));
    if (mark == nullptr) return false;
    mark(begin, bytes);
    return true;
}
