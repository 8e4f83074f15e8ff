#include "src/base/vocabulary.h"

#include "src/base/text.h"

#include <cstdint>

namespace nbrcomb::detail {

const char* collective_name(Collective collective) {
#define NBRCOMB_NEIGHBOR_COLLECTIVE(name, ...) #name,
    static constexpr const char* names[] = {
#include "src/base/neighbor_collectives.def"
    };
#undef NBRCOMB_NEIGHBOR_COLLECTIVE
    return names[static_cast<int>(collective)];
}

const char* form_name(Form form) {
    switch (form) {
    case Form::blocking: return "blocking";
    case Form::nonblocking: return "nonblocking";
    case Form::persistent: return "persistent";
    }
    return "?";
}

std::optional<Collective> collective_named(std::string_view text) {
    return enumerator_named<Collective>(text, collective_count, collective_name);
}

std::optional<Form> form_named(std::string_view text) { return enumerator_named<Form>(text, form_count, form_name); }

std::size_t size_class_limit(int size_class) {
    if (size_class >= size_classes - 1) return SIZE_MAX;
    return std::size_t{16} << (2 * size_class);
}

std::size_t representative_block(int size_class) {
    return size_class >= size_classes - 1 ? 4 * size_class_limit(size_classes - 2) : size_class_limit(size_class);
}

}  // namespace nbrcomb::detail
