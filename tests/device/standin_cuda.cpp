// A stand-in for the CUDA driver, libcuda.so.1, with the functions that device detection calls:
// the ranges a test marks are device or pinned host memory, every other address fails as memory
// the real driver does not know (or as any address before CUDA is initialized). A context is
// current once a range is marked device memory, as one is in a program that has allocated some.
// It counts the questions it answers and answers as slowly as a test asks, as the real driver
// takes close to a microsecond once initialized.
#include "tests/device/standin.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
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
bool device_marked = false;
std::atomic<unsigned long long> queries{0};
// STANDIN_CUDA_ANSWER_NS sets it for a whole run (a benchmark's).
std::atomic<long long> query_nanoseconds{std::getenv("STANDIN_CUDA_ANSWER_NS") ? std::atoll(std::getenv("STANDIN_CUDA_ANSWER_NS")) : 0};

// The real driver maps the memory it allocates, and the library watches the mappings: marking maps
// and unmaps a page of the stand-in's own, so the library sees the map change as it would.
void map_as_the_driver_would() {
    const long page = sysconf(_SC_PAGESIZE);
    void* mapped = mmap(nullptr, static_cast<std::size_t>(page), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped != MAP_FAILED) munmap(mapped, static_cast<std::size_t>(page));
}

void mark(const void* begin, std::size_t bytes, unsigned memory_type) {
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    {
        const std::lock_guard lock(ranges_mutex);
        ranges.push_back({first, first + bytes, memory_type});
        device_marked = device_marked || memory_type == cu_memorytype_device;
    }
    map_as_the_driver_would();
}

void answer_slowly() {
    const long long wait = query_nanoseconds.load(std::memory_order_relaxed);
    if (wait <= 0) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(wait);
    while (std::chrono::steady_clock::now() < until) {
    }
}

}  // namespace

extern "C" {

void standin_cuda_mark_device(const void* begin, std::size_t bytes) { mark(begin, bytes, cu_memorytype_device); }

void standin_cuda_mark_pinned_host(const void* begin, std::size_t bytes) { mark(begin, bytes, cu_memorytype_host); }

unsigned long long standin_cuda_queries() { return queries.load(); }

void standin_cuda_answer_in(long long nanoseconds) { query_nanoseconds.store(nanoseconds); }

int cuCtxGetCurrent(void** context) {
    if (context == nullptr) return cuda_error_invalid_value;
    static int the_context = 0;
    const std::lock_guard lock(ranges_mutex);
    *context = device_marked ? &the_context : nullptr;
    return cuda_success;
}

// As the driver declares it, CUdeviceptr being an integer of pointer size.
int cuPointerGetAttribute(void* data, int attribute, std::uintptr_t address) {
    queries.fetch_add(1);
    answer_slowly();
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
