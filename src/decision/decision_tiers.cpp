#include "src/decision/decision_tiers.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace nbrcomb::detail {

namespace {

constexpr const char* native_decision = "native";

// The candidate an algorithm's name stands for; -1 if this communicator did not plan it.
int candidate_named(const std::vector<const Algorithm*>& candidates, std::string_view name) {
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (name == candidates[i]->name) return static_cast<int>(i);
    return -1;
}

bool is_direct(const Algorithm* candidate) { return candidate->mode == NBRCOMB_MODE_DIRECT; }

// The rule of a shape among the communicator's.
const Rule* rule_of(const StatedChoices& choices, Collective collective, Form form, int size_class) {
    RuleKey key = choices.key;
    key.collective = collective;
    key.form = form;
    key.size_class = size_class;
    return find_rule(choices.rules, key);
}

// The estimated shapes' contenders: allgather's blocks are one per process, alltoall's one per edge.
std::vector<int> contenders_by_estimate(const PlannedCandidates& planned, Collective collective, std::size_t block_bytes) {
    const std::vector<RoundCosts>& busiest = planned.busiest[static_cast<std::size_t>(block_kind(collective))];
    std::vector<double> estimates(busiest.size());
    double native = INFINITY;
    for (std::size_t i = 0; i < busiest.size(); ++i) {
        const double estimate = estimated_time(busiest[i], block_bytes);
        if (is_direct(planned.algorithms[i])) native = estimate;
        estimates[i] = is_direct(planned.algorithms[i]) ? NAN : estimate;
    }
    return estimated_contenders(estimates, native);
}

// An estimate as a line in the block size: its time at 0 B and per byte.
struct Line {
    double at_zero, per_byte;
    double at(double bytes) const { return at_zero + per_byte * bytes; }
};

Line line_of(const RoundCosts& busiest) {
    const double at_zero = estimated_time(busiest, 0);
    return {at_zero, estimated_time(busiest, 1) - at_zero};
}

// Whether the line best lies below scale times the lowest of others somewhere from 0 to limit
// bytes. The gap is concave (the lowest of lines, less a line), so it is widest at 0 B, where two
// of others cross, at the limit, or beyond every crossing.
bool below_somewhere(const Line& best, const std::vector<Line>& others, double scale, double limit) {
    const auto gap = [&](double bytes) {
        double lowest = INFINITY;
        for (const Line& other : others) lowest = std::min(lowest, other.at(bytes));
        return scale * lowest - best.at(bytes);
    };
    if (others.empty()) return true;
    std::vector<double> points{0};
    if (std::isfinite(limit)) points.push_back(limit);
    for (std::size_t i = 0; i < others.size(); ++i)
        for (std::size_t j = i + 1; j < others.size(); ++j)
            if (const double slopes = others[i].per_byte - others[j].per_byte; slopes != 0)
                if (const double crossing = (others[j].at_zero - others[i].at_zero) / slopes; crossing > 0 && crossing < limit)
                    points.push_back(crossing);
    if (std::ranges::any_of(points, [&](double bytes) { return gap(bytes) > 0; })) return true;
    if (std::isfinite(limit)) return false;
    // Beyond every crossing the lowest line is the flattest.
    const Line flattest = *std::ranges::min_element(others, {}, [](const Line& l) { return std::pair(l.per_byte, l.at_zero); });
    return scale * flattest.per_byte > best.per_byte;
}

}  // namespace

int block_kind(Collective collective) {
    return collective == Collective::allgather || collective == Collective::allgatherv ? 0 : 1;
}

bool can_still_win(const KindCosts& best_case, const std::vector<KindCosts>& planned,
                   const std::array<double, 2>& limits) {
    for (const std::size_t kind : {0u, 1u}) {
        if (limits[kind] < 0) continue;
        std::vector<Line> others;
        for (const KindCosts& estimates : planned) others.push_back(line_of(estimates[kind]));
        if (below_somewhere(line_of(best_case[kind]), others, 1 - AutoTuner::required_gain, limits[kind])) return true;
    }
    return false;
}

std::vector<int> estimated_contenders(const std::vector<double>& estimates, double native_estimate) {
    double best = INFINITY;
    for (const double estimate : estimates)
        if (!std::isnan(estimate)) best = std::min(best, estimate);
    std::vector<int> contenders;
    for (std::size_t i = 0; i < estimates.size(); ++i)
        if (!std::isnan(estimates[i]) && estimates[i] < native_estimate &&
            estimates[i] <= best * race_window)
            contenders.push_back(static_cast<int>(i));
    std::ranges::stable_sort(contenders, {}, [&](int i) { return estimates[static_cast<std::size_t>(i)]; });
    if (contenders.size() > static_cast<std::size_t>(most_raced)) contenders.resize(most_raced);
    return contenders;
}

bool names_algorithm(const StatedChoices& choices, std::string_view name) {
    return std::ranges::find(choices.forced.choices, name, &ForcedChoice::decision) != choices.forced.choices.end() ||
           std::ranges::find(choices.rules, name, &Rule::decision) != choices.rules.end();
}

int most_contenders(const std::vector<const Algorithm*>& candidates) {
    const auto raced = std::ranges::count_if(candidates, std::not_fn(is_direct));
    return static_cast<int>(std::min<std::ptrdiff_t>(raced, most_raced));
}

Opener make_opener(StatedChoices choices, PlannedCandidates planned,
                   std::function<void(const std::string& message)> left_out) {
    return [choices = std::move(choices), planned = std::move(planned), left_out = std::move(left_out)](
               Collective collective, Form form, int size_class, std::size_t block_bytes) -> Opening {
        const auto named = [&](const std::string& name, Source source, std::size_t cutoff) -> std::optional<Decision> {
            if (name == native_decision) return Decision{.source = source};
            const int candidate = candidate_named(planned.algorithms, name);
            if (candidate >= 0) return Decision{.combined = true, .candidate = candidate, .cutoff = cutoff, .source = source};
            left_out(std::string("auto: ") + (source == Source::forced ? "NBRCOMB_FORCE" : "the rules file") + " names " +
                     name + " for neighbor_" + collective_name(collective) + " " + form_name(form) +
                     ", which this communicator did not plan; left out");
            return std::nullopt;
        };
        if (const auto forced = choices.forced.find(collective, form, size_class))
            if (const auto decision = named(*forced, Source::forced, SIZE_MAX)) return {decision, {}};
        if (const Rule* rule = rule_of(choices, collective, form, size_class))
            if (const auto decision = named(rule->decision, Source::rules, rule->cutoff)) return {decision, {}};
        return {std::nullopt, contenders_by_estimate(planned, collective, block_bytes)};
    };
}

std::optional<Source> native_settled_by(const StatedChoices& choices, Collective collective, Form form, int size_class) {
    if (const auto forced = choices.forced.find(collective, form, size_class))
        return *forced == native_decision ? std::optional(Source::forced) : std::nullopt;
    const Rule* rule = rule_of(choices, collective, form, size_class);
    return rule != nullptr && rule->decision == native_decision ? std::optional(Source::rules) : std::nullopt;
}

bool combining_settled(const StatedChoices& choices) {
    const auto combines = [](const std::string& decision) { return decision != native_decision; };
    return std::ranges::any_of(choices.forced.choices, combines, &ForcedChoice::decision) ||
           std::ranges::any_of(choices.rules, combines, &Rule::decision);
}

}  // namespace nbrcomb::detail
