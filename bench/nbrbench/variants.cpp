#include "nbrbench/variants.h"

#include <charconv>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace nbrcomb::bench {

namespace {

constexpr const char* variant_forms =
    "native, direct, pairs, auto, groups:K (K 2..16), aggregate, dimwise, forward, global, pairs, auto and "
    "groups:K with :aware, then each but native with :reorder";

[[noreturn]] void bad_variant(const std::string& text) {
    throw std::invalid_argument("variant '" + text + "' is none of " + variant_forms);
}

int parse_group_size(std::string_view field, const std::string& text) {
    int k = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), k);
    if (field.empty() || error != std::errc() || end != field.data() + field.size() || k < 2 || k > 16)
        bad_variant(text);
    return k;
}

void set(MPI_Info info, const char* key, const std::string& value) { MPI_Info_set(info, key, value.c_str()); }

}  // namespace

Variant parse_variant(const std::string& text) {
    Variant variant;
    variant.name = text;
    std::string_view rest = text;
    const std::string_view reorder_suffix = ":reorder";
    if (rest.ends_with(reorder_suffix)) {
        variant.reorder = true;
        rest.remove_suffix(reorder_suffix.size());
    }
    const std::string_view aware_suffix = ":aware";
    if (rest.ends_with(aware_suffix)) {
        variant.aware = true;
        rest.remove_suffix(aware_suffix.size());
    }
    // Only the library reorders, and only for a communicator it manages.
    if (rest == "native" && !variant.aware && !variant.reorder) return variant;
    const std::pair<std::string_view, nbrcomb_mode> unaware[] = {{"direct", NBRCOMB_MODE_DIRECT},
                                                                  {"aggregate", NBRCOMB_MODE_AGGREGATE},
                                                                  {"dimwise", NBRCOMB_MODE_DIMWISE},
                                                                  {"forward", NBRCOMB_MODE_FORWARD},
                                                                  {"global", NBRCOMB_MODE_GLOBAL}};
    for (const auto& [name, mode] : unaware)
        if (rest == name && !variant.aware) {
            variant.mode = mode;
            return variant;
        }
    if (rest == "pairs" || rest == "auto") {
        variant.mode = rest == "pairs" ? NBRCOMB_MODE_PAIRS : NBRCOMB_MODE_AUTO;
        return variant;
    }
    const std::string_view groups_prefix = "groups:";
    if (!rest.starts_with(groups_prefix)) bad_variant(text);
    variant.mode = NBRCOMB_MODE_GROUPS;
    variant.k = parse_group_size(rest.substr(groups_prefix.size()), text);
    return variant;
}

MPI_Info variant_hints(const Variant& variant, const LibrarySettings& settings) {
    MPI_Info info = MPI_INFO_NULL;
    MPI_Info_create(&info);
    switch (variant.mode) {
    case NBRCOMB_MODE_OFF: set(info, "nbrcomb_mode", "off"); return info;
    case NBRCOMB_MODE_DIRECT: set(info, "nbrcomb_mode", "direct"); break;
    case NBRCOMB_MODE_PAIRS: set(info, "nbrcomb_mode", "pairs"); break;
    case NBRCOMB_MODE_GROUPS:
        set(info, "nbrcomb_mode", "groups");
        set(info, "nbrcomb_k", std::to_string(variant.k));
        break;
    case NBRCOMB_MODE_AUTO: set(info, "nbrcomb_mode", "auto"); break;
    case NBRCOMB_MODE_AGGREGATE: set(info, "nbrcomb_mode", "aggregate"); break;
    case NBRCOMB_MODE_DIMWISE: set(info, "nbrcomb_mode", "dimwise"); break;
    case NBRCOMB_MODE_GLOBAL: set(info, "nbrcomb_mode", "global"); break;
    case NBRCOMB_MODE_FORWARD: set(info, "nbrcomb_mode", "forward"); break;
    }
    set(info, "nbrcomb_reorder", variant.reorder ? "on" : "off");
    if (variant.uses_nodes()) set(info, "nbrcomb_node_size", std::to_string(settings.node_size));
    set(info, "nbrcomb_theta", std::to_string(settings.theta));
    set(info, "nbrcomb_topo_aware", variant.aware ? "node" : "0");
    return info;
}

}  // namespace nbrcomb::bench
