#include "collective_shapes.h"

namespace nbrcomb::test {

namespace {

// MPICH busy-polls when oversubscribed, so that every call costs a scheduler slice: there the
// collectives run the core shapes only.
#ifdef OPEN_MPI
constexpr bool all_shapes = true;
#else
constexpr bool all_shapes = false;
#endif

}  // namespace

// The core shapes: no data; counts varying per edge (some 0) with blocks in reverse order and
// types that differ between the ends; blocks of 14 KB (past the eager limits of the MPIs'
// shared-memory paths) in one buffer for sending and receiving; a different type pair on every
// edge. Then counts 1, 7 and 100 of ints and every type pair.
std::vector<Shape> shapes_for(Collective collective, const TypeCatalog& catalog) {
    const bool edge_arrays = has_edge_arrays(collective);
    const TypePair* ints = &catalog.pair("int");
    std::vector<Shape> shapes{
        {.types = ints, .units = 0},
        {.types = &catalog.pair("ints_to_vector"), .units = 7, .vary = edge_arrays, .reverse = edge_arrays},
        {.types = &catalog.pair("struct_to_packed_struct"),
         .units = 1000,
         .vary = edge_arrays,
         .same_buffer = edge_arrays},
    };
    if (collective == Collective::alltoallw)
        shapes.push_back({.units = 7, .vary = true, .reverse = true, .same_buffer = true, .mixed_types = true});
    if (!all_shapes) return shapes;

    for (const int units : {1, 7, 100}) shapes.push_back({.types = ints, .units = units});
    for (std::size_t i = 0; i < catalog.pairs().size(); ++i)
        shapes.push_back({.types = &catalog.pairs()[i],
                          .units = 7,
                          .vary = edge_arrays,
                          .reverse = edge_arrays && i % 2 == 1,
                          .same_buffer = edge_arrays && i % 3 == 0});
    if (edge_arrays) {
        shapes.push_back({.types = ints, .units = 100, .vary = true, .reverse = true});
        shapes.push_back({.types = ints, .units = 100, .vary = true, .same_buffer = true});
    }
    if (collective == Collective::alltoallw) shapes.push_back({.units = 100, .vary = true, .mixed_types = true});
    return shapes;
}

void expect_every_shape_matches_native(MPI_Comm comm, Form form, Expect expect, bool large_count) {
    const TypeCatalog catalog;
    for (const Collective collective : all_collectives) {
        std::vector<Check> checks;
        for (const Shape& shape : shapes_for(collective, catalog)) {
            Call call = make_call(collective, comm, catalog, shape);
            call.form = form;
            call.large_count = large_count;
            checks.push_back({std::move(call), shape.describe()});
        }
        expect_matches_native(checks, expect);
    }
}

}  // namespace nbrcomb::test
