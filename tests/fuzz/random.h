// Deterministic draws: every rank derives the same case from (seed, case index) on every
// platform. The standard distributions (std::uniform_int_distribution, std::shuffle) may draw
// differently from one standard library to the next, so the draws are written here on top of
// std::mt19937_64, whose output the standard fixes.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

namespace nbrcomb::fuzz {

// SplitMix64's finalizer: turns related keys (case 1, case 2, ...) into unrelated seeds.
inline std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// One seed from a list of keys, in order.
inline std::uint64_t mix(std::initializer_list<std::uint64_t> keys) {
    std::uint64_t seed = 0x6e6272636f6d62ULL;
    for (const std::uint64_t key : keys) seed = mix(seed ^ key);
    return seed;
}

class Random {
public:
    explicit Random(std::uint64_t seed) : engine_(seed) {}
    Random(std::initializer_list<std::uint64_t> keys) : engine_(mix(keys)) {}

    std::uint64_t bits() { return engine_(); }

    // Uniform in [0, n) for n >= 1; the modulo bias is below 2^-50 for the small n drawn here.
    int below(int n) { return static_cast<int>(bits() % static_cast<std::uint64_t>(n)); }

    // Uniform in [low, high].
    int between(int low, int high) { return low + below(high - low + 1); }

    // True with probability numerator / denominator.
    bool chance(int numerator, int denominator) { return below(denominator) < numerator; }

    template <class T>
    const T& pick(const std::vector<T>& items) {
        return items[static_cast<std::size_t>(below(static_cast<int>(items.size())))];
    }

    // Fisher–Yates.
    template <class T>
    void shuffle(std::vector<T>& items) {
        for (std::size_t i = items.size(); i > 1; --i)
            std::ranges::swap(items[i - 1], items[static_cast<std::size_t>(below(static_cast<int>(i)))]);
    }

private:
    std::mt19937_64 engine_;
};

}  // namespace nbrcomb::fuzz
