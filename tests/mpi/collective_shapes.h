// The calls every topology is tested with: which counts, types and buffer layouts.
#pragma once

#include "datatypes.h"
#include "differential.h"

#include <vector>

namespace nbrcomb::test {

// The shapes of collective's calls (see collective_shapes.cpp).
std::vector<Shape> shapes_for(Collective collective, const TypeCatalog& catalog);

// Collective: every collective in every shape on comm, issued in form (through the large-count
// forms if large_count), compared with native MPI.
void expect_every_shape_matches_native(MPI_Comm comm, Form form = Form::blocking,
                                       Expect expect = Expect::library_runs, bool large_count = false);

}  // namespace nbrcomb::test
