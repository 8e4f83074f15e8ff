// nbrfuzz: randomized differential testing of the neighborhood collectives. Every case draws a
// distributed graph, a mode of the library, operations with random datatypes and a form, runs
// the calls through the MPI_ names (the library's, where it is linked or preloaded) and checks
// every byte of every receive buffer against point-to-point messages. See README.md.
#include "fuzz_case.h"

#include <dlfcn.h>
#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace {

using namespace nbrcomb::fuzz;

struct Options {
    std::uint64_t seed = 1;
    int first = 0;
    int cases = 100;
    const Mode* mode = nullptr;
    int early_free_percent = 25;
    std::uint64_t perturb = 0;  // the seed of the pauses; 0: none
    int timeout_seconds = 60;
    bool stop_on_failure = false;
    bool progress = false;  // every case named before it runs
    bool verbose = false;   // and every rank's blocks and datatypes
};

const char* const usage =
    "usage: nbrfuzz [--seed S] [--cases N] [--first K] [--mode NAME] [--free-early PERCENT]\n"
    "               [--perturb SEED] [--timeout SECONDS] [--stop-on-failure] [--progress] [--verbose]\n"
    "Runs cases K..K+N-1 of seed S (defaults 1, 100, 0) in one job; --mode runs every case in that\n"
    "mode, --free-early frees the types of that percentage of the nonblocking and persistent cases\n"
    "right after their calls start (25), --perturb pauses at random before starts and completions\n"
    "(its own draws: the cases stay the same), --timeout is how long one case may take before it\n"
    "counts as hung (60), --progress names every case before it runs, --verbose also every rank's\n"
    "blocks and datatypes. Modes:";

std::optional<long long> number(std::string_view text, long long min) {
    try {
        std::size_t end = 0;
        const long long value = std::stoll(std::string(text), &end, 10);
        if (end == text.size() && value >= min) return value;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

// The options, or nothing and why not in error.
std::optional<Options> parse(int argc, char** argv, std::string& error) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view option = argv[i];
        if (option == "--stop-on-failure") {
            options.stop_on_failure = true;
            continue;
        }
        if (option == "--progress") {
            options.progress = true;
            continue;
        }
        if (option == "--verbose") {
            options.progress = options.verbose = true;
            continue;
        }
        if (i + 1 == argc) {
            error = "missing value after " + std::string(option);
            return std::nullopt;
        }
        const std::string_view value = argv[++i];
        std::optional<long long> parsed;
        if (option == "--mode") {
            options.mode = find_mode(value);
            if (options.mode == nullptr) error = "no mode named " + std::string(value);
        } else if (option == "--seed" && (parsed = number(value, 0))) {
            options.seed = static_cast<std::uint64_t>(*parsed);
        } else if (option == "--cases" && (parsed = number(value, 0))) {
            options.cases = static_cast<int>(*parsed);
        } else if (option == "--free-early" && (parsed = number(value, 0)) && *parsed <= 100) {
            options.early_free_percent = static_cast<int>(*parsed);
        } else if (option == "--perturb" && (parsed = number(value, 0))) {
            options.perturb = static_cast<std::uint64_t>(*parsed);
        } else if (option == "--first" && (parsed = number(value, 0))) {
            options.first = static_cast<int>(*parsed);
        } else if (option == "--timeout" && (parsed = number(value, 1))) {
            options.timeout_seconds = static_cast<int>(*parsed);
        } else {
            error = "bad option " + std::string(option) + " " + std::string(value);
        }
        if (!error.empty()) return std::nullopt;
    }
    return options;
}

// What ran: per mode, cases and failures.
struct Tally {
    std::map<std::string, std::pair<int, int>> per_mode;
    int cases = 0, failed = 0, hung = 0;

    void count(const Mode& mode, bool failure) {
        auto& [runs, failures] = per_mode[mode.name];
        ++runs;
        ++cases;
        if (failure) {
            ++failures;
            ++failed;
        }
    }

    std::string summary() const {
        std::string text = "nbrfuzz: " + std::to_string(cases) + " cases, " + std::to_string(failed) + " failed, " +
                           std::to_string(hung) + " hung;";
        for (const Mode& mode : fuzz_modes()) {
            const auto found = per_mode.find(mode.name);
            if (found == per_mode.end()) continue;
            text += " " + mode.name + " " + std::to_string(found->second.first);
            if (found->second.second > 0) text += " (" + std::to_string(found->second.second) + " failed)";
        }
        return text;
    }
};

// The line a developer pastes to run cases first..last again, in one job as they ran; mode where
// the job ran in one.
std::string replay(const char* program, int size, const Options& options, int first, int last, const Mode* mode) {
    std::string line = "mpiexec -n " + std::to_string(size) + " " + program + " --seed " +
                       std::to_string(options.seed) + " --first " + std::to_string(first) + " --cases " +
                       std::to_string(last - first + 1);
    if (mode != nullptr) line += " --mode " + mode->name;
    if (options.early_free_percent != Options{}.early_free_percent)
        line += " --free-early " + std::to_string(options.early_free_percent);
    if (options.perturb != 0) line += " --perturb " + std::to_string(options.perturb);
    return line;
}

// What a rank says where it cannot go on: stuck in a call that never returns (a blocking
// collective, a constructor), which an alarm finds, or crashed. A signal handler may only copy
// and write what was prepared before, so every case prepares both lines; the rank lingers a
// moment after writing, so that the launcher forwards the line before it learns of the death
// and tears the job down.
struct PreparedLine {
    char text[4096];
    std::size_t length = 0;

