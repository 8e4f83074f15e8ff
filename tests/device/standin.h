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
void standin_cuda_mark_device(const void* begin, std::size_t bytes);
void standin_cuda_mark_pinned_host(const void* begin, std::size_t bytes);

// libamdhip64.so.6: what hipPointerGetAttributes reports for a marked range, in the numbering of
// the version that hipRuntimeGetVersion returns (standin_hip_set_version; 60000000 to start with).
// It exports hipGetLastError too.
enum StandinHipMemory { standin_hip_pinned_host, standin_hip_device, standin_hip_managed };
void standin_hip_set_version(int version);
void standin_hip_mark(const void* begin, std::size_t bytes, StandinHipMemory memory);

}  // extern "C"
