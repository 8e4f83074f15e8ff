// A stand-in for the HIP runtime, libamdhip64.so.6, with the functions that device detection
// calls. It answers as ROCm does, in the numbering of hipMemoryType of the version it claims:
// ROCm 5 (Host 0, Device 1) fails for unknown memory and reports managed memory as Host with its
// flag set (as up to ROCm 5.6); ROCm 6 (Unregistered 0, Host 1, Device 2, Managed 3) reports
// unknown memory as Unregistered and managed memory as Managed, flag set too.
#include "tests/device/standin.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace {

constexpr int hip_success = 0;
constexpr int hip_error_invalid_value = 1;
constexpr int hip_version_6 = 60000000;

// hipPointerAttribute_t
struct PointerAttributes {
    int type;
    int device;
    void* device_pointer;
    void* host_pointer;
    int is_managed;
    unsigned allocation_flags;
};

struct Range {
    std::uintptr_t begin;
    std::uintptr_t end;
    StandinHipMemory memory;
};

std::mutex mutex;
std::vector<Range> ranges;
int version = hip_version_6;
// As in HIP, every call sets it.
thread_local int last_error = hip_success;

int memory_type(StandinHipMemory memory, bool numbering_6) {
    switch (memory) {
    case standin_hip_pinned_host:
        return numbering_6 ? 1 : 0;
    case standin_hip_device:
        return numbering_6 ? 2 : 1;
    case standin_hip_managed:
        break;
    }
    return numbering_6 ? 3 : 0;
}

}  // namespace

extern "C" {

void standin_hip_set_version(int new_version) {
    const std::lock_guard lock(mutex);
    version = new_version;
}

void standin_hip_mark(const void* begin, std::size_t bytes, StandinHipMemory memory) {
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    const std::lock_guard lock(mutex);
    ranges.push_back({first, first + bytes, memory});
}

int hipGetLastError() {
    const int error = last_error;
    last_error = hip_success;
    return error;
}

int hipRuntimeGetVersion(int* runtime_version) {
    if (runtime_version == nullptr) return last_error = hip_error_invalid_value;
    const std::lock_guard lock(mutex);
    *runtime_version = version;
    return last_error = hip_success;
}

int hipPointerGetAttributes(PointerAttributes* attributes, const void* pointer) {
    if (attributes == nullptr || pointer == nullptr) return last_error = hip_error_invalid_value;
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    const std::lock_guard lock(mutex);
    const bool numbering_6 = version >= hip_version_6;
    *attributes = {};
    for (const Range& range : ranges) {
        if (range.begin <= address && address < range.end) {
            attributes->type = memory_type(range.memory, numbering_6);
            attributes->is_managed = range.memory == standin_hip_managed ? 1 : 0;
            return last_error = hip_success;
        }
    }
    return last_error = numbering_6 ? hip_success : hip_error_invalid_value;
}

}  // extern "C"
