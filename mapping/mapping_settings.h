// What mapping/ reads of the library's settings; src/settings/config.h builds it from a Config.
#pragma once

namespace nbrcomb::detail {

// Where friends may come from: anywhere (topology-agnostic), or only processes sharing this
// process's node, or its package or NUMA domain where the binding says which (paper 002 §IV-B).
enum class Locality { agnostic, node, package, numa };

struct MappingSettings {
    Locality locality = Locality::agnostic;  // level of the topology-aware mode's domains
    int node_size = 0;                       // emulate nodes of this many consecutive ranks; 0 = real nodes
    bool reorder = false;                    // this process lets reorder=1 give new ranks
    int reorder_max_edges = 0;               // reordering gathers graphs of up to this many edges to one process
};

}  // namespace nbrcomb::detail
