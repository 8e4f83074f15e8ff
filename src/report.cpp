#include "src/report.h"

#include "src/environment.h"
#include "src/topo_state.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

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

// seconds: Phase 1 and Phase 2 time of the slowest process.
void print_summary(std::FILE* out, int processes, const unsigned long long* sums, const double* seconds) {
    const auto [communicators, calls, messages, bytes, native_messages, native_bytes, rounds, pattern_messages,
                pattern_exchanges, hyperedges, hyperedges_dropped, schedules_built, native_calls, native_call_messages,
                auto_combined, auto_native] =
        std::array{sums[0], sums[1], sums[2],  sums[3],  sums[4],  sums[5],  sums[6],  sums[7],
                   sums[8], sums[9], sums[10], sums[11], sums[12], sums[13], sums[14], sums[15]};
    const long long saved = static_cast<long long>(native_messages) - static_cast<long long>(messages);
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
                 nbrcomb_version(), processes, communicators, calls, native_calls, auto_combined, auto_native,
                 messages + native_call_messages + pattern_messages, native_messages + native_call_messages, messages,
                 native_messages, saved,
                 percent(static_cast<unsigned long long>(saved > 0 ? saved : 0), native_messages), bytes, native_bytes,
                 rounds, seconds[0], pattern_messages, pattern_exchanges, hyperedges,
                 static_cast<double>(hyperedges) / processes, hyperedges_dropped, schedules_built, seconds[1]);
}

// sums: communicators reorder=1 asked to reorder and those it did, edge weight between nodes and
// bytes native MPI sends between nodes with the old ranks and with the new, calls on those
// communicators; seconds: reordering time of the slowest process.
void print_reordering(std::FILE* out, const unsigned long long* sums, double seconds) {
    const auto [tried, reordered, cut_before, cut_after, bytes_before, bytes_after, calls] =
        std::array{sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6]};
    if (tried == 0) return;
    const double per_call = calls == 0 ? 0.0 : 1.0 / static_cast<double>(calls);
    std::fprintf(out,
                 "  rank reordering (reorder=1)      %llu of %llu communicators reordered (summed over processes), "
                 "%.6f s (slowest process)\n"
                 "  edge weight between nodes        %llu with the old ranks, %llu with the new\n"
                 "  bytes between nodes per call     %.1f with the old ranks, %.1f with the new (average per "
                 "process; one message per edge, as native MPI)\n",
                 reordered, tried, seconds, cut_before, cut_after, static_cast<double>(bytes_before) * per_call,
                 static_cast<double>(bytes_after) * per_call);
}

// sums: the library's calls, then its messages and bytes between nodes and native MPI's for the
// same calls. Nothing where no call ran on a communicator whose nodes the library knew.
void print_internode(std::FILE* out, const unsigned long long* sums) {
    const auto [calls, messages, bytes, native_messages, native_bytes] =
        std::array{sums[0], sums[1], sums[2], sums[3], sums[4]};
    if (calls == 0 || messages + native_messages == 0) return;
    const double per_call = 1.0 / static_cast<double>(calls);
    std::fprintf(out,
                 "  between nodes per call           %.2f messages, %.1f bytes per process "
                 "(native MPI: %.2f, %.1f)\n",
                 static_cast<double>(messages) * per_call, static_cast<double>(bytes) * per_call,
                 static_cast<double>(native_messages) * per_call, static_cast<double>(native_bytes) * per_call);
}

// sums: auto mode's decisions by tier (forced, rules, trial, estimate), then its trial calls.
void print_decision_sources(std::FILE* out, const unsigned long long* sums) {
    const auto [forced, learned, measured, estimated, trial_calls] = std::array{sums[0], sums[1], sums[2], sums[3], sums[4]};
    if (forced + learned + measured + estimated == 0) return;
    std::fprintf(out,
                 "  auto mode decided by             %llu setting, %llu rules, %llu trial, %llu estimate; "
                 "%llu trial calls (summed over processes)\n",
                 forced, learned, measured, estimated, trial_calls);
}

