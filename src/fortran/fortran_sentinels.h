// Where the MPI's Fortran sentinels live. Fortran passes every argument by reference, so
// MPI_UNWEIGHTED, MPI_STATUS_IGNORE, MPI_IN_PLACE … reach a binding as the addresses of variables
// that the MPI's Fortran libraries define, and a binding recognizes them by address.
#pragma once

namespace nbrcomb::detail::fortran {

// Each null when the process has no Fortran MPI library loaded (then no Fortran binding runs).
struct Sentinels {
    const void* bottom;
    const void* in_place;
    const void* unweighted;
    const void* weights_empty;
    const void* status_ignore;
    const void* statuses_ignore;
};

// Looked up once, at the first Fortran call.
const Sentinels& sentinels();

// Whether address is sentinel (never true for a sentinel that was not found).
inline bool is(const void* address, const void* sentinel) { return sentinel != nullptr && address == sentinel; }

}  // namespace nbrcomb::detail::fortran
