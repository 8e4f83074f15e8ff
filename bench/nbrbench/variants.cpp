#include "nbrbench/variants.h"

#include "common/library_stats.h"

#include <charconv>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace nbrcomb::bench {

namespace {

constexpr const char* variant_forms =
    "native, groups:K (K 2..16), or another mode of the library (NBRCOMB_MODE), with :aware where it seeks "
    "friends (pairs, groups:K, auto), then each but native with :reorder";

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
    const std::string_view groups_prefix = "groups:";
    if (rest.starts_with(groups_prefix)) {
        variant.mode = "groups";
        variant.k = parse_group_size(rest.substr(groups_prefix.size()), text);
        return variant;
    }
    // Topology awareness restricts where friends are sought; the other modes seek none.
    if (rest.empty() || rest == "native" || rest == "off" || rest == "groups" ||
        (variant.aware && rest != "pairs" && rest != "auto"))
        bad_variant(text);
    variant.mode = rest;
    return variant;
}

MPI_Info variant_hints(const Variant& variant, const LibrarySettings& settings) {
    MPI_Info info = MPI_INFO_NULL;
    MPI_Info_create(&info);
    if (variant.is_native()) {
        set(info, "nbrcomb_mode", "off");
        return info;
    }
    if (!common::library_has_mode(variant.mode)) {
        MPI_Info_free(&info);
        bad_variant(variant.name);
    }
    set(info, "nbrcomb_mode", variant.mode);
    if (variant.k > 0) set(info, "nbrcomb_k", std::to_string(variant.k));
    set(info, "nbrcomb_reorder", variant.reorder ? "on" : "off");
    if (variant.uses_nodes()) set(info, "nbrcomb_node_size", std::to_string(settings.node_size));
    set(info, "nbrcomb_theta", std::to_string(settings.theta));
    set(info, "nbrcomb_topo_aware", variant.aware ? "node" : "0");
    return info;
}

}  // namespace nbrcomb::bench
