// Whether a buffer lies in GPU memory, so that calls on it can go to the MPI's own (GPU-aware)
// collective instead of being copied and packed on the host.
#pragma once

namespace nbrcomb::detail {

// True when the GPU runtime reports address as memory the host cannot use as ordinary memory:
// CUDA device, managed or array memory, HIP device or managed memory. False for NULL, for host
// memory (pinned or not), and for every address when no GPU runtime is present: the CUDA driver
// if installed (libcuda.so.1), the HIP runtime if the program has loaded it (libamdhip64.so), HIP
// first. The runtime is looked for at the first call. Thread-safe.
bool is_device_memory(const void* address);

// The runtime that is_device_memory asks ("CUDA driver" or "HIP runtime"), or nullptr when it
// asks none and every address counts as host memory.
const char* device_runtime_name();

}  // namespace nbrcomb::detail
