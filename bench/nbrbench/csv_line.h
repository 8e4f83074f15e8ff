// One line of nbrbench's CSV output.
#pragma once

#include <cstdio>
#include <string>

namespace nbrcomb::bench {

// Builds one line; an unknown figure is an empty field.
class CsvLine {
public:
    CsvLine& text(const std::string& value) {
        separate();
        line_ += value;
        return *this;
    }
    CsvLine& integer(long long value) { return text(std::to_string(value)); }
    CsvLine& number(double value, const char* format) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, format, value);
        return text(buffer);
    }
    CsvLine& empty() { return text(""); }
    void print() const { std::printf("%s\n", line_.c_str()); }

private:
    void separate() {
        if (started_) line_ += ',';
        started_ = true;
    }
    std::string line_;
    bool started_ = false;
};

}  // namespace nbrcomb::bench
