#include "options.h"

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace halo_job {
namespace {

int parse_count(std::string_view flag, std::string_view text, int minimum) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < minimum)
        throw std::invalid_argument(std::string(flag) + " needs an integer >= " + std::to_string(minimum) +
                                    ", got '" + std::string(text) + "'");
    return value;
}

Kernel parse_kernel(std::string_view text) {
    if (text == "spmv") return Kernel::spmv;
    if (text == "stencil") return Kernel::stencil;
    throw std::invalid_argument("--kernel is spmv or stencil, got '" + std::string(text) + "'");
}

} // namespace

Options parse_options(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "-h" || flag == "--help") {
            options.help = true;
            continue;
        }
        if (i + 1 == argc) throw std::invalid_argument("unknown flag or missing value: " + std::string(flag));
        const std::string_view value = argv[++i];
        if (flag == "--kernel")
            options.kernel = parse_kernel(value);
        else if (flag == "--matrix")
            options.matrix = value;
        else if (flag == "--iterations")
            options.iterations = parse_count(flag, value, 1);
        else if (flag == "--runs")
            options.runs = parse_count(flag, value, 1);
        else if (flag == "--warmup")
            options.warmup = parse_count(flag, value, 0);
        else if (flag == "--block")
            options.block = parse_count(flag, value, 1);
        else if (flag == "--reorder")
            options.reorder = parse_count(flag, value, 0) != 0;
        else
            throw std::invalid_argument("unknown flag: " + std::string(flag));
    }
    if (options.iterations < options.runs)
        throw std::invalid_argument("--iterations " + std::to_string(options.iterations) + " leaves a run of --runs " +
                                    std::to_string(options.runs) + " without a call");
    return options;
}

std::string usage(const char* program) {
    return std::string("usage: ") + program +
           " [--kernel spmv|stencil] [--matrix FILE|NAME] [--iterations N] [--runs R] [--warmup N]\n"
           "       [--block B] [--reorder 0|1]\n"
           "  One launch runs the job twice over the same graph: on a topology made through\n"
           "  MPI_Dist_graph_create_adjacent, which a preloaded libnbrcomb manages (the library side), and\n"
           "  on one made through PMPI_Dist_graph_create_adjacent, which it never sees (the native side).\n"
           "  The sides alternate run by run; their results must agree bit for bit (exit status 1 if\n"
           "  not). verdict= says faster, slower or tie: a one-sided rank-sum test of the library side's\n"
           "  run medians against native's, significant at p <= 0.001 and 3 % apart (bench/stats/).\n"
           "  spmv     power iteration y = A x on a row-block distributed Matrix Market matrix,\n"
           "           ghost values exchanged with MPI_Neighbor_alltoallv (default)\n"
           "  stencil  9-point diffusion on a 2D periodic process grid, B x B cells per process,\n"
           "           boundaries exchanged with MPI_Neighbor_allgather over the Moore neighborhood\n"
           "  --matrix      a .mtx file, or a name in " NBRCOMB_MATRICES_DIR " (default can_1054)\n"
           "  --iterations  timed calls of each side (default 200), in --runs runs (default 10);\n"
           "                --warmup untimed calls of each side before them (default 20)\n"
           "  --block       stencil block edge (default 16)\n"
           "  --reorder     1: create the topology with reorder=1 and take the part of the problem of\n"
           "                the new rank, on both sides (native MPI keeps the ranks; libnbrcomb renumbers\n"
           "                them with NBRCOMB_REORDER=on); the checksum is the same either way (default 0)\n";
}

} // namespace halo_job
