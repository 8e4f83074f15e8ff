// The library's modes as the fuzzer draws them, each by the MPI_Info hints on the graph
// constructor that select it (those of tests/mpi/mode_cases.h, with off besides). The fuzzer
// is a client of the library's public interface only, so it keeps its own table.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nbrcomb::fuzz {

struct Mode {
    std::string name;
    std::vector<std::pair<std::string, std::string>> hints;
    // How often its cases draw the graphs it is made for (global: complete graphs; dimwise and
    // forward: stencils); every mode meets every kind of graph.
    int complete_percent = 10;
    int stencil_percent = 15;
};

inline const std::vector<Mode>& fuzz_modes() {
    static const std::vector<Mode> modes{
        {.name = "off", .hints = {{"nbrcomb_mode", "off"}}},
        {.name = "direct", .hints = {{"nbrcomb_mode", "direct"}}},
        // Θ = 1 makes any two processes with a common neighbor friends, so small jobs combine.
        {.name = "pairs", .hints = {{"nbrcomb_mode", "pairs"}, {"nbrcomb_theta", "1"}}},
        {.name = "groups", .hints = {{"nbrcomb_mode", "groups"}, {"nbrcomb_theta", "1"}, {"nbrcomb_k", "3"}}},
        {.name = "aggregate", .hints = {{"nbrcomb_mode", "aggregate"}, {"nbrcomb_node_size", "2"}}},
        {.name = "dimwise", .hints = {{"nbrcomb_mode", "dimwise"}}, .stencil_percent = 50},
        {.name = "forward", .hints = {{"nbrcomb_mode", "forward"}, {"nbrcomb_node_size", "2"}}, .stencil_percent = 50},
        {.name = "global", .hints = {{"nbrcomb_mode", "global"}}, .complete_percent = 50},
        // Auto mode with the default settings (Phase 1 in the 32nd call), with Phase 1 in the first
        // call and Θ = 1 (trials and decisions within a case's calls), and with Phase 1 at creation.
        {.name = "auto", .hints = {{"nbrcomb_mode", "auto"}}},
        {.name = "auto-lazy1", .hints = {{"nbrcomb_mode", "auto"}, {"nbrcomb_lazy", "1"}, {"nbrcomb_theta", "1"}}},
        {.name = "auto-lazy0", .hints = {{"nbrcomb_mode", "auto"}, {"nbrcomb_lazy", "0"}}},
    };
    return modes;
}

inline const Mode* find_mode(std::string_view name) {
    for (const Mode& mode : fuzz_modes())
        if (mode.name == name) return &mode;
    return nullptr;
}

}  // namespace nbrcomb::fuzz
