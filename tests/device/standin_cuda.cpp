// A stand-in for the CUDA driver, libcuda.so.1, with the one function that device detection
// calls: the ranges a test marks are device or pinned host memory, every other address fails as
// memory the real driver does not know (or as any address before CUDA is initialized).
#include "tests/device/standin.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace {

constexpr int cuda_success = 0;
constexpr int cuda_error_invalid_value = 1;
constexpr int cu_pointer_attribute_memory_type = 2;
constexpr unsigned cu_memorytype_host = 1;
constexpr unsigned cu_memorytype_device = 2;

struct Range {
    std::uintptr_t begin;
    std::uintptr_t end;
    unsigned memory_type;
};

std::mutex ranges_mutex;
std::vector<Range> ranges;

void mark(const void* begin, std::size_t bytes, unsigned memory_type) {
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    const std::lock_guard lock(ranges_mutex);
    ranges.push_back({first, first + bytes, memory_type});
}

}  // namespace

extern "C" {

void standin_cuda_mark_device(const void* begin, std::size_t bytes) { mark(begin, bytes, cu_memorytype_device); }

void standin_cuda_mark_pinned_host(const void* begin, std::size_t bytes) { mark(begin, bytes, cu_memorytype_host); }

// As the driver declares it, CUdeviceptr being an integer of pointer size.
int cuPointerGetAttribute(void* data, int attribute, std::uintptr_t address) {
    if (data == nullptr || attribute != cu_pointer_attribute_memory_type) return cuda_error_invalid_value;
    const std::lock_guard lock(ranges_mutex);
    for (const Range& range : ranges) {
        if (range.begin <= address && address < range.end) {
            *static_cast<unsigned*>(data) = range.memory_type;
            return cuda_success;
        }
    }
    return cuda_error_invalid_value;
}

}  // extern "C"