    void prepare(const std::string& line) {
        length = std::min(line.size(), sizeof text);
        line.copy(text, length);
    }
};

PreparedLine hang_line, crash_head;

void say_last_words(const char* text, std::size_t length) {
    [[maybe_unused]] const ssize_t written = write(STDOUT_FILENO, text, length);
    const timespec linger{0, 500'000'000};
    nanosleep(&linger, nullptr);
}

constexpr std::array crash_signals{SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr std::array<const char*, crash_signals.size()> crash_signal_names{"SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL",
                                                                           "SIGABRT"};
std::array<struct sigaction, crash_signals.size()> previous_actions;

extern "C" void on_alarm(int) {
    say_last_words(hang_line.text, hang_line.length);
    _exit(124);
}

// Says which case crashed in one write (ranks crash together), then hands the signal to the
// handler before ours (the MPI's, which prints a backtrace) or to the default action.
extern "C" void on_crash(int signal) {
    for (std::size_t i = 0; i < crash_signals.size(); ++i) {
        if (crash_signals[i] != signal) continue;
        char line[sizeof crash_head.text + 16];
        std::memcpy(line, crash_head.text, crash_head.length);
        std::size_t length = crash_head.length;
        for (const char* c = crash_signal_names[i]; *c != '\0'; ++c) line[length++] = *c;
        line[length++] = ')';
        line[length++] = '\n';
        say_last_words(line, length);
        sigaction(signal, &previous_actions[i], nullptr);
    }
    raise(signal);
}

void install_handlers() {
    std::signal(SIGALRM, on_alarm);
    struct sigaction action = {};
    action.sa_handler = on_crash;
    for (std::size_t i = 0; i < crash_signals.size(); ++i) sigaction(crash_signals[i], &action, &previous_actions[i]);
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    // A call that fails must be reported, not end the run; the graph communicators inherit this.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    std::string error;
    const std::optional<Options> parsed = parse(argc, argv, error);
    if (!parsed) {
        if (rank == 0) {
            std::fprintf(stderr, "nbrfuzz: %s\n%s", error.c_str(), usage);
            for (const Mode& mode : fuzz_modes()) std::fprintf(stderr, " %s", mode.name.c_str());
            std::fprintf(stderr, "\n");
        }
        MPI_Finalize();
        return 2;
    }
    const Options& options = *parsed;
    MPI_Comm reference_comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &reference_comm);
    install_handlers();
    // The same program runs with the library linked, preloaded, or not at all (nbrfuzz_native).
    const bool library_loaded = dlsym(RTLD_DEFAULT, "nbrcomb_comm_stats_sized") != nullptr;
    if (rank == 0)
        std::printf("nbrfuzz: seed %llu, cases %d..%d on %d ranks, %s\n", static_cast<unsigned long long>(options.seed),
                    options.first, options.first + options.cases - 1, size,
                    library_loaded ? "through the library" : "on the MPI alone");

    Tally tally;
    for (int index = options.first; index < options.first + options.cases; ++index) {
        const CaseSpec spec = draw_case(options.seed, index, size,
                                        {options.mode, library_loaded, options.early_free_percent});
        const std::string repro = replay(argv[0], size, options, index, index, spec.mode);
        if (options.progress && rank == 0)
            std::printf("nbrfuzz case %d: %s, %s\n", index, spec.mode->name.c_str(), describe(spec).c_str());
        std::fflush(stdout);

        // Rank 0 speaks first where several give up; the alarm only where no rank polls.
        const auto timeout = std::chrono::seconds(options.timeout_seconds) + std::chrono::seconds(rank);
        // A case may fail only after the cases before it in the job: the replay of the job up to it.
        const std::string context =
            describe(spec) + "; its job: " + replay(argv[0], size, options, options.first, index, options.mode);
        const std::string hang_head = "nbrfuzz HANG case " + std::to_string(index) + ": " + repro + "  (" + context;
        hang_line.prepare(hang_head + "; rank " + std::to_string(rank) + " stuck in a call)\n");
        crash_head.prepare("nbrfuzz CRASH case " + std::to_string(index) + ": " + repro + "  (" + context + "; rank " +
                           std::to_string(rank) + " got ");
        alarm(static_cast<unsigned>(options.timeout_seconds + size + 2 + rank));
        Watch watch;
        watch.deadline = std::chrono::steady_clock::now() + timeout;
        watch.verbose = options.verbose;
        watch.hang = [&](const std::string& what) {
            ++tally.hung;
            tally.count(*spec.mode, false);
            const std::string words = hang_head + "; rank " + std::to_string(rank) + " still waits for " + what +
                                      ")\n" + tally.summary() + "\n";
            std::fflush(stdout);
            say_last_words(words.data(), words.size());
            MPI_Abort(MPI_COMM_WORLD, 3);
        };
        const CaseOutcome outcome = run_case(spec, reference_comm, watch, {.seed = options.perturb});
        alarm(0);

        tally.count(*spec.mode, outcome.failed);
        if (outcome.failed && rank == 0)
            std::printf("nbrfuzz FAIL case %d: %s  (%s; %s)\n", index, repro.c_str(), context.c_str(),
                        outcome.problem.c_str());
        if (outcome.failed && options.stop_on_failure) break;
    }
    if (rank == 0) std::printf("%s\n", tally.summary().c_str());

    MPI_Comm_free(&reference_comm);
    MPI_Finalize();
    return tally.failed > 0 ? 1 : 0;
}
