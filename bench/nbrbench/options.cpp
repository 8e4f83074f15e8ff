#include "nbrbench/options.h"

#include "common/split.h"

#include <charconv>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace nbrcomb::bench {

namespace {

// What to measure when the command line does not say: the sweep of the papers' experiments that
// fits the machine, or a small one that ends within a minute at 4 ranks.
struct Preset {
    std::vector<std::string> topologies, collectives, forms, variants;
    std::vector<int> bytes;
    int runs, repetitions, warmup;
    std::vector<std::string> neighborhoods{};  // the guideline campaign's
    std::vector<int> dims{};
    int settle = 0;
};

const Preset full_sweep{
    {"moore:2:1", "moore:2:2", "moore:3:1", "moore:4:1", "vonneumann:2:1", "cart:2", "er:0.05", "er:0.2", "er:0.4",
     "er:0.8", "matrix:can_1054"},
    {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"},
    {"blocking", "nonblocking", "persistent"},
    {"native", "auto", "direct", "pairs", "groups:2", "groups:4", "groups:8", "groups:2:aware", "groups:4:aware"},
    {4, 16, 64, 256, 1024, 4096, 16384, 65536},
    10,
    50,
    2};

const Preset quick_sweep{{"moore:2:1", "er:0.8", "cart:2", "matrix:dwt_162"},
                         {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"},
                         {"blocking", "nonblocking", "persistent"},
                         {"native", "auto", "direct", "pairs", "groups:2", "groups:2:aware"},
                         {4, 1024, 65536},
                         8,
                         10,
                         1};

// Paper 004's campaigns (§4) on the processes of one machine: blocking calls of every collective
// over four decades of message size, the stencils in 2 and 3 dimensions; 20 runs, since on a
// machine of few cores a run's latency falls into one of two modes at random (which processes
// share a core), and a few runs could set apart setups that do not differ. The quick one for a test.
// Both settle until the library's auto mode has decided every call shape, so that no timed call is
// one of its trial: a shape's trial takes 34 calls and its decision waits for the next checkpoint
// of its collective (35, 70, 140, 280 ... calls of it). The full campaign calls each shape 12 times
// a run and each collective 48 times: trials end in run 3, decisions at call 280, in run 6. The
// quick one, 6 and 12 times: trials end in run 6, decisions at call 140, in run 12.
const Preset full_guidelines{{},
                             {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"},
                             {"blocking"},
                             {},
                             {4, 64, 1024, 16384},
                             20,
                             10,
                             2,
                             {"vonneumann", "moore", "full"},
                             {2, 3},
                             6};

const Preset quick_guidelines{{},
                              {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"},
                              {"blocking"},
                              {},
                              {4, 4096},
                              8,
                              5,
                              1,
                              {"vonneumann", "moore", "full"},
                              {2},
                              12};

template <class T>
T parse_number(std::string_view flag, std::string_view text, T minimum, T maximum) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < minimum || value > maximum)
        throw std::invalid_argument(std::string(flag) + " needs an integer from " + std::to_string(minimum) + " to " +
                                    std::to_string(maximum) + ", got '" + std::string(text) + "'");
    return value;
}

// The command line's choices, as written; what it leaves out is empty.
struct Requested {
    std::vector<std::string> topologies, collectives, forms, variants, bytes, neighborhoods, dims;
    std::optional<int> runs, repetitions, warmup, settle, theta, node_size;
};

void append(std::vector<std::string>& list, std::string_view value) {
    for (std::string& item : split(value, ',')) list.push_back(std::move(item));
}

// The guideline campaign's own lists; what only the sweep takes is refused.
void fill_guidelines(Options& options, const Requested& requested, const Preset& preset) {
    if (!requested.topologies.empty() || !requested.variants.empty() || requested.theta || requested.node_size)
        throw std::invalid_argument(
            "--guidelines makes its own topologies (--neighborhood, --dims) and runs the library as the environment "
            "sets it: --topology, --variant, --theta and --node-size are the sweep's");
    for (const auto& text : requested.neighborhoods.empty() ? preset.neighborhoods : requested.neighborhoods) {
        if (text != "vonneumann" && text != "moore" && text != "full")
            throw std::invalid_argument("neighborhood '" + text + "' is none of vonneumann, moore, full");
        options.neighborhoods.push_back(text);
    }
    if (requested.dims.empty()) options.dims = preset.dims;
    for (const auto& text : requested.dims) options.dims.push_back(parse_number("--dims", text, 1, 8));
}

void fill(Options& options, const Requested& requested, const Preset& preset) {
    if (options.guidelines)
        fill_guidelines(options, requested, preset);
    else if (!requested.neighborhoods.empty() || !requested.dims.empty() || !options.measurements.empty())
        throw std::invalid_argument("--neighborhood, --dims and --measurements belong to --guidelines");
    for (const auto& text : requested.topologies.empty() ? preset.topologies : requested.topologies)
        options.topologies.push_back(parse_bench_topology(text));

    for (const auto& text : requested.collectives.empty() ? preset.collectives : requested.collectives) {
        const auto collective = parse_collective(text);
        if (!collective)
            throw std::invalid_argument("collective '" + text +
                                        "' is none of allgather, allgatherv, alltoall, alltoallv, alltoallw");
        options.collectives.push_back(*collective);
    }

    for (const auto& text : requested.forms.empty() ? preset.forms : requested.forms) {
        const auto form = parse_form(text);
        // The presets ask for persistent calls wherever the MPI library has them.
        if (!form && text == "persistent" && requested.forms.empty()) continue;
        if (!form)
            throw std::invalid_argument("form '" + text + "' is none of blocking, nonblocking" +
                                        (persistent_available ? ", persistent" : " (persistent needs MPI 4)"));
        options.forms.push_back(*form);
    }

    // Native first: every other variant is compared with it. The guideline campaign runs native
    // MPI and the library as the environment sets it.
    options.variants.push_back(parse_variant("native"));
    for (const auto& text : requested.variants.empty() ? preset.variants : requested.variants) {
        Variant variant = parse_variant(text);
        if (!variant.is_native()) options.variants.push_back(std::move(variant));
    }

    if (requested.bytes.empty()) options.bytes = preset.bytes;
    for (const auto& text : requested.bytes) options.bytes.push_back(parse_number("--bytes", text, 1, 1 << 26));

    options.library.theta = requested.theta.value_or(options.library.theta);
    options.library.node_size = requested.node_size.value_or(options.library.node_size);
    options.runs = requested.runs.value_or(preset.runs);
    options.repetitions = requested.repetitions.value_or(preset.repetitions);
    options.warmup = requested.warmup.value_or(preset.warmup);
    options.settle = requested.settle.value_or(preset.settle);
}

}  // namespace

Options parse_options(int argc, char** argv) {
    Options options;
    Requested requested;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "-h" || flag == "--help") {
            options.help = true;
            continue;
        }
        if (flag == "--quick") {
            quick = true;
            continue;
        }
        if (flag == "--guidelines") {
            options.guidelines = true;
            continue;
        }
        if (i + 1 == argc) throw std::invalid_argument("unknown flag or missing value: " + std::string(flag));
        const std::string_view value = argv[++i];
        if (flag == "--topology")
            append(requested.topologies, value);
        else if (flag == "--collective")
            append(requested.collectives, value);
        else if (flag == "--form")
            append(requested.forms, value);
        else if (flag == "--variant")
            append(requested.variants, value);
        else if (flag == "--bytes")
            append(requested.bytes, value);
        else if (flag == "--neighborhood")
            append(requested.neighborhoods, value);
        else if (flag == "--dims")
            append(requested.dims, value);
        else if (flag == "--measurements")
            options.measurements = value;
        else if (flag == "--runs")
            requested.runs = parse_number(flag, value, 1, 100000);
        else if (flag == "--reps")
            requested.repetitions = parse_number(flag, value, 1, 1000000);
        else if (flag == "--warmup")
            requested.warmup = parse_number(flag, value, 0, 1000000);
        else if (flag == "--settle")
            requested.settle = parse_number(flag, value, 0, 1000);
        else if (flag == "--theta")
            requested.theta = parse_number(flag, value, 1, 1 << 30);
        else if (flag == "--node-size")
            requested.node_size = parse_number(flag, value, 0, 1 << 30);
        else if (flag == "--seed")
            options.seed = parse_number(flag, value, std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max());
        else
            throw std::invalid_argument("unknown flag: " + std::string(flag));
    }
    if (!options.help)
        fill(options, requested,
             options.guidelines ? (quick ? quick_guidelines : full_guidelines) : (quick ? quick_sweep : full_sweep));
    return options;
}

