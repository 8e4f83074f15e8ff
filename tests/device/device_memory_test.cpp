// Device memory detection against the stand-in runtimes (standin.h). Detection looks for a
// runtime once per process, so each suite runs in a process of its own (CMakeLists.txt): with
// the stand-ins' folder on LD_LIBRARY_PATH for StandinCuda and StandinHip*, without for
// WithoutDriver.
#include "src/base/device_memory.h"
#include "tests/device/standin.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

using nbrcomb::detail::device_runtime_name;
using nbrcomb::detail::is_device_memory;

namespace {

constexpr std::size_t bytes = 4096;

// A function of the stand-in, from the same loaded copy that detection asks.
template <typename Function>
Function* standin_function(const char* library, const char* name) {
    void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    return handle == nullptr ? nullptr : reinterpret_cast<Function*>(dlsym(handle, name));
}

// Host memory in truth, which the stand-ins report as what a test marks it: device, managed or
// pinned host memory.
std::vector<char> device(bytes);
std::vector<char> managed(bytes);
std::vector<char> pinned(bytes);
std::vector<char> unmarked(bytes);

// Marks device and pinned in the stand-in libcuda.so.1; false without it.
bool mark_cuda_memory() {
    const auto mark_device =
        standin_function<decltype(standin_cuda_mark_device)>("libcuda.so.1", "standin_cuda_mark_device");
    const auto mark_pinned_host =
        standin_function<decltype(standin_cuda_mark_pinned_host)>("libcuda.so.1", "standin_cuda_mark_pinned_host");
    if (mark_device == nullptr || mark_pinned_host == nullptr) return false;
    mark_device(device.data(), bytes);
    mark_pinned_host(pinned.data(), bytes);
    return true;
}

// What a process that uses HIP has: the runtime loaded before detection looks for one.
void check_hip_numbering(int version) {
    const auto set_version =
        standin_function<decltype(standin_hip_set_version)>("libamdhip64.so.6", "standin_hip_set_version");
    const auto mark = standin_function<decltype(standin_hip_mark)>("libamdhip64.so.6", "standin_hip_mark");
    const auto get_last_error = standin_function<int()>("libamdhip64.so.6", "hipGetLastError");
    ASSERT_NE(set_version, nullptr) << "the stand-in libamdhip64.so.6 is not on LD_LIBRARY_PATH";
    ASSERT_NE(mark, nullptr);
    ASSERT_NE(get_last_error, nullptr);
    set_version(version);
    mark(device.data(), bytes, standin_hip_device);
    mark(managed.data(), bytes, standin_hip_managed);
    mark(pinned.data(), bytes, standin_hip_pinned_host);

    EXPECT_STREQ(device_runtime_name(), "HIP runtime");
    EXPECT_TRUE(is_device_memory(device.data()));
    EXPECT_TRUE(is_device_memory(managed.data() + bytes - 1));
    EXPECT_FALSE(is_device_memory(pinned.data()));
    EXPECT_FALSE(is_device_memory(unmarked.data()));
    EXPECT_EQ(get_last_error(), 0) << "detection left the program a HIP error";
    EXPECT_FALSE(is_device_memory(nullptr));
}

}  // namespace

