#include "src/shims/report.h"

#include "src/base/statistics.h"
#include "src/decision/auto_tuner.h"
#include "src/communicator/topo_state.h"
#include "src/settings/environment.h"

#include <cstdio>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

namespace nbrcomb::detail {

namespace {

// Opens <prefix>.<n>.txt for the first n that does not exist yet.
std::FILE* open_new_file(const std::string& prefix, std::string& name) {
    for (int n = 0; n < 100000; ++n) {
        name = prefix + "." + std::to_string(n) + ".txt";
        if (std::FILE* file = std::fopen(name.c_str(), "wx")) return file;
    }
    return nullptr;
}

double percent(unsigned long long part, unsigned long long whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// What the report reads: the processes' statistics combined by the registry (counters summed,
// times the slowest process's), and the totals that are no field of nbrcomb_stats.
struct Totals {
    int processes = 0;
    nbrcomb_stats s{};
    unsigned long long communicators = 0;
    unsigned long long reorder_calls = 0;  // calls on communicators reorder=1 asked to reorder
};

void print_summary(std::FILE* out, const Totals& t) {
    const nbrcomb_stats& s = t.s;
    const long long saved = static_cast<long long>(s.native_messages) - static_cast<long long>(s.messages_sent);
    std::fprintf(out,
                 "nbrcomb %s report, %d processes\n"
                 "  topology communicators managed   %llu (summed over processes)\n"
                 "  neighborhood collective calls    %llu by the library, %llu left to native MPI\n"
                 "  auto mode decisions              %llu call shapes combined, %llu native (summed over processes)\n"
                 "  all messages, Phase 1 included   %llu (native MPI: %llu)\n"
                 "  messages of the library's calls  %llu (native MPI: %llu; saved %lld, %.1f%%)\n"
                 "  bytes sent                       %llu (native MPI: %llu)\n"
                 "  schedule rounds                  %llu\n"
                 "  pattern build (Phase 1)          %.6f s (slowest process), %llu messages, %llu exchanges\n"
                 "  candidate groups (hyperedges)    %llu (%.1f per process), %llu dropped by the cap\n"
                 "  schedule builds (Phase 2)        %llu, %.6f s (slowest process)\n",
                 nbrcomb_version(), t.processes, t.communicators, s.calls, s.native_calls, s.auto_combined,
                 s.auto_native, s.messages_sent + s.native_call_messages + s.pattern_messages,
                 s.native_messages + s.native_call_messages, s.messages_sent, s.native_messages, saved,
                 percent(static_cast<unsigned long long>(saved > 0 ? saved : 0), s.native_messages), s.bytes_sent,
                 s.native_bytes, s.rounds, s.pattern_seconds, s.pattern_messages, s.pattern_exchanges,
                 s.pattern_hyperedges, static_cast<double>(s.pattern_hyperedges) / t.processes,
                 s.pattern_hyperedges_dropped, s.schedules_built, s.schedule_seconds);
}

// Nothing where no communicator was asked to reorder.
void print_reordering(std::FILE* out, const Totals& t) {
    const nbrcomb_stats& s = t.s;
    if (s.reorder_tried == 0) return;
    const double per_call = t.reorder_calls == 0 ? 0.0 : 1.0 / static_cast<double>(t.reorder_calls);
    std::fprintf(out,
                 "  rank reordering (reorder=1)      %d of %d communicators reordered (summed over processes), "
                 "%.6f s (slowest process)\n"
                 "  edge weight between nodes        %llu with the old ranks, %llu with the new\n"
                 "  bytes between nodes per call     %.1f with the old ranks, %.1f with the new (average per "
                 "process; one message per edge, as native MPI)\n",
                 s.reordered, s.reorder_tried, s.reorder_seconds, s.edge_cut_before, s.edge_cut_after,
                 static_cast<double>(s.internode_bytes_before) * per_call,
                 static_cast<double>(s.internode_bytes_after) * per_call);
}

// Per call the library ran on its own messages (global collectives' are the MPI's). Nothing where
// no call ran on a communicator whose nodes the library knew.
void print_internode(std::FILE* out, const nbrcomb_stats& s) {
    const unsigned long long calls = s.calls - s.global_calls;
    if (calls == 0 || s.internode_messages + s.native_internode_messages == 0) return;
    const double per_call = 1.0 / static_cast<double>(calls);
    std::fprintf(out,
                 "  between nodes per call           %.2f messages, %.1f bytes per process "
                 "(native MPI: %.2f, %.1f)\n",
                 static_cast<double>(s.internode_messages) * per_call, static_cast<double>(s.internode_bytes) * per_call,
                 static_cast<double>(s.native_internode_messages) * per_call,
                 static_cast<double>(s.native_internode_bytes) * per_call);
}

// Auto mode's decisions by tier, then its trial calls.
void print_decision_sources(std::FILE* out, const nbrcomb_stats& s) {
    const unsigned long long by_tier[source_count] = {s.auto_forced, s.auto_rules, s.auto_trial, s.auto_estimate};
    if (std::accumulate(std::begin(by_tier), std::end(by_tier), 0ULL) == 0) return;
    std::fprintf(out, "  auto mode decided by            ");
    for (int tier = 0; tier < source_count; ++tier)
        std::fprintf(out, "%s %llu %s", tier == 0 ? "" : ",", by_tier[tier], source_name(static_cast<Source>(tier)));
    std::fprintf(out, "; %llu trial calls (summed over processes)\n", s.trial_calls);
}

// Calls run as the MPI's collective over all processes, whose messages the counts leave out.
void print_global(std::FILE* out, const nbrcomb_stats& s) {
    if (s.global_calls == 0) return;
    std::fprintf(out,
                 "  as the MPI's global collective   %llu calls (complete graphs; their messages are the MPI's and "
                 "are left out of the counts above)\n",
                 s.global_calls);
}

// Calls on device memory, left to the MPI's own collective.
void print_device(std::FILE* out, const nbrcomb_stats& s) {
    if (s.device_calls == 0) return;
    std::fprintf(out, "  on device memory, left to the MPI %llu calls\n", s.device_calls);
}

void print_report(std::FILE* out, const Totals& totals) {
    print_summary(out, totals);
    print_decision_sources(out, totals.s);
    print_global(out, totals.s);
    print_device(out, totals.s);
    print_internode(out, totals.s);
    print_reordering(out, totals);
}

// This process's totals combined over MPI_COMM_WORLD, at rank 0 (on a private duplicate, so that
// no user traffic can be touched).
int gather_totals(Totals& totals) {
    const ProcessTotals mine = process_totals();
    std::vector<unsigned long long> counters = counters_of(mine.stats);
    counters.push_back(mine.communicators);
    counters.push_back(mine.reorder_calls);
    std::vector<double> seconds = seconds_of(mine.stats);
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &totals.processes);
    MPI_Comm comm = MPI_COMM_NULL;
    if (const int err = PMPI_Comm_dup(MPI_COMM_WORLD, &comm); err != MPI_SUCCESS) return err;
    PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : counters.data(), counters.data(), static_cast<int>(counters.size()),
                MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
    PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : seconds.data(), seconds.data(), static_cast<int>(seconds.size()),
                MPI_DOUBLE, MPI_MAX, 0, comm);
    PMPI_Comm_free(&comm);
    totals.reorder_calls = counters.back();
    counters.pop_back();
    totals.communicators = counters.back();
    counters.pop_back();
    totals.s = with_values(mine.stats, counters, seconds);
    return MPI_SUCCESS;
}

}  // namespace

int write_report() {
    const Config& config = environment_config();
    if (config.report == "0") return MPI_SUCCESS;
    Totals totals;
    if (const int err = gather_totals(totals); err != MPI_SUCCESS) return err;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) return MPI_SUCCESS;

    if (config.report == "1") {
        print_report(stderr, totals);
        return MPI_SUCCESS;
    }
    std::string name;
    std::FILE* file = open_new_file(config.report, name);
    if (file == nullptr) {
        std::fprintf(stderr, "nbrcomb[0]: cannot create a report file %s.<n>.txt; writing to standard error\n",
                     config.report.c_str());
        print_report(stderr, totals);
        return MPI_SUCCESS;
    }
    print_report(file, totals);
    std::fclose(file);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
