#include "src/settings/environment.h"

#include "src/base/log.h"

#include <cctype>
#include <cstdlib>
#include <string_view>
#include <unistd.h>

namespace nbrcomb::detail {

namespace {

Config load() {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::vector<std::string> problems;
    const Config config = read_config(
        Config{},
        [](std::string_view key) -> std::optional<std::string> {
            std::string name = "NBRCOMB_";
            for (char c : key) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            const char* value = std::getenv(name.c_str());
            return value ? std::optional<std::string>(value) : std::nullopt;
        },
        "NBRCOMB_", problems);
    std::vector<std::string> variables;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string_view variable(*entry);
        if (variable.starts_with("NBRCOMB_")) variables.emplace_back(variable.substr(0, variable.find('=')));
    }
    report_unknown_settings(variables, "NBRCOMB_", problems);
    set_log_context(rank, config.log_level);
    for (const std::string& problem : problems) log_rank0(LogLevel::warning, "%s", problem.c_str());
    log_rank0(LogLevel::info, "settings: %s", settings_line(config).c_str());
    return config;
}

}  // namespace

const Config& environment_config() {
    static const Config config = load();
    return config;
}

}  // namespace nbrcomb::detail
