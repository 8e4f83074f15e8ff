#include "src/setup/mapping_log.h"

#include "src/base/log.h"

#include <atomic>

namespace nbrcomb::detail {

void log_locality(Locality level, const LocalityDomains& domains) {
    if (!domains.from_machine) return;
    if (domains.without_hwloc) {
        static std::atomic<bool> said{false};
        if (!said.exchange(true))
            log_rank0(LogLevel::warning, "topo_aware=%s: this libnbrcomb was built without hwloc; using nodes",
                      locality_name(level));
    }
    if (domains.unbound)
        log_rank0(LogLevel::info, "topo_aware=%s: some process is not bound inside one; using nodes",
                  locality_name(level));
    log_rank0(LogLevel::info, "topo_aware=%s: %zu domains over %zu processes", locality_name(level), domains.count,
              domains.of_rank->size());
}

void log_agreement(MPI_Comm comm, ReorderAgreement agreement) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (rank != 0) return;
    if (agreement == ReorderAgreement::not_asked) {
        static std::atomic<bool> said{false};
        if (!said.exchange(true))
            log(LogLevel::info, "reorder=1: ranks keep their order; NBRCOMB_REORDER=on or the hint "
                                "nbrcomb_reorder=on lets the library choose them");
    } else if (agreement == ReorderAgreement::without_metis) {
        static std::atomic<bool> said{false};
        if (!said.exchange(true))
            log(LogLevel::warning, "reorder=1: this libnbrcomb was built without METIS; ranks keep their order");
    } else if (agreement == ReorderAgreement::disagree) {
        log(LogLevel::warning, "reorder=1: processes disagree on nbrcomb_reorder, nbrcomb_node_size, "
                               "nbrcomb_reorder_max_edges or on giving weights; ranks keep their order");
    }
}

void log_renumbering(const Renumbering& renumbering, int reorder_max_edges) {
    if (renumbering.too_large && renumbering.old_rank == 0)
        log(LogLevel::warning,
            "reorder=1: the graph has %lld edges, more than NBRCOMB_REORDER_MAX_EDGES=%d lets one process "
            "gather; ranks keep their order",
            renumbering.edges, reorder_max_edges);
    if (!renumbering.root_mapping) return;
    const RootMapping& mapping = *renumbering.root_mapping;
    if (mapping.failure) {
        log(LogLevel::warning, "reorder=1: mapping the ranks failed (%s); ranks keep their order",
            mapping.failure->c_str());
        return;
    }
    log(LogLevel::info,
        "reorder=1: %zu processes, %zu nodes, %lld edges gathered; edge weight between nodes %lld with the old "
        "ranks, %lld with the new; mapped in %.6f s",
        renumbering.node_before.size(), mapping.nodes, renumbering.edges, mapping.cut_before, mapping.cut_after,
        mapping.seconds);
}

}  // namespace nbrcomb::detail