TEST(StandinCuda, first_calls_from_several_threads_agree) {
    ASSERT_TRUE(mark_cuda_memory()) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";

    // The first of these calls loads the driver while the others may be asking already.
    std::vector<std::thread> threads;
    std::vector<char> answers(8, 0);
    for (std::size_t t = 0; t < answers.size(); ++t) {
        threads.emplace_back([&answers, t] { answers[t] = is_device_memory(device.data()) ? 1 : 0; });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(answers, std::vector<char>(answers.size(), 1));
}

TEST(StandinCuda, marked_device_range_is_device_memory_and_the_rest_host) {
    ASSERT_TRUE(mark_cuda_memory()) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";

    EXPECT_STREQ(device_runtime_name(), "CUDA driver");
    EXPECT_TRUE(is_device_memory(device.data()));
    EXPECT_TRUE(is_device_memory(device.data() + bytes - 1));
    EXPECT_FALSE(is_device_memory(device.data() + bytes));
    EXPECT_FALSE(is_device_memory(pinned.data()));
    EXPECT_FALSE(is_device_memory(unmarked.data()));
    int on_stack = 0;
    EXPECT_FALSE(is_device_memory(&on_stack));
    EXPECT_FALSE(is_device_memory(nullptr));
}

// The library's hook of the memory map is linked into this test (CMakeLists.txt), so the stand-in's
// mappings and this test's reach it as a program's would.
void map_and_unmap_a_page() {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* mapped = mmap(nullptr, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mapped, MAP_FAILED);
    munmap(mapped, page);
}

TEST(StandinCuda, a_host_answer_is_remembered_until_the_memory_map_changes) {
    ASSERT_TRUE(mark_cuda_memory()) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";
    const auto queries = standin_function<decltype(standin_cuda_queries)>("libcuda.so.1", "standin_cuda_queries");
    const auto answer_in = standin_function<decltype(standin_cuda_answer_in)>("libcuda.so.1", "standin_cuda_answer_in");
    ASSERT_NE(queries, nullptr);
    ASSERT_NE(answer_in, nullptr);
    answer_in(100000);  // 0.1 ms a question: asking on every call would show in the count and the time
    std::vector<char> host(bytes);
    EXPECT_FALSE(is_device_memory(host.data()));
    const unsigned long long asked = queries();
    for (int call = 0; call < 10000; ++call) EXPECT_FALSE(is_device_memory(host.data()));
    EXPECT_EQ(queries(), asked) << "the driver was asked again about a host buffer it had answered";
    map_and_unmap_a_page();
    EXPECT_FALSE(is_device_memory(host.data()));
    EXPECT_EQ(queries(), asked + 1) << "the memory map changed, so the driver is asked again";
    answer_in(0);
}

TEST(StandinCuda, buffers_a_few_bytes_apart_are_each_remembered) {
    ASSERT_TRUE(mark_cuda_memory()) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";
    const auto queries = standin_function<decltype(standin_cuda_queries)>("libcuda.so.1", "standin_cuda_queries");
    ASSERT_NE(queries, nullptr);
    // A call's send and receive buffers, as two small vectors are: every pair of 8-byte blocks of
    // one allocation, the way they alternate in a program's calls.
    std::vector<char> both(bytes);
    for (std::size_t a = 0; a < 256; a += 8) {
        for (std::size_t b = a + 8; b < a + 72; b += 8) {
            EXPECT_FALSE(is_device_memory(both.data() + a));
            EXPECT_FALSE(is_device_memory(both.data() + b));
            const unsigned long long asked = queries();
            for (int call = 0; call < 10; ++call) {
                EXPECT_FALSE(is_device_memory(both.data() + a));
                EXPECT_FALSE(is_device_memory(both.data() + b));
            }
            EXPECT_EQ(queries(), asked) << "blocks " << a << " and " << b << " apart evict each other";
        }
    }
}

TEST(StandinCuda, device_answers_are_asked_each_time) {
    ASSERT_TRUE(mark_cuda_memory()) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";
    const auto queries = standin_function<decltype(standin_cuda_queries)>("libcuda.so.1", "standin_cuda_queries");
    ASSERT_NE(queries, nullptr);
    const unsigned long long asked = queries();
    EXPECT_TRUE(is_device_memory(device.data()));
    EXPECT_TRUE(is_device_memory(device.data()));
    EXPECT_EQ(queries(), asked + 2);
}

TEST(StandinCuda, host_memory_that_becomes_device_memory_is_seen) {
    ASSERT_TRUE(mark_cuda_memory()) << "the stand-in libcuda.so.1 is not on LD_LIBRARY_PATH";
    const auto mark_device =
        standin_function<decltype(standin_cuda_mark_device)>("libcuda.so.1", "standin_cuda_mark_device");
    ASSERT_NE(mark_device, nullptr);
    // Kept for the life of the process: the stand-in reports it as device memory from now on.
    static std::vector<char> later(bytes);
    EXPECT_FALSE(is_device_memory(later.data()));
    mark_device(later.data(), bytes);  // maps as a driver does, which the hook sees
    EXPECT_TRUE(is_device_memory(later.data()));
}

TEST(StandinHipRocm5, types_are_read_in_rocm5_numbering) { check_hip_numbering(50700000); }

TEST(StandinHipRocm6, types_are_read_in_rocm6_numbering) { check_hip_numbering(60200000); }

TEST(WithoutDriver, every_address_is_host_memory) {
    // A real driver may be installed, but this process initializes none: host memory all the same.
    EXPECT_EQ(standin_function<void()>("libcuda.so.1", "standin_cuda_mark_device"), nullptr)
        << "the stand-in libcuda.so.1 is on LD_LIBRARY_PATH";
    EXPECT_FALSE(is_device_memory(unmarked.data()));
    int on_stack = 0;
    EXPECT_FALSE(is_device_memory(&on_stack));
    EXPECT_FALSE(is_device_memory(nullptr));
    const char* runtime = device_runtime_name();
    if (runtime != nullptr) {
        EXPECT_EQ(std::string(runtime), "CUDA driver");
    }
}
