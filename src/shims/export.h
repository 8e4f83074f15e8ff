// The library builds with hidden visibility; only MPI_* and nbrcomb_* symbols are exported.
#pragma once

#define NBRCOMB_EXPORT extern "C" __attribute__((visibility("default")))

// A parenthesized list without its parentheses: the parameter lists of
// src/base/neighbor_collectives.def.
#define NBRCOMB_UNPAREN(...) __VA_ARGS__
