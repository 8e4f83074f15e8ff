// The ways of running the same topology that nbrbench compares, each on its own communicator made
// with the library's MPI_Info hints: native MPI, the library's direct schedule, pairs of friends
// (paper 000), groups of k friends (paper 002), the library's own choice, the last three
// topology-aware, node aggregation (paper 003), and any but native on ranks the library
// reordered (reorder=1).
#pragma once

#include <mpi.h>

#include <nbrcomb/nbrcomb.h>

#include <string>

namespace nbrcomb::bench {

struct Variant {
    // native, direct, pairs, auto, groups:K, aggregate; pairs, auto and groups:K may end in ":aware", then
    // any but native in ":reorder"
    std::string name;
    // The library's mode, by the name NBRCOMB_MODE takes (the library checks it: variant_hints);
    // off for native.
    std::string mode = "off";
    int k = 0;  // group size; 0 but for groups
    bool aware = false;
    bool reorder = false;  // the constructor gets reorder=1 and the library may renumber the ranks
    bool is_native() const { return mode == "off"; }
    // Whether the library runs the variant on emulated nodes of LibrarySettings::node_size ranks:
    // every library variant but auto, which keeps the default settings unless topology-aware,
    // so that the figures between nodes of all variants count the same nodes.
    bool uses_nodes() const { return aware || reorder || (!is_native() && mode != "auto"); }
};

// Throws std::invalid_argument naming what is allowed.
Variant parse_variant(const std::string& text);

// Settings shared by every library variant.
struct LibrarySettings {
    int theta = 4;      // friendship threshold; 4 in both papers
    int node_size = 2;  // ranks per emulated node (Variant::uses_nodes); 0: the real nodes
};

// New hints selecting variant; the caller frees them. Throws std::invalid_argument where the
// loaded library has no mode of the variant's name.
MPI_Info variant_hints(const Variant& variant, const LibrarySettings& settings);

}  // namespace nbrcomb::bench