// Calls run as the MPI's collective over all processes, whose messages the counts leave out.
void print_global(std::FILE* out, unsigned long long global_calls) {
    if (global_calls == 0) return;
    std::fprintf(out,
                 "  as the MPI's global collective   %llu calls (complete graphs; their messages are the MPI's and "
                 "are left out of the counts above)\n",
                 global_calls);
}

// Calls on device memory, left to the MPI's own collective.
void print_device(std::FILE* out, unsigned long long device_calls) {
    if (device_calls == 0) return;
    std::fprintf(out, "  on device memory, left to the MPI %llu calls\n", device_calls);
}

// The whole report: the sums print_summary reads, then those of print_reordering and
// print_internode (whose calls are the library's less the global collectives), then the calls run as
// global collectives and those on device memory, then those of print_decision_sources.
void print_report(std::FILE* out, int processes, const unsigned long long* sums, const double* seconds) {
    constexpr int summary_sums = 16;
    constexpr int reordering_sums = 7;
    constexpr int internode_sums = 5;
    const unsigned long long global_calls = sums[summary_sums + reordering_sums + internode_sums];
    print_summary(out, processes, sums, seconds);
    print_decision_sources(out, sums + summary_sums + reordering_sums + internode_sums + 2);
    print_global(out, global_calls);
    print_device(out, sums[summary_sums + reordering_sums + internode_sums + 1]);
    unsigned long long internode[internode_sums];
    std::copy_n(sums + summary_sums + reordering_sums, internode_sums, internode);
    internode[0] -= global_calls;
    print_internode(out, internode);
    print_reordering(out, sums + summary_sums, seconds[2]);
}

}  // namespace

int write_report() {
    const Config& config = environment_config();
    if (config.report == "0") return MPI_SUCCESS;
    const ProcessTotals totals = process_totals();
    const nbrcomb_stats& s = totals.stats;
    unsigned long long sums[] = {totals.communicators, s.calls,  s.messages_sent,    s.bytes_sent,         s.native_messages,
                                 s.native_bytes,       s.rounds, s.pattern_messages, s.pattern_exchanges,
                                 s.pattern_hyperedges, s.pattern_hyperedges_dropped, s.schedules_built,
                                 s.native_calls, s.native_call_messages, s.auto_combined, s.auto_native,
                                 static_cast<unsigned long long>(s.reorder_tried),
                                 static_cast<unsigned long long>(s.reordered), s.edge_cut_before, s.edge_cut_after,
                                 s.internode_bytes_before, s.internode_bytes_after, totals.reorder_calls,
                                 s.calls, s.internode_messages, s.internode_bytes, s.native_internode_messages,
                                 s.native_internode_bytes, s.global_calls, s.device_calls,
                                 s.auto_forced, s.auto_learned, s.auto_measured, s.auto_estimated, s.trial_calls};
    double seconds[] = {s.pattern_seconds, s.schedule_seconds, s.reorder_seconds};
    int rank = 0, size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    // Reductions on a private duplicate so no user traffic can be touched.
    MPI_Comm comm = MPI_COMM_NULL;
    if (const int err = PMPI_Comm_dup(MPI_COMM_WORLD, &comm); err != MPI_SUCCESS) return err;
    const int count = static_cast<int>(std::size(sums));
    PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : sums, sums, count, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
    const int timings = static_cast<int>(std::size(seconds));
    PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : seconds, seconds, timings, MPI_DOUBLE, MPI_MAX, 0, comm);
    PMPI_Comm_free(&comm);
    if (rank != 0) return MPI_SUCCESS;

    if (config.report == "1") {
        print_report(stderr, size, sums, seconds);
        return MPI_SUCCESS;
    }
    std::string name;
    std::FILE* file = open_new_file(config.report, name);
    if (file == nullptr) {
        std::fprintf(stderr, "nbrcomb[0]: cannot create a report file %s.<n>.txt; writing to standard error\n",
                     config.report.c_str());
        print_report(stderr, size, sums, seconds);
        return MPI_SUCCESS;
    }
    print_report(file, size, sums, seconds);
    std::fclose(file);
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
