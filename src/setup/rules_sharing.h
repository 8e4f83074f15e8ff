// The rules file as the library uses it (the format: rules_file.h). The rules of
// NBRCOMB_RULES are read once per file by every process and agreed by digest when a topology is
// made; the decisions this run's trials reach are kept, and at MPI_Finalize rank 0 of
// MPI_COMM_WORLD writes them, with the rules it read, to NBRCOMB_RULES_OUT.
#pragma once

#include "src/decision/rules_file.h"
#include "src/settings/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nbrcomb::detail {

// At MPI_Init, where rules are read or written: the most processes of MPI_COMM_WORLD on one node,
// for the rules' keys (without it, the launcher's count of this node's). Collective over
// MPI_COMM_WORLD then.
void learn_machine(const Config& config);

// The key of a communicator of processes whose graph has fingerprint, its collective, form and
// class aside.
RuleKey communicator_key(const Config& config, int processes, std::uint64_t fingerprint);

// A digest of the rules of path that the processes compare at creation; 0 for no file.
int rules_digest(const std::string& path);

// The rules of path with communicator's key. Rules for its graph but another MPI or layout are
// said once, as not used.
std::vector<Rule> rules_for(const std::string& path, const RuleKey& communicator);

// A decision of this run, for the rules written at MPI_Finalize.
void remember_rule(Rule rule);

// Today, as the rules file dates its rules (UTC).
std::string today();

// At MPI_Finalize: every process's decisions to rank 0 of MPI_COMM_WORLD, which writes them, after
// the rules of config.rules that they do not replace, to config.rules_out. Collective there.
int write_rules_sharing(const Config& config);

}  // namespace nbrcomb::detail
