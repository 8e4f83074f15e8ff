#include "nbrbench/guideline_campaign.h"

#include "common/library_stats.h"
#include "nbrbench/method.h"
#include "nbrbench/validation.h"
#include "stats/run_statistics.h"
#include "topology/generators.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

namespace nbrcomb::bench {

namespace {

constexpr const char* native_variant = "native";
constexpr const char* library_variant = "library";

// One topology communicator of the campaign, as its levels name it.
struct TopologySetup {
    std::string variant;       // native, or library (the environment's settings)
    std::string neighborhood;  // vonneumann, moore, full
    int dims = 0;              // of the stencils' grid; 0 for the complete graph
    std::string ordering;      // rowmajor, colmajor, random, linear; none on a Cartesian grid
    std::string constructor;   // cart, adjacent, graph
    bool reorder = false;

    bool native() const { return variant == native_variant; }
    Levels levels(std::string operation, std::string form, std::string bytes) const {
        return {variant,     neighborhood,       dims > 0 ? std::to_string(dims) : "", ordering,
                constructor, reorder ? "1" : "0", std::move(operation),              std::move(form),
                std::move(bytes)};
    }
};

std::vector<TopologySetup> topology_setups(const Options& options, bool library_loaded) {
    std::vector<TopologySetup> setups;
    for (const char* variant : {native_variant, library_variant}) {
        if (variant == library_variant && !library_loaded) continue;
        for (const std::string& neighborhood : options.neighborhoods) {
            const bool full = neighborhood == "full";
            const std::vector<int> dims = full ? std::vector<int>{0} : options.dims;
            const std::vector<std::string> orderings =
                full ? std::vector<std::string>{"linear", "random"}
                     : std::vector<std::string>{"rowmajor", "colmajor", "random"};
            for (const int d : dims)
                for (const bool reorder : {false, true}) {
                    if (neighborhood == "vonneumann") setups.push_back({variant, neighborhood, d, "", "cart", reorder});
                    for (const char* constructor : {"adjacent", "graph"})
                        for (const std::string& ordering : orderings)
                            setups.push_back({variant, neighborhood, d, ordering, constructor, reorder});
                }
        }
    }
    return setups;
}

topology::ListOrder list_order(const std::string& ordering) {
    if (ordering == "colmajor") return topology::ListOrder::column_major;
    if (ordering == "linear") return topology::ListOrder::linear;
    if (ordering == "random") return topology::ListOrder::random;
    return topology::ListOrder::row_major;
}

// The calling process's lists of a distributed-graph setup.
nbrcomb::detail::LocalGraph lists_of(const TopologySetup& setup, int rank, int processes, std::uint64_t seed) {
    const topology::ListOrder order = list_order(setup.ordering);
    if (setup.neighborhood == "full") return topology::complete(processes, order, seed)[static_cast<std::size_t>(rank)];
    const auto stencil = setup.neighborhood == "moore" ? topology::moore : topology::von_neumann;
    return stencil(processes, setup.dims, 1, order, seed)[static_cast<std::size_t>(rank)];
}

// A new communicator of setup over world: the native variant through PMPI_, the library's through
// MPI_ with the environment's settings. The Cartesian grid is the stencils' (balanced_dims),
// periodic; the other constructor of a distributed graph takes every process's out-edges.
MPI_Comm create(const TopologySetup& setup, const nbrcomb::detail::LocalGraph& mine, MPI_Comm world) {
    const bool native = setup.native();
    const int reorder = setup.reorder ? 1 : 0;
    MPI_Comm comm = MPI_COMM_NULL;
    if (setup.constructor == "cart") {
        int processes = 0;
        MPI_Comm_size(world, &processes);
        std::vector<int> dims = topology::balanced_dims(processes, setup.dims);
        const std::vector<int> periodic(dims.size(), 1);
        const auto cart_create = native ? PMPI_Cart_create : MPI_Cart_create;
        cart_create(world, setup.dims, dims.data(), periodic.data(), reorder, &comm);
    } else if (setup.constructor == "adjacent") {
        const auto create_adjacent = native ? PMPI_Dist_graph_create_adjacent : MPI_Dist_graph_create_adjacent;
        create_adjacent(world, static_cast<int>(mine.sources.size()), mine.sources.data(), MPI_UNWEIGHTED,
                        static_cast<int>(mine.destinations.size()), mine.destinations.data(), MPI_UNWEIGHTED,
                        MPI_INFO_NULL, reorder, &comm);
    } else {
        const int degree = static_cast<int>(mine.destinations.size());
        const auto create_graph = native ? PMPI_Dist_graph_create : MPI_Dist_graph_create;
        create_graph(world, 1, &mine.rank, &degree, mine.destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, reorder,
                     &comm);
    }
    return comm;
}

enum class Kind { create, neighborhood, global };

struct Experiment {
    Levels levels;
    Kind kind;
    std::size_t topology = 0;  // the create and neighborhood experiments'
    Collective collective = Collective::allgather;
    Form form = Form::blocking;
    int bytes = 0;
};

std::vector<Experiment> plan(const Options& options, const std::vector<TopologySetup>& topologies) {
    std::vector<Experiment> experiments;
    const auto each_call = [&](const auto& add) {
        for (const Collective collective : options.collectives)
            for (const Form form : options.forms)
                for (const int bytes : options.bytes) add(collective, form, bytes);
    };
    for (std::size_t t = 0; t < topologies.size(); ++t) {
        const TopologySetup& topology = topologies[t];
        experiments.push_back({topology.levels(create_operation, "", ""), Kind::create, t});
        each_call([&](Collective collective, Form form, int bytes) {
            experiments.push_back({topology.levels(std::string("neighbor_") + collective_name(collective),
                                                   form_name(form), std::to_string(bytes)),
                                   Kind::neighborhood, t, collective, form, bytes});
        });
    }
    // The same whatever the variant and the graph's lists, so measured once.
    if (std::ranges::find(options.neighborhoods, "full") != options.neighborhoods.end())
        each_call([&](Collective collective, Form form, int bytes) {
            experiments.push_back({{"", "full", "", "", "", "", collective_name(collective), form_name(form),
                                    std::to_string(bytes)},
                                   Kind::global, 0, collective, form, bytes});
        });
    return experiments;
}

// The calls the library ran on comm with its own schedules, and those it left to native MPI.
std::pair<double, double> library_calls(MPI_Comm comm) {
    const auto library = nbrcomb::common::library_stats(comm);
    if (!library || !library->stats) return {0.0, 0.0};
    return {static_cast<double>(library->stats->calls), static_cast<double>(library->stats->native_calls)};
}

class CampaignRun {
public:
    CampaignRun(const Options& options, bool library_loaded, MPI_Comm control)
        : options_(options), control_(control), topologies_(topology_setups(options, library_loaded)),
          experiments_(plan(options, topologies_)) {
        MPI_Comm_rank(control, &rank_);
        MPI_Comm_size(control, &processes_);
        for (const TopologySetup& topology : topologies_)
            lists_.push_back(lists_of(topology, rank_, processes_, options.seed));
        if (rank_ == 0)
            std::fprintf(stderr, "nbrbench: creating %zu topology communicators\n", topologies_.size());
        for (std::size_t t = 0; t < topologies_.size(); ++t) comms_.push_back(create(topologies_[t], lists_[t], control));
        MPI_Comm_dup(control, &global_);
        campaign_.setups.resize(experiments_.size());
        for (std::size_t e = 0; e < experiments_.size(); ++e) campaign_.setups[e].measured.levels = experiments_[e].levels;
    }
    ~CampaignRun() {
        for (MPI_Comm& comm : comms_) MPI_Comm_free(&comm);
        MPI_Comm_free(&global_);
    }
    CampaignRun(const CampaignRun&) = delete;
    CampaignRun& operator=(const CampaignRun&) = delete;

