// Byte buffers for messages the executor builds and receives. Growing one leaves the new bytes
// uninitialized, since they are always overwritten at once (by a copy, a pack or a receive):
// zeroing them first would touch every byte twice.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace nbrcomb::detail {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    // Value-initialization (what resize does) becomes default-initialization.
    template <class U>
    void construct(U* place) noexcept {
        ::new (static_cast<void*>(place)) U;
    }
    template <class U, class... Args>
    void construct(U* place, Args&&... args) {
        ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
    }
};

using ByteBuffer = std::vector<std::byte, DefaultInitAllocator<std::byte>>;

}  // namespace nbrcomb::detail
