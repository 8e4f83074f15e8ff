// The library builds with hidden visibility; only MPI_* and nbrcomb_* symbols are exported.
#pragma once

#define NBRCOMB_EXPORT extern "C" __attribute__((visibility("default")))
