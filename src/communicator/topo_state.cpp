#include "src/communicator/topo_state.h"

#include "src/communicator/comm_attribute.h"

#include "schedule/mpi_features.h"
#include "src/base/log.h"
#include "src/base/statistics.h"
#include "src/progress/progressing_wait.h"

#include <atomic>
#include <mutex>
#include <set>

namespace nbrcomb::detail {

namespace {

// States alive now, and the counters of those already freed, for the report at finalize.
struct Ledger {
    std::mutex mutex;
    std::set<const TopoState*> alive;
    ProcessTotals freed;
};

Ledger& ledger() {
    static Ledger instance;
    return instance;
}

void add(ProcessTotals& totals, const nbrcomb_stats& part) {
    add_statistics(totals.stats, part);
    ++totals.communicators;
    if (part.reorder_tried) totals.reorder_calls += part.calls;
}

void track(const TopoState* state) {
    std::lock_guard lock(ledger().mutex);
    ledger().alive.insert(state);
}

// The attribute is a box holding one reference to the state.
using StateBox = std::shared_ptr<TopoState>;

// Set while the library duplicates a communicator for its own traffic: that duplicate needs
// no state of its own.
thread_local bool duplicating_for_library = false;

int copy_state(MPI_Comm, int, void*, void* attribute_in, void* attribute_out, int* flag) {
    if (duplicating_for_library) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    const TopoState& original = **static_cast<const StateBox*>(attribute_in);
    auto copy = std::make_shared<TopoState>();
    copy->created = original.created;
    copy->topology = original.topology;
    // Where some process has no edge, the duplicate's private communicators cannot wait for a
    // later collective those processes may never enter.
    copy->awaiting_setup = original.created.idle_somewhere;
    *copy->stats.lock() = for_duplicate(original.statistics());
    // A duplicate shares the plans, or builds its own when its own calls reach NBRCOMB_LAZY;
    // its calls are its own, so it tries the call shapes afresh.
    copy->decisions.take_choices(original.decisions.choices());
    if (original.decisions.phase1_pending()) copy->decisions.defer_phase1(original.created.config.lazy);
    if (original.decisions.tuner() != nullptr)
        copy->decisions.start(make_tuner(*copy), original.decisions.has_candidate());
    track(copy.get());
    *static_cast<StateBox**>(attribute_out) = new StateBox(std::move(copy));
    *flag = 1;
    call_flags.states_changed.fetch_add(1, std::memory_order_release);
    return MPI_SUCCESS;
}


int delete_state(MPI_Comm, int, void* attribute, void*) {
    call_flags.states_changed.fetch_add(1, std::memory_order_release);
    delete static_cast<StateBox*>(attribute);
    return MPI_SUCCESS;
}

using StateAttribute = CommAttribute<copy_state, delete_state>;

StateBox* find_box(MPI_Comm comm) { return static_cast<StateBox*>(StateAttribute::find(comm)); }

}  // namespace

// The counters go to the ledger's freed total; alive holds only what attach_state or
// copy_state tracked, so a state never attached adds nothing.
TopoState::~TopoState() {
    {
        std::lock_guard lock(ledger().mutex);
        if (ledger().alive.erase(this) != 0) add(ledger().freed, statistics());
    }
    if (participants_comm != MPI_COMM_NULL) PMPI_Comm_free(&participants_comm);
    if (private_comm != MPI_COMM_NULL) PMPI_Comm_free(&private_comm);
}

int TopoState::next_tag() {
    const long long operations = (created.tag_span - pattern_tags()) / tags_per_operation;
    int first_tag = 0;
    do {
        first_tag = static_cast<int>(static_cast<long long>(sequence++ % operations) * tags_per_operation);
    } while (!reserved_tags.empty() && reserved_tags.contains(first_tag));
    return first_tag;
}

void TopoState::count_device_call() {
    ++stats.lock()->device_calls;
    count_native_call();
}

nbrcomb_stats TopoState::statistics() const {
    nbrcomb_stats counted = stats.snapshot();
    if (const AutoTuner* tuner = decisions.tuner()) {
        const std::uint64_t settled = tuner->settled_calls();
        counted.native_calls += settled;
        counted.native_call_messages += settled * topology->graph.destinations.size();
    }
    return counted;
}

void TopoState::reset_statistics() {
    stats.reset();
    if (AutoTuner* tuner = decisions.tuner()) tuner->reset_settled_calls();
}

int TopoState::reserve_tag() {
    const int first_tag = next_tag();
    reserved_tags.insert(first_tag);
    return first_tag;
}

std::unique_ptr<AutoTuner> make_tuner(const TopoState& state, const std::vector<std::pair<int, Source>>& counted) {
    PlannedCandidates planned;
    for (const Topology::Candidate& candidate : state.topology->candidates) planned.algorithms.push_back(candidate.algorithm);
    planned.busiest = state.topology->busiest;
    const int most = most_contenders(planned.algorithms);
    // Said on the first process of those that take part, which all decide alike.
    const auto left_out = [&state](const std::string& message) {
        int rank = 0;
        PMPI_Comm_rank(state.agreement_comm(), &rank);
        if (rank == 0) log(LogLevel::warning, "%s", message.c_str());
    };
    return std::make_unique<AutoTuner>(make_opener(state.decisions.choices(), std::move(planned), left_out), most,
                                       counted);
}

void count_decisions(TopoState& state) {
    const AutoDecisions& decisions = state.decisions;
    const auto stats = state.stats.lock();
    stats->auto_combined = decisions.decided_combined();
    stats->auto_native = decisions.decided_native();
    stats->auto_forced = decisions.decided_by(Source::forced);
    stats->auto_rules = decisions.decided_by(Source::rules);
    stats->auto_trial = decisions.decided_by(Source::trial);
    stats->auto_estimate = decisions.decided_by(Source::estimate);
}

NBRCOMB_HOT_THREAD_LOCAL constinit RememberedState remembered_state{};

namespace {

// The state's native route as far as it is published: the forms first (acquire), then the facts,
// which were written before any form opened.
NativeRoute published_route(const TopoState& state) {
    const std::uint8_t forms = state.native_route_forms.load(std::memory_order_acquire);
    if (forms == 0) return {};
    NativeRoute route = state.native_route;
    route.forms = forms;
    return route;
}

}  // namespace

const std::shared_ptr<TopoState>* find_shared_state(MPI_Comm comm) {
    RememberedState& last = remembered_state;
    const std::uint64_t generation = call_flags.states_changed.load(std::memory_order_acquire);
    if (last.comm == comm && last.generation == generation) return last.box;
    const StateBox* box = find_box(comm);
    last = {comm, box, box != nullptr ? box->get() : nullptr, generation,
            box != nullptr ? published_route(**box) : NativeRoute{}, MPI_DATATYPE_NULL, 0};
    return box;
}

const RememberedState* remember(MPI_Comm comm) {
    return find_shared_state(comm) == nullptr ? nullptr : &remembered_state;
}

void refresh_remembered_route(const TopoState& state) {
    if (remembered_state.state == &state) remembered_state.route = published_route(state);
}

int attach_state(MPI_Comm comm, std::shared_ptr<TopoState> state) {
    auto* box = new StateBox(std::move(state));
    if (const int err = PMPI_Comm_set_attr(comm, StateAttribute::keyval(), box); err != MPI_SUCCESS) {
        delete box;
        return err;
    }
    track(box->get());
    call_flags.states_changed.fetch_add(1, std::memory_order_release);
    return MPI_SUCCESS;
}

std::vector<int> participant_ranks(const TopoState& state) {
    MPI_Group all = MPI_GROUP_NULL, participants = MPI_GROUP_NULL;
    PMPI_Comm_group(state.private_comm, &all);
    PMPI_Comm_group(state.participants_comm, &participants);
    int count = 0;
    PMPI_Group_size(participants, &count);
    std::vector<int> ranks(static_cast<std::size_t>(count)), translated(ranks.size());
    for (int i = 0; i < count; ++i) ranks[static_cast<std::size_t>(i)] = i;
    PMPI_Group_translate_ranks(participants, count, ranks.data(), all, translated.data());
    PMPI_Group_free(&participants);
    PMPI_Group_free(&all);
    return translated;
}

int ensure_private_comm(MPI_Comm comm, TopoState& state) {
    if (state.private_comm != MPI_COMM_NULL) return MPI_SUCCESS;
    duplicating_for_library = true;
    int err = MPI_SUCCESS;
    if constexpr (mpi_has_scalable_nonblocking_collectives) {
        // Waiting advances the operations in flight, which other processes may need before
        // they come to duplicate.
        MPI_Request request = MPI_REQUEST_NULL;
        err = PMPI_Comm_idup(comm, &state.private_comm, &request);
        if (err == MPI_SUCCESS) err = wait_all_progressing(1, &request);
    } else {
        err = PMPI_Comm_dup(comm, &state.private_comm);
    }
    duplicating_for_library = false;
    if (err != MPI_SUCCESS) return err;
    // Errors on library traffic come back to the library, which raises them on the user's
    // communicator through its error handler.
    return PMPI_Comm_set_errhandler(state.private_comm, MPI_ERRORS_RETURN);
}

ProcessTotals process_totals() {
    std::lock_guard lock(ledger().mutex);
    ProcessTotals totals = ledger().freed;
    for (const TopoState* state : ledger().alive) add(totals, state->statistics());
    return totals;
}

}  // namespace nbrcomb::detail
