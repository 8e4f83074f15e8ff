#include "nbrbench/csv_report.h"

#include "nbrbench/csv_line.h"
#include "stats/run_statistics.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace nbrcomb::bench {

namespace {

void print_header() {
    CsvLine header;
    for (const char* name :
         {"topology", "ranks", "out_degree", "collective", "form", "bytes", "variant", "k", "aware", "reorder",
          "node_size", "library_mode", "intercepted", "runs", "reps", "median_us", "run_median_min_us",
          "run_median_max_us", "ratio_to_native", "p_slower", "slower_than_native", "p_faster", "messages_per_call",
          "bytes_per_call", "message_ratio", "create_seconds", "reordered", "edge_cut_before", "edge_cut_after",
          "reorder_seconds", "internode_bytes_before", "internode_bytes_after", "internode_messages_per_call",
          "internode_bytes_per_call", "native_internode_messages_per_call", "native_internode_bytes_per_call"})
        header.text(name);
    for (const LibraryColumn& column : library_columns) header.text(column.name);
    header.text("valid").print();
}

}  // namespace

std::string csv_columns_help() {
    std::string help =
    "Columns: topology as given; ranks; out_degree, the average over ranks; collective; form;\n"
    "bytes per neighbor; variant; k of groups; aware (1 for the :aware variants); reorder (1 for the\n"
    ":reorder variants, made with reorder=1 and the library's reordering on); node_size, the ranks\n"
    "per emulated node of the variants that run on them: all library variants but auto, which does\n"
    "only with :aware or :reorder (--node-size; 0: the real nodes); library_mode, the\n"
    "mode the library runs the communicator with (off: native MPI; auto: chosen per call shape);\n"
    "intercepted, the share of the experiment's calls the library ran with its own schedules rather\n"
    "than leave to native MPI, averaged over ranks; runs; reps; median_us,\n"
    "the median over the runs of each run's median repetition; the smallest and largest run median;\n"
    "ratio_to_native = median_us / native median_us; p_slower, the one-sided rank-sum p-value of\n"
    "the run medians against native; slower_than_native, 1 for p <= 0.001 and ratio >= 1.03;\n"
    "p_faster, the same test the other way (the variant's run medians lower than native's);\n"
    "messages_per_call and bytes_per_call, per timed call and rank (averaged over ranks), from the\n"
    "library's counters, or native MPI's one message per out-edge; message_ratio = messages_per_call /\n"
    "out_degree; create_seconds, the constructor on the slowest rank; for the :reorder variants\n"
    "(empty for the others): reordered, 1 if the library gave new ranks (0: no mapping cut fewer\n"
    "edges between the emulated nodes of --node-size ranks); edge_cut_before and edge_cut_after, the\n"
    "edges between nodes with the old and the new ranks; reorder_seconds, the reordering's part of\n"
    "create_seconds on the slowest rank; internode_bytes_before and internode_bytes_after, the bytes\n"
    "native MPI sends between nodes per call and rank, averaged over ranks, with the old and the new\n"
    "ranks; where the library ran the calls and knows the nodes (real, or of --node-size ranks for\n"
    "the variants that use nodes), per call and rank, averaged over ranks:\n"
    "internode_messages_per_call and internode_bytes_per_call, what it sent between nodes, and\n"
    "native_internode_messages_per_call and native_internode_bytes_per_call, what native MPI sends\n"
    "between nodes for the same calls; then the library's figures, on the slowest rank, median\n"
    "over runs:\n";
    for (const LibraryColumn& column : library_columns)
        help += std::string("  ") + column.name + ": " + column.meaning + "\n";
    return help + "and valid: 1 if the data received match what the MPI standard prescribes, 0 if not,\n"
                  "empty where not checked (Cartesian topologies).\n";
}

void print_csv(const Options& options, const std::vector<TopologyCommunicators>& communicators,
               const std::vector<Experiment>& experiments, const std::vector<ExperimentRecord>& records,
               int processes) {
    print_header();
    for (std::size_t e = 0; e < experiments.size(); ++e) {
        const Experiment& experiment = experiments[e];
        const ExperimentRecord& record = records[e];
        const Variant& variant = options.variants[experiment.variant];
        const TopologyCommunicators& topology = communicators[experiment.topology];
        const VariantCommunicator& communicator = topology.variants[experiment.variant];
        const auto [min_run, max_run] = std::ranges::minmax(record.run_medians);

        CsvLine line;
        line.text(options.topologies[experiment.topology].name).integer(processes).number(topology.out_degree, "%.4g");
        line.text(collective_name(experiment.collective)).text(form_name(experiment.form)).integer(experiment.bytes);
        line.text(variant.name);
        if (variant.k > 0)
            line.integer(variant.k);
        else
            line.empty();
        line.integer(variant.aware ? 1 : 0).integer(variant.reorder ? 1 : 0);
        if (variant.uses_nodes())
            line.integer(options.library.node_size);
        else
            line.empty();
        line.text(communicator.library_mode);
        line.number(record.intercepted, "%.3g");
        line.integer(options.runs).integer(options.repetitions);
        line.number(median(record.run_medians) * 1e6, "%.3f").number(min_run * 1e6, "%.3f");
        line.number(max_run * 1e6, "%.3f");
        if (experiment.native == e) {
            line.number(1.0, "%.4f").empty().integer(0).empty();
        } else {
            const Comparison comparison = compare_runs(record.run_medians, records[experiment.native].run_medians);
            line.number(comparison.ratio, "%.4f").number(comparison.p_slower, "%.3g");
            line.integer(comparison.slower ? 1 : 0);
            line.number(rank_sum_p_greater(records[experiment.native].run_medians, record.run_medians), "%.3g");
        }
        line.number(record.messages_per_call, "%.4g").number(record.bytes_per_call, "%.6g");
        if (topology.out_degree > 0)
            line.number(record.messages_per_call / topology.out_degree, "%.4f");
        else
            line.empty();
        line.number(communicator.create_seconds, "%.6g");
        if (const auto& reordering = communicator.reordering) {
            line.integer(reordering->reordered ? 1 : 0).number(reordering->edge_cut_before, "%.0f");
            line.number(reordering->edge_cut_after, "%.0f").number(reordering->seconds, "%.6g");
        } else {
            line.empty().empty().empty().empty();
        }
        for (const auto& figure : {record.internode_bytes_before, record.internode_bytes_after,
                                   record.internode_messages, record.internode_bytes, record.native_internode_messages,
                                   record.native_internode_bytes}) {
            if (figure)
                line.number(*figure, "%.6g");
            else
                line.empty();
        }
        for (const auto& values : record.library_values) {
            if (values.empty())
                line.empty();
            else
                line.number(median(values), "%.6g");
        }
        if (record.valid)
            line.integer(*record.valid ? 1 : 0);
        else
            line.empty();
        line.print();
    }
    std::fflush(stdout);
}

}  // namespace nbrcomb::bench