std::string usage() {
    return std::string(
               "usage: nbrbench [--quick] [--topology SPEC,...] [--collective NAME,...] [--form NAME,...]\n"
               "                [--bytes N,...] [--variant NAME,...] [--runs N] [--reps N] [--warmup N]\n"
               "                [--settle N] [--theta T] [--node-size N] [--seed S]\n"
               "       nbrbench --guidelines [--quick] [--neighborhood NAME,...] [--dims D,...]\n"
               "                [--collective NAME,...] [--form NAME,...] [--bytes N,...] [--runs N] [--reps N]\n"
               "                [--warmup N] [--settle N] [--seed S] [--measurements FILE]\n"
               "Measures MPI neighborhood collectives natively and as libnbrcomb runs them (load it with\n"
               "LD_PRELOAD or link it; without it only native rows are printed). Per repetition the slowest\n"
               "rank counts, a dissemination barrier comes before each one, every run takes all experiments\n"
               "in a new random order, outliers are dropped (Tukey's fences), and the median of the run\n"
               "medians is compared with native MPI's by a Wilcoxon rank-sum test. List flags repeat or take\n"
               "comma-separated values; what is not given comes from the full sweep (or the quick one).\n"
               "  --quick        small sweep, under a minute at 4 ranks: moore:2:1 er:0.8 cart:2\n"
               "                 matrix:dwt_162; all collectives and forms; 4 1024 65536 bytes;\n"
               "                 auto direct pairs groups:2 groups:2:aware; 8 runs of 10 repetitions\n"
               "  --topology     moore:D:R | vonneumann:D:R (periodic grid) | cart:D (MPI_Cart_create,\n"
               "                 native only) | er:DENSITY[:SEED] | complete | matrix:FILE (a Matrix Market file, or a\n"
               "                 name in " NBRCOMB_MATRICES_DIR ") | mesh:CELLS[:SEED] (a METIS-\n"
               "                 partitioned 3-D mesh's ghost exchange; v and w forms carry its counts) |\n"
               "                 amg:CELLS:LEVEL[:SEED] (a coarse level of its multigrid hierarchy); any of\n"
               "                 them but cart:D, mesh and amg with a prefix shuffled: (its ranks in a random order)\n"
               "                 (full: moore:2:1 moore:2:2 moore:3:1 moore:4:1 vonneumann:2:1 cart:2\n"
               "                 er:0.05 er:0.2 er:0.4 er:0.8 matrix:can_1054)\n"
               "  --collective   allgather allgatherv alltoall alltoallv alltoallw (full: all)\n"
               "  --form         blocking nonblocking") +
           (persistent_available ? " persistent" : "") +
           " (full: all" + (persistent_available ? "" : "; persistent needs an MPI-4 library") +
           ")\n"
           "  --bytes        per neighbor and call (full: 4 16 64 256 1024 4096 16384 65536)\n"
           "  --variant      native (always measured) | auto (the library's default) | direct | pairs |\n"
           "                 groups:K | aggregate (paper 003's node aggregation over nodes of\n"
           "                 --node-size ranks) | dimwise | forward | global, and auto, pairs and\n"
           "                 groups:K topology-aware with a\n"
           "                 suffix :aware (full:\n"
           "                 auto direct pairs groups:2 groups:4 groups:8 groups:2:aware\n"
           "                 groups:4:aware); then any but native\n"
           "                 with a suffix :reorder: made with reorder=1 and the library's reordering\n"
           "                 on, over emulated nodes of --node-size ranks\n"
           "  --runs         passes over all experiments (full: 10; p <= 0.001 needs 8 or more)\n"
           "  --reps         timed calls per experiment and run (full: 50)\n"
           "  --warmup       untimed calls before them (full: 2)\n"
           "  --settle       untimed runs before the timed ones (full: 0; --guidelines: 6, quick 12,\n"
           "                 until auto mode has decided)\n"
           "  --theta        friendship threshold of the library variants (default 4)\n"
           "  --node-size    ranks per emulated node of the library variants but auto (auto:\n"
           "                 only with :aware or :reorder); 0: the real nodes (default 2)\n"
           "  --seed         of the random experiment order (default 1)\n"
           "  --guidelines   paper 004's performance guidelines GL1-GL12 instead of the sweep, natively and\n"
           "                 with the library as the environment sets it (bench/nbrbench/README.md):\n"
           "  --neighborhood vonneumann (with its MPI_Cart_create twin) moore full (default: all)\n"
           "  --dims         of the stencils' periodic grids (default 2,3; quick: 2)\n"
           "                 defaults: blocking, 4 64 1024 16384 bytes, 20 runs of 10 repetitions;\n"
           "                 quick: 4 4096 bytes, 8 runs of 5\n"
           "  --measurements FILE: also the setups' run medians, for nbrguide to pool the runs of\n"
           "                 several launches\n"
           "Output: CSV on standard output, one row per topology, collective, form, bytes and variant, or\n"
           "with --guidelines one per test of a guideline; progress on standard error. Exit status 1 if a\n"
           "library variant received wrong data.\n";
}

}  // namespace nbrcomb::bench