    Campaign run() {
        run_in_random_order(options_.settle, options_.runs, experiments_.size(), options_.seed, control_,
                            [this](std::size_t e, bool timed) { measure(e, timed); });
        for (std::size_t e = 0; e < experiments_.size(); ++e)
            if (experiments_[e].kind == Kind::neighborhood) validate(e);
        return std::move(campaign_);
    }

private:
    calls::Path path_of(const TopologySetup& topology) const {
        return topology.native() ? calls::Path::native : calls::Path::library;
    }

    // One run of experiment e; rank 0 keeps its median if timed.
    void measure(std::size_t e, bool timed) {
        const Experiment& experiment = experiments_[e];
        std::vector<double> times;
        double intercepted = -1.0;  // -1: not the library's collectives
        if (experiment.kind == Kind::create) {
            const TopologySetup& topology = topologies_[experiment.topology];
            MPI_Comm made = MPI_COMM_NULL;
            times = time_repetitions(
                options_.warmup, options_.repetitions, control_,
                [&] { made = create(topology, lists_[experiment.topology], control_); },
                [&] { MPI_Comm_free(&made); });
        } else {
            const bool global = experiment.kind == Kind::global;
            const MPI_Comm comm = global ? global_ : comms_[experiment.topology];
            NeighborExchange exchange(comm, experiment.collective, experiment.form, experiment.bytes,
                                      global ? calls::Path::library : path_of(topologies_[experiment.topology]),
                                      global ? Scope::global : Scope::neighborhood);
            const auto [library_before, native_before] = library_calls(comm);
            times = time_repetitions(options_.warmup, options_.repetitions, control_, [&] { exchange.run(); });
            const auto [library_after, native_after] = library_calls(comm);
            if (!global && !topologies_[experiment.topology].native()) {
                const double calls = library_after - library_before + native_after - native_before;
                intercepted = calls > 0 ? (library_after - library_before) / calls : 0.0;
            }
        }
        MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : times.data(), times.data(), static_cast<int>(times.size()), MPI_DOUBLE,
                   MPI_MAX, 0, control_);
        MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : &intercepted, &intercepted, 1, MPI_DOUBLE, MPI_SUM, 0, control_);
        if (rank_ != 0 || !timed) return;
        MeasuredSetup& setup = campaign_.setups[e];
        setup.measured.run_medians.push_back(median(drop_outliers(times)));
        if (intercepted < 0) return;
        const auto runs = static_cast<double>(setup.measured.run_medians.size());  // the share over the runs so far
        setup.intercepted = (setup.intercepted.value_or(0.0) * (runs - 1) + intercepted / processes_) / runs;
    }

