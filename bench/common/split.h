// Splitting a comma-separated list or CSV row, as the command lines and the tools read them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::bench {

// The fields of text between separators, empty ones included: "a,,b" is {"a", "", "b"}, "" is {""}.
inline std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> fields(1);
    for (const char c : text) {
        if (c == separator)
            fields.emplace_back();
        else
            fields.back().push_back(c);
    }
    return fields;
}

}  // namespace nbrcomb::bench
