// The words every room of src/ shares: the collectives the library intercepts, the forms a call
// comes in, and the classes of block sizes by which auto mode decides.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace nbrcomb::detail {

// The collectives of src/base/neighbor_collectives.def, in its order.
#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, ...) name,
enum class Collective {
#include "src/base/neighbor_collectives.def"
};
#undef NBRCOMB_NEIGHBOR_COLLECTIVE
#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, ...) +1
inline constexpr int collective_count = 0
#include "src/base/neighbor_collectives.def"
    ;
#undef NBRCOMB_NEIGHBOR_COLLECTIVE

const char* collective_name(Collective collective);
// The collective named text, case-insensitively.
std::optional<Collective> collective_named(std::string_view text);

enum class Form { blocking, nonblocking, persistent };
inline constexpr int form_count = 3;
const char* form_name(Form form);
std::optional<Form> form_named(std::string_view text);

// Blocks are sized into classes by powers of 4: up to 16 B, 64 B, ... 64 KiB, and larger.
inline constexpr int size_classes = 8;
inline int size_class(std::size_t bytes) {
    int size_class = 0;
    for (std::size_t limit = 16; bytes > limit && size_class < size_classes - 1; limit *= 4) ++size_class;
    return size_class;
}
// The largest block of a class; SIZE_MAX for the last.
std::size_t size_class_limit(int size_class);
// A block size that stands for the class in estimates: its largest, four times the one before for the last.
std::size_t representative_block(int size_class);

}  // namespace nbrcomb::detail
