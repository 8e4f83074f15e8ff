#include "src/setup/rules_sharing.h"

#include "src/base/log.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <set>

namespace nbrcomb::detail {

namespace {

struct Machine {
    std::string mpi;
    int per_node = 0;  // 0: not learned (MPI_Init was not the library's)
};

// The launcher's count of this node's processes, where MPI_Init was not the library's (Fortran's
// MPI_INIT calls into Open MPI directly): Open MPI's and MPICH's Hydra's variables, else 1.
int per_node_from_launcher() {
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
        if (const char* value = std::getenv(name)) return std::max(1, std::atoi(value));
    return 1;
}

Machine& machine() {
    static Machine instance = [] {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int length = 0;
        PMPI_Get_library_version(version, &length);
        return Machine{mpi_library_id(std::string_view(version, static_cast<std::size_t>(length)))};
    }();
    return instance;
}

// A rules file as read, and the digest of its rules that the processes compare.
struct ReadRules {
    std::vector<Rule> rules;
    int digest = 0;
};

// The rules files read, by path, and the decisions of this run.
struct Store {
    std::mutex mutex;
    std::map<std::string, ReadRules> files;
    std::set<std::string> mismatches_said;  // files whose rules for another MPI or layout were said
    std::vector<Rule> decided;
};

Store& store() {
    static Store instance;
    return instance;
}

std::string joined(const std::vector<Rule>& rules) {
    std::string text;
    for (const Rule& rule : rules) text += format_rule(rule) + "\n";
    return text;
}

// The rules of path, read on first use; the lines left out said then, once, on rank 0.
const ReadRules& read_once(const std::string& path) {
    Store& rules = store();
    std::lock_guard lock(rules.mutex);
    const auto found = rules.files.find(path);
    if (found != rules.files.end()) return found->second;
    RulesFile file = read_rules(path);
    for (const std::string& problem : file.problems) log_rank0(LogLevel::warning, "rules file %s; left out", problem.c_str());
    const int text_digest = digest(joined(file.rules));
    return rules.files.emplace(path, ReadRules{std::move(file.rules), text_digest}).first->second;
}

const std::vector<Rule>& rules_of(const std::string& path) { return read_once(path).rules; }

// Whether a rule is of the communicator's MPI and layout.
bool same_communicator(const RuleKey& a, const RuleKey& b) {
    return a.mpi == b.mpi && a.processes == b.processes && a.per_node == b.per_node;
}

}  // namespace

void learn_machine(const Config& config) {
    if (config.rules.empty() && config.rules_out.empty()) return;
    MPI_Comm node = MPI_COMM_NULL;
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return;
    int per_node = 0;
    PMPI_Comm_size(node, &per_node);
    PMPI_Comm_free(&node);
    PMPI_Allreduce(MPI_IN_PLACE, &per_node, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    machine().per_node = per_node;
}

RuleKey communicator_key(const Config& config, int processes, std::uint64_t fingerprint) {
    return {.mpi = machine().mpi,
            .processes = processes,
            .per_node = config.node_size > 0 ? config.node_size
                        : machine().per_node > 0 ? machine().per_node
                                                 : per_node_from_launcher(),
            .graph = fingerprint};
}

int rules_digest(const std::string& path) { return path.empty() ? 0 : read_once(path).digest; }

std::vector<Rule> rules_for(const std::string& path, const RuleKey& communicator) {
    if (path.empty()) return {};
    std::vector<Rule> matching;
    std::size_t elsewhere = 0;
    for (const Rule& rule : rules_of(path)) {
        const bool graph = rule.key.any_graph || rule.key.graph == communicator.graph;
        if (graph && same_communicator(rule.key, communicator)) {
            matching.push_back(rule);
        } else if (graph && rule.key.processes == communicator.processes) {
            ++elsewhere;
        }
    }
    const auto first_time = [&] {
        std::lock_guard lock(store().mutex);
        return store().mismatches_said.insert(path).second;
    };
    if (elsewhere > 0 && first_time())
        log_rank0(LogLevel::warning,
                  "rules file %s: %zu rules for a graph of this size are of another MPI or processes per node "
                  "(here %s, %d); not used",
                  path.c_str(), elsewhere, communicator.mpi.c_str(), communicator.per_node);
    return matching;
}

void remember_rule(Rule rule) {
    Store& rules = store();
    std::lock_guard lock(rules.mutex);
    rules.decided.push_back(std::move(rule));
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", &utc);
    return date;
}

int write_rules_sharing(const Config& config) {
    if (config.rules_out.empty()) return MPI_SUCCESS;
    std::string mine;
    {
        Store& rules = store();
        std::lock_guard lock(rules.mutex);
        mine = joined(rules.decided);
    }
    MPI_Comm comm = MPI_COMM_NULL;  // private: no user message can match
    if (const int err = PMPI_Comm_dup(MPI_COMM_WORLD, &comm); err != MPI_SUCCESS) return err;
    int rank = 0, size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0), offsets(lengths.size());
    PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
    std::string all;
    if (rank == 0) {
        for (int r = 0, offset = 0; r < size; offset += lengths[static_cast<std::size_t>(r)], ++r)
            offsets[static_cast<std::size_t>(r)] = offset;
        all.resize(static_cast<std::size_t>(offsets.back() + lengths.back()));
    }
    PMPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
    PMPI_Comm_free(&comm);
    if (rank != 0) return MPI_SUCCESS;

    // The rules read first, then this run's and those for any graph they make: a later rule of a
    // key replaces an earlier one.
    std::vector<Rule> decided;
    for (std::size_t begin = 0, end; begin < all.size(); begin = end + 1) {
        end = all.find('\n', begin);
        std::string why;
        if (const auto rule = parse_rule(std::string_view(all).substr(begin, end - begin), why)) decided.push_back(*rule);
    }
    std::vector<Rule> rules = config.rules.empty() ? std::vector<Rule>{} : rules_of(config.rules);
    for (const std::vector<Rule>& newer : {decided, any_graph_rules(decided)})
        for (const Rule& rule : newer) {
            std::erase_if(rules, [&](const Rule& kept) { return kept.key == rule.key; });
            rules.push_back(rule);
        }
    std::string error;
    if (!write_rules(config.rules_out, rules, error))
        log(LogLevel::warning, "cannot write the rules file: %s", error.c_str());
    else
        log(LogLevel::info, "wrote %zu rules to %s", rules.size(), config.rules_out.c_str());
    return MPI_SUCCESS;
}

}  // namespace nbrcomb::detail
