// Whether a buffer lies in GPU memory, so that calls on it can go to the MPI's own (GPU-aware)
// collective instead of being copied and packed on the host.
#pragma once

#include "src/base/call_flags.h"

#include <atomic>

namespace nbrcomb::detail {

// is_device_memory's question to the runtime, or its remembered answer.
bool asks_device_runtime(const void* address);

// True when the GPU runtime reports address as memory the host cannot use as ordinary memory:
// CUDA device, managed or array memory, HIP device or managed memory. False for NULL, for host
// memory (pinned or not), and for every address when no GPU runtime is present: the CUDA driver
// if installed (libcuda.so.1), the HIP runtime if the program has loaded it (libamdhip64.so), HIP
// first. The runtime is looked for at the first call. Asked for the send and the receive buffer of
// every call the library might run itself (not on the native route): without a GPU runtime, the
// common case, an answer is a load and a branch, inlined; with
// one, an address answered host before is answered again from memory, until the memory map changes
// (memory_map_changed), where the runtime takes close to a microsecond after it is initialized.
// Thread-safe.
inline bool is_device_memory(const void* address) {
    return !call_flags.device_runtime_absent.load(std::memory_order_relaxed) && asks_device_runtime(address);
}

// The process mapped or unmapped memory (src/shims/interpose_memory_map.cpp): every remembered
// host answer is asked again, since device memory may now lie where host memory was.
void memory_map_changed();

// Whether this process uses a GPU now: the CUDA driver has a context current on the calling
// thread, or the program has loaded the HIP runtime. Asked once per communicator, when it is made.
bool device_runtime_in_use();

// The runtime that is_device_memory asks ("CUDA driver" or "HIP runtime"), or nullptr when it
// asks none and every address counts as host memory.
const char* device_runtime_name();

}  // namespace nbrcomb::detail
