// Settings of the library: NBRCOMB_* environment variables, overridden per communicator by
// nbrcomb_* MPI_Info hints on the topology constructor.
#pragma once

#include "mapping/mapping_settings.h"
#include "nbrcomb/nbrcomb.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::detail {

enum class Reorder { off, on };

struct Config {
    nbrcomb_mode mode = NBRCOMB_MODE_AUTO;
    int theta = 4;  // friendship threshold: common out-neighbors needed to be friends
    int k = 2;      // friends per group in groups mode
    int max_hyperedges = 256;  // candidate groups one process keeps per Phase 1 iteration
    Locality topo_aware = Locality::agnostic;
    int node_size = 0;  // emulate nodes of this many consecutive ranks; 0 = real nodes
    // reorder=1 gives new ranks only when asked for: callers such as PETSc pass it but go on
    // using their old ranks (mapping/README.md).
    Reorder reorder = Reorder::off;
    int reorder_max_edges = 1 << 22;  // reordering gathers graphs of up to this many edges to one process
    // Auto mode: Phase 1 runs in a communicator's lazy-th neighborhood collective call, so that
    // communicators used a few times never pay for it (0: at creation).
    int lazy = 32;
    // Blocks of more bytes go as direct messages even on combined edges (0: no limit); auto mode
    // sets its own limit from its trials, never above this one.
    int combine_limit = 0;
    bool check = false;  // check every plan with a probe call (and its own invariants) after Phase 1
    // Auto mode: what runs per call shape, whatever the other tiers say (src/decision/forced_choices.h),
    // normalised; empty: nothing forced.
    std::string force;
    std::string rules;      // a rules file of decisions to take without a trial (src/decision/rules_file.h)
    std::string rules_out;  // where rank 0 writes the decisions of this run at MPI_Finalize
    int log_level = 1;
    std::string report = "0";  // 0: none, 1: standard error, otherwise a file name prefix

    bool operator==(const Config&) const = default;
};

// Where a setting may be given: the environment (NBRCOMB_KEY), or also a constructor's MPI_Info
// hint (nbrcomb_key), which wins for that communicator.
enum class SettingScope { environment, environment_and_hint };

// What the processes must agree on, and who checks it: the constructor (schedule-shaping
// settings; disagreement leaves the communicator native), reordering (disagreement keeps the
// ranks), or the rules a file holds rather than its name.
enum class SettingAgreement { none, at_creation, at_reordering, rules_in_file };

// One setting: everything about it lives in its row of settings(), from which reading, messages,
// the settings line, the agreement and the README's table all come.
struct Setting {
    std::string key;      // the hint without "nbrcomb_"; upper case after "NBRCOMB_" for the variable
    std::string type;     // integer, boolean, mode, level, rules, file or prefix
    std::string allowed;  // what a value may be, as the messages and the README say it
    SettingScope scope = SettingScope::environment_and_hint;
    SettingAgreement agreement = SettingAgreement::none;
    std::string description;  // one line
    // Sets the setting in config from text; false where text does not parse, config unchanged.
    // name: the variable or hint as the user spelled it, for settings that apply in parts (force).
    std::function<bool(std::string_view text, const std::string& name, Config& config,
                       std::vector<std::string>& problems)>
        set;
    std::function<std::string(const Config& config)> show;  // the value as the settings line gives it
};

// Every setting, in the order of the README's table.
const std::vector<Setting>& settings();

// Looks a setting up by its key without prefix ("mode", "theta", ...).
using SettingLookup = std::function<std::optional<std::string>(std::string_view key)>;

// base with every setting that lookup finds applied. A value that does not parse leaves the
// setting as it was and adds one line to problems naming key, value and what is allowed;
// source names where values come from ("NBRCOMB_" for the environment, "nbrcomb_" for hints),
// and a hint for a setting of the environment only adds a line too.
Config read_config(const Config& base, const SettingLookup& lookup, std::string_view source,
                   std::vector<std::string>& problems);

// One line of problems for each of names (with source's prefix, as found in the environment
// or a hint) that is no setting.
void report_unknown_settings(const std::vector<std::string>& names, std::string_view source,
                             std::vector<std::string>& problems);

// "mode=auto theta=4 ...": every setting's value, as NBRCOMB_LOG=1 echoes them.
std::string settings_line(const Config& config);

// The README's settings table, in Markdown.
std::string settings_table();

// Values that must agree on every process of a communicator, checked when it is created:
// they shape the schedules or decide which collective steps run at topology creation.
std::vector<int> schedule_shaping_values(const Config& config);

// What rank reordering and the topology-aware mode's domains read: reordering is asked for when
// the library is on and reorder is on.
MappingSettings mapping_settings(const Config& config);

// A digest of a text that processes compare in an agreement (a setting's, a file's).
int digest(std::string_view text);

// A mode's name as NBRCOMB_MODE takes it ("?" for no mode), and the mode of a name in any case.
const char* mode_name(nbrcomb_mode mode);
std::optional<nbrcomb_mode> mode_named(std::string_view name);
const char* locality_name(Locality locality);

}  // namespace nbrcomb::detail
