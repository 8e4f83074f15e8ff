// Auto mode's rules file: the decisions trials reached, written at MPI_Finalize by one process and
// read by later runs, so that a communicator whose key matches a rule takes its decision without a
// trial: Open MPI's coll/tuned rules file (coll_tuned_dynamic_file.c) and FFTW's wisdom, for
// measured decisions. Plain text, a line per rule, that a person can read, diff and edit and a site
// can ship. Pure: no MPI calls; the caller gathers the keys and decides when to read and write.
#pragma once

#include "src/decision/auto_tuner.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::detail {

// What makes a decision transferable from one run to another.
struct RuleKey {
    std::string mpi;          // MPI library and version (mpi_library_id)
    int processes = 0;        // of the communicator
    int per_node = 0;         // the most processes of it on one node
    std::uint64_t graph = 0;  // fingerprint of the graph's edges
    bool any_graph = false;   // the rule holds for every graph ("*" in the file; graph is 0)
    Collective collective = Collective::allgather;
    Form form = Form::blocking;
    int size_class = -1;      // -1: the v and w forms
    bool operator==(const RuleKey&) const = default;
};

struct Rule {
    RuleKey key;
    std::string decision;                 // "native" or an algorithm's name (not validated here)
    std::size_t cutoff = SIZE_MAX;        // largest block combined; SIZE_MAX: none
    double native_us = 0, chosen_us = 0;  // medians of the slowest process
    double p = 1;                         // one-sided rank-sum p-value of the decision
    std::string date;                     // YYYY-MM-DD
    bool operator==(const Rule&) const = default;
};

// The first line of MPI_Get_library_version's text up to its first comma, whitespace runs
// collapsed to one space and trimmed, '|' replaced by '/': "Open MPI v4.1.4", "MPICH Version: 4.0.2".
// "unknown" where that leaves nothing, so that the key still makes a line that reads back.
std::string mpi_library_id(std::string_view library_version);

// One line, no newline, fields separated by " | ":
//   mpi | processes | per_node | graph | collective | form | blocks | decision | cutoff | native_us | chosen_us | p | date
// graph as 16 hex digits or "*" for any, blocks as the size class's largest block ("16B" ... "64KiB", ">64KiB", "any" for -1),
// cutoff in bytes or "none", the times "%.2f", p "%.3g" (in the C locale whatever the process's).
// mpi and decision must hold no '|' or line break (mpi_library_id's never do).
std::string format_rule(const Rule& rule);

// The rule of a line format_rule wrote or a person edited (any spaces around '|'); nullopt with
// why, one short phrase, when any field is missing, extra or malformed, so that a line cut short
// is refused rather than half read. Never throws for bad input.
std::optional<Rule> parse_rule(std::string_view line, std::string& why);

struct RulesFile {
    std::vector<Rule> rules;
    std::vector<std::string> problems;  // "PATH:LINE: why" per skipped line; "PATH: cannot be read" if unreadable
};

// The rules of the file at path, in its order; blank lines and lines starting with '#' are
// skipped silently, malformed ones with a problem each.
RulesFile read_rules(const std::string& path);

// Writes a header comment (what the file is, the column names, how to use it: NBRCOMB_RULES=FILE)
// and a line per rule, through a temporary file in the same directory renamed over path, so that
// a reader never sees half a file. False with error set when it cannot, path then as it was.
bool write_rules(const std::string& path, const std::vector<Rule>& rules, std::string& error);

// The rule of key: the last of rules that has it, as a later line of a file overrides an earlier
// one, else the last for any graph of its other fields; nullptr if none.
const Rule* find_rule(const std::vector<Rule>& rules, const RuleKey& key);

// Rules for any graph from decisions of one run: one per key but the graph where every graph's
// decision (and cutoff) agrees, with the median of their medians and the largest p. Applications
// whose partitioner draws a new graph every run (DOLFINx), and sites that ship rules for their
// machine, need them: as Open MPI's coll/tuned rules, keyed by processes and size, not by graph.
std::vector<Rule> any_graph_rules(const std::vector<Rule>& decided);

}  // namespace nbrcomb::detail
