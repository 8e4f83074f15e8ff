#include "topology/spec.h"

#include "common/split.h"
#include "topology/mesh.h"

#include <charconv>
#include <stdexcept>
#include <vector>

namespace nbrcomb::topology {

namespace {

// The whole field as a number, or an error naming the spec and the field.
template <class T>
T number(const std::string& field, const std::string& what, const std::string& text) {
    T value{};
    const char* end = field.data() + field.size();
    const auto [stop, error] = std::from_chars(field.data(), end, value);
    if (field.empty() || error != std::errc() || stop != end)
        throw std::invalid_argument("topology '" + text + "': " + what + " '" + field + "' is not a number");
    return value;
}

WeightedGraphs generate_in_order(const TopologySpec& spec, int processes) {
    switch (spec.kind) {
    case TopologySpec::Kind::moore:
        return {moore(processes, spec.dims, spec.radius), {}};
    case TopologySpec::Kind::von_neumann:
        return {von_neumann(processes, spec.dims, spec.radius), {}};
    case TopologySpec::Kind::erdos_renyi:
        return {erdos_renyi(processes, spec.density, spec.seed), {}};
    case TopologySpec::Kind::complete:
        return {complete(processes), {}};
    case TopologySpec::Kind::matrix:
        return {matrix_halo(spec.path, processes), {}};
    case TopologySpec::Kind::mesh:
        return mesh_level_exchange(spec.cells, spec.level, spec.seed, processes);
    }
    throw std::logic_error("unknown topology kind");
}

}  // namespace

TopologySpec parse_topology(const std::string& text) {
    const std::string shuffled_prefix = "shuffled:";
    if (text.starts_with(shuffled_prefix)) {
        TopologySpec spec = parse_topology(text.substr(shuffled_prefix.size()));
        if (spec.shuffled) throw std::invalid_argument("topology '" + text + "': shuffled twice");
        spec.shuffled = true;
        spec.text = text;
        return spec;
    }
    TopologySpec spec;
    spec.text = text;
    const std::string kind = text.substr(0, text.find(':'));
    if (kind == "matrix") {
        if (text.size() <= kind.size() + 1) throw std::invalid_argument("topology '" + text + "': no matrix file");
        spec.kind = TopologySpec::Kind::matrix;
        spec.path = text.substr(kind.size() + 1);  // a path may hold ':' itself
        return spec;
    }
    if (text == "complete") {
        spec.kind = TopologySpec::Kind::complete;
        return spec;
    }
    const std::vector<std::string> fields = bench::split(text, ':');
    if (kind == "moore" || kind == "vonneumann") {
        if (fields.size() != 3) throw std::invalid_argument("topology '" + text + "': expected " + kind + ":D:R");
        spec.kind = kind == "moore" ? TopologySpec::Kind::moore : TopologySpec::Kind::von_neumann;
        spec.dims = number<int>(fields[1], "dimension", text);
        spec.radius = number<int>(fields[2], "radius", text);
        if (spec.dims < 1 || spec.radius < 1)
            throw std::invalid_argument("topology '" + text + "': dimension and radius must be at least 1");
        return spec;
    }
    if (kind == "er") {
        if (fields.size() != 2 && fields.size() != 3)
            throw std::invalid_argument("topology '" + text + "': expected er:DENSITY or er:DENSITY:SEED");
        spec.kind = TopologySpec::Kind::erdos_renyi;
        spec.density = number<double>(fields[1], "density", text);
        if (!(spec.density >= 0.0 && spec.density <= 1.0))
            throw std::invalid_argument("topology '" + text + "': density must lie in [0, 1]");
        if (fields.size() == 3) spec.seed = number<std::uint64_t>(fields[2], "seed", text);
        return spec;
    }
    if (kind == "mesh" || kind == "amg") {
        if (!mesh_partitioning_built)
            throw std::invalid_argument("topology '" + text +
                                        "': meshes are partitioned with METIS, which this build lacks");
        const std::size_t seed_field = kind == "mesh" ? 2 : 3;
        if (fields.size() != seed_field && fields.size() != seed_field + 1)
            throw std::invalid_argument("topology '" + text + "': expected " +
                                        (kind == "mesh" ? "mesh:CELLS[:SEED]" : "amg:CELLS:LEVEL[:SEED]"));
        spec.kind = TopologySpec::Kind::mesh;
        spec.cells = number<int>(fields[1], "cell count", text);
        if (kind == "amg") spec.level = number<int>(fields[2], "level", text);
        if (fields.size() > seed_field) spec.seed = number<std::uint64_t>(fields[seed_field], "seed", text);
        if (spec.cells < 5 || spec.level < 0)
            throw std::invalid_argument("topology '" + text + "': a mesh needs at least 5 cells and a level of 0 or more");
        return spec;
    }
    throw std::invalid_argument("topology '" + text + "': unknown kind '" + kind +
                                "' (moore:D:R, vonneumann:D:R, er:DENSITY[:SEED], complete, matrix:PATH, "
                                "mesh:CELLS[:SEED], amg:CELLS:LEVEL[:SEED], each with a prefix shuffled:)");
}

Graphs generate(const TopologySpec& spec, int processes) { return generate_weighted(spec, processes).graphs; }

WeightedGraphs generate_weighted(const TopologySpec& spec, int processes) {
    WeightedGraphs topology = generate_in_order(spec, processes);
    if (!spec.shuffled) return topology;
    if (!topology.blocks.empty()) throw std::invalid_argument("topology '" + spec.text + "': a mesh cannot be shuffled");
    return {shuffle_ranks(topology.graphs, spec.seed), {}};
}

}  // namespace nbrcomb::topology
