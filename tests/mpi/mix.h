// Deterministic pseudo-random values from small integers: every rank computes the same value
// for the same inputs, which is how both ends of an edge agree without communicating.
#pragma once

#include <concepts>
#include <cstdint>

namespace nbrcomb::test {

// splitmix64's finalizer folded over the inputs (negative inputs such as MPI_PROC_NULL wrap).
template <std::integral... T>
constexpr std::uint64_t mix(T... values) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const std::uint64_t v : {static_cast<std::uint64_t>(values)...}) {
        h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
        h ^= h >> 31;
    }
    return h;
}

}  // namespace nbrcomb::test
