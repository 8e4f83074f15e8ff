// nbrguide: paper 004's assessment of its performance guidelines over the measurements of several
// nbrbench --guidelines launches (--measurements FILE each), every setup's run medians pooled, as the
// paper's campaigns run the benchmark once per run: a process's own placement of its buffers and of
// the communicators' state then varies from run to run, where within one launch it would set
// equivalent setups apart for the whole launch. No MPI.
#include "common/command_line.h"
#include "nbrbench/guideline_report.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

constexpr const char* usage =
    "usage: nbrguide MEASUREMENTS.csv...\n"
    "  MEASUREMENTS.csv: written by nbrbench --guidelines --measurements FILE, one per launch, all of\n"
    "  the same ranks and repetitions; the runs of a setup in all files are pooled.\n"
    "Output: nbrbench --guidelines's CSV, one row per test, on standard output; paper 004's Tables 3-4\n"
    "on standard error.\n";

}  // namespace

int main(int argc, char** argv) {
    const nbrcomb::bench::CommandLine command_line("nbrguide", usage);
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "-h" || argument == "--help") command_line.help();
        paths.push_back(argument);
    }
    if (paths.empty()) command_line.fail("no measurements");
    try {
        int processes = 0, reps = 0;
        const auto setups = nbrcomb::bench::read_measurements(paths, processes, reps);
        nbrcomb::bench::print_guideline_report(setups, processes, reps);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "nbrguide: %s\n", error.what());
        return 1;
    }
    return 0;
}