    // One more call of a collective on a topology, checked against the standard.
    void validate(std::size_t e) {
        const Experiment& experiment = experiments_[e];
        const MPI_Comm comm = comms_[experiment.topology];
        const auto [delivery, _] = expected_.try_emplace(comm, comm);
        NeighborExchange exchange(comm, experiment.collective, experiment.form, experiment.bytes,
                                  path_of(topologies_[experiment.topology]));
        const double library_before = library_calls(comm).first;
        const bool right = delivery->second.holds_for(exchange);
        int counts[2] = {right ? 0 : 1, library_calls(comm).first != library_before ? 1 : 0};
        MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT, MPI_SUM, control_);
        if (rank_ == 0) campaign_.setups[e].valid = counts[0] == 0;
        if (counts[0] == 0) return;
        const bool by_library = counts[1] > 0;
        ++(by_library ? campaign_.library_mismatches : campaign_.native_deviations);
        // A native deviation repeats in every setup of its neighborhood and operation: said once.
        const auto where = std::pair{level(experiment.levels, Parameter::neighborhood), experiment.collective};
        if (rank_ != 0 || (!by_library && !native_reported_.insert(where).second)) return;
        std::string setup;
        for (std::size_t p = 0; p < parameter_count; ++p)
            if (!experiment.levels[p].empty())
                setup += std::string(setup.empty() ? "" : ", ") + parameter_name(static_cast<Parameter>(p)) + " " +
                         experiment.levels[p];
        std::fprintf(stderr, "nbrbench: %s: %s; %d rank(s)\n",
                     by_library ? "MISMATCH: the library delivered wrong data"
                                : "native MPI received other data than the standard prescribes (the first case of "
                                  "this neighborhood and collective)",
                     setup.c_str(), counts[0]);
    }

    const Options& options_;
    MPI_Comm control_;
    int rank_ = 0, processes_ = 0;
    std::vector<TopologySetup> topologies_;
    std::vector<Experiment> experiments_;
    std::vector<nbrcomb::detail::LocalGraph> lists_;  // this process's, by topology
    std::vector<MPI_Comm> comms_;              // by topology
    MPI_Comm global_ = MPI_COMM_NULL;          // where the global collectives run
    std::map<MPI_Comm, ExpectedDelivery> expected_;
    std::set<std::pair<std::string, Collective>> native_reported_;
    Campaign campaign_;
};

}  // namespace

Campaign run_guideline_campaign(const Options& options, bool library_loaded, MPI_Comm control) {
    return CampaignRun(options, library_loaded, control).run();
}

}  // namespace nbrcomb::bench
