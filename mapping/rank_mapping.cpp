#include "mapping/rank_mapping.h"

#include "mapping/graph_partition.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace nbrcomb::detail {

namespace {

// Node, package, NUMA domain.
constexpr int levels = 3;

int key_at(const ProcessPlace& place, int level) {
    return level == 0 ? place.node : level == 1 ? place.package : place.numa;
}

// The processes split by their key at level, in key order; a single group when some process
// does not know its key.
std::vector<std::vector<int>> split_at(std::span<const ProcessPlace> places, const std::vector<int>& processes,
                                       int level) {
    std::map<int, std::vector<int>> by_key;
    for (const int p : processes) {
        const int key = key_at(places[p], level);
        if (key < 0) return {processes};
        by_key[key].push_back(p);
    }
    std::vector<std::vector<int>> groups;
    for (auto& [key, members] : by_key) groups.push_back(std::move(members));
    return groups;
}

// METIS numbers parts arbitrarily: renames them among groups of equal size so that as many
// vertices as possible stay in their natural group (natural[i] < 0: none), which keeps ranks
// where they were when the partition allows it.
std::vector<int> closest_names(const std::vector<int>& part, const std::vector<int>& natural,
                               const std::vector<int>& sizes) {
    std::map<std::pair<int, int>, int> overlap;  // (part, group) -> vertices
    for (std::size_t i = 0; i < part.size(); ++i)
        if (natural[i] >= 0) ++overlap[{part[i], natural[i]}];
    std::vector<std::tuple<int, int, int>> candidates;  // (-overlap, part, group)
    for (const auto& [pair, count] : overlap) candidates.emplace_back(-count, pair.first, pair.second);
    std::sort(candidates.begin(), candidates.end());

    const int parts = static_cast<int>(sizes.size());
    std::vector<int> name(parts, -1);
    std::vector<bool> taken(parts, false);
    for (const auto& [count, p, group] : candidates)
        if (name[p] < 0 && !taken[group] && sizes[p] == sizes[group]) {
            name[p] = group;
            taken[group] = true;
        }
    std::map<int, std::vector<int>> free_groups;  // by size, in descending group order
    for (int group = parts - 1; group >= 0; --group)
        if (!taken[group]) free_groups[sizes[group]].push_back(group);
    for (int p = 0; p < parts; ++p)
        if (name[p] < 0) {
            name[p] = free_groups[sizes[p]].back();
            free_groups[sizes[p]].pop_back();
        }
    std::vector<int> renamed;
    renamed.reserve(part.size());
    for (const int p : part) renamed.push_back(name[p]);
    return renamed;
}

class Placement {
public:
    Placement(const ProcessGraph& graph, std::span<const ProcessPlace> places)
        : graph_(graph), places_(places), host_(graph.vertices(), -1), scratch_(graph.vertices(), -1) {}

    // Places the vertices on the processes (as many), refining from level on.
    void place(const std::vector<int>& vertices, const std::vector<int>& processes, int level) {
        std::vector<std::vector<int>> groups;
        for (; level < levels; ++level) {
            groups = split_at(places_, processes, level);
            if (groups.size() > 1) break;
        }
        if (level == levels) return hand_out(vertices, processes);

        std::vector<int> sizes;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            sizes.push_back(static_cast<int>(groups[g].size()));
            for (const int p : groups[g]) scratch_[p] = static_cast<int>(g);
        }
        std::vector<int> natural;  // the group of each vertex's old process, if that is here
        for (const int v : vertices) natural.push_back(scratch_[v]);
        for (const int p : processes) scratch_[p] = -1;

        const std::vector<int> part =
            closest_names(partition_exact(induced_subgraph(graph_, vertices), sizes), natural, sizes);
        std::vector<std::vector<int>> members(groups.size());
        for (std::size_t i = 0; i < vertices.size(); ++i) members[part[i]].push_back(vertices[i]);
        for (std::size_t g = 0; g < groups.size(); ++g) place(members[g], groups[g], level + 1);
    }

    // host[v]: the process given vertex v.
    const std::vector<int>& hosts() const { return host_; }

private:
    // The processes of one group take its vertices: a vertex goes back to its old process when
    // that is here, the rest pair up in rank order.
    void hand_out(const std::vector<int>& vertices, const std::vector<int>& processes) {
        for (const int p : processes) scratch_[p] = 0;
        std::vector<int> homeless;
        for (const int v : vertices) {
            if (scratch_[v] == 0) {
                host_[v] = v;
                scratch_[v] = 1;  // taken
            } else {
                homeless.push_back(v);
            }
        }
        std::sort(homeless.begin(), homeless.end());
        std::size_t next = 0;
        for (const int p : processes) {
            if (scratch_[p] == 0) host_[homeless[next++]] = p;
            scratch_[p] = -1;
        }
    }

    const ProcessGraph& graph_;
    std::span<const ProcessPlace> places_;
    std::vector<int> host_;
    // Per process: its group while place() splits, free (0) or taken (1) while hand_out() pairs;
    // -1 between uses.
    std::vector<int> scratch_;
};

// Edge weight between nodes, between packages, between NUMA domains, when vertex v runs at
// place_of(v).
template <class PlaceOf>
std::array<long long, levels> cuts(const ProcessGraph& graph, PlaceOf place_of) {
    std::array<long long, levels> result{};
    for (int level = 0; level < levels; ++level) {
        std::map<std::array<int, levels>, int> ids;  // the place up to level, numbered
        std::vector<int> part;
        for (int v = 0; v < graph.vertices(); ++v) {
            std::array<int, levels> key{};
            for (int l = 0; l <= level; ++l) key[l] = key_at(place_of(v), l);
            part.push_back(ids.emplace(key, static_cast<int>(ids.size())).first->second);
        }
        result[level] = cut_weight(graph, part);
    }
    return result;
}

}  // namespace

RankMapping map_ranks(const ProcessGraph& graph, std::span<const ProcessPlace> places) {
    const int n = graph.vertices();
    std::vector<int> everyone(n);
    for (int v = 0; v < n; ++v) everyone[v] = v;
    Placement placement(graph, places);
    placement.place(everyone, everyone, 0);
    const std::vector<int>& host = placement.hosts();

    const auto before = cuts(graph, [&](int v) { return places[v]; });
    const auto after = cuts(graph, [&](int v) { return places[host[v]]; });
    RankMapping mapping{everyone, before[0], before[0]};
    if (after < before) {
        for (int v = 0; v < n; ++v) mapping.new_rank[host[v]] = v;
        mapping.cut_after = after[0];
    }
    return mapping;
}

}  // namespace nbrcomb::detail
