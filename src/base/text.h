// Small text helpers shared by the parsers of settings, NBRCOMB_FORCE and the rules file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nbrcomb::detail {

// Whether c is white space (in the C locale, whatever the process's).
bool is_space(char c);

// text in lower case (ASCII).
std::string lower(std::string_view text);

// text without leading and trailing white space.
std::string_view trim(std::string_view text);

// The value among count enumerators whose name (name_of) is text, case-insensitively.
template <class Enum, class NameOf>
std::optional<Enum> enumerator_named(std::string_view text, int count, NameOf name_of) {
    const std::string wanted = lower(text);
    for (int i = 0; i < count; ++i)
        if (wanted == name_of(static_cast<Enum>(i))) return static_cast<Enum>(i);
    return std::nullopt;
}

}  // namespace nbrcomb::detail
