#include "src/environment.h"

#include "src/log.h"

#include <cctype>
#include <cstdlib>

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
    set_log_context(rank, config.log_level);
    for (const std::string& problem : problems) log_rank0(LogLevel::warning, "%s", problem.c_str());
    log_rank0(LogLevel::info,
              "settings: mode=%s theta=%d k=%d max_hyperedges=%d topo_aware=%s node_size=%d reorder=%s "
              "reorder_max_edges=%d lazy=%d combine_limit=%d check=%d force=%s rules=%s rules_out=%s log=%d report=%s",
              mode_name(config.mode), config.theta, config.k, config.max_hyperedges, locality_name(config.topo_aware),
              config.node_size, config.reorder == Reorder::on ? "on" : "off", config.reorder_max_edges, config.lazy,
              config.combine_limit, config.check ? 1 : 0, config.force.c_str(), config.rules.c_str(),
              config.rules_out.c_str(), config.log_level, config.report.c_str());
    return config;
}

}  // namespace

const Config& environment_config() {
    static const Config config = load();
    return config;
}

}  // namespace nbrcomb::detail
