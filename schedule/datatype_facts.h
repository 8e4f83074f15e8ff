// What the library needs to know of a datatype, decided once per datatype from its constructor's
// arguments (MPI_Type_get_envelope and MPI_Type_get_contents) and kept with it as an attribute.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

namespace nbrcomb::detail {

struct DatatypeFacts {
    // Tells the datatype apart from every other while it lives: a datatype freed and created
    // again under the same handle gets another one, so a schedule cached for the old one is
    // never taken for the new one. A duplicate gets its own.
    std::uint64_t identity = 0;
    // Lives as long as the MPI and is never freed: a named type or a Fortran kind's, never a
    // duplicate of one (which the program frees like any derived type).
    bool predefined = false;
    // The type map is one gap-free run of bytes in memory order, so that its bytes can be
    // moved with memcpy. Size and extent alone never show it: a type map may list the bytes of
    // a dense block out of order (an indexed or struct type whose blocks are listed backwards),
    // and MPI sends them in type-map order.
    bool plain = false;
    MPI_Aint start = 0;   // of that run, from the datatype's origin (the true lower bound)
    MPI_Aint size = 0;    // bytes of data
    MPI_Aint extent = 0;  // distance from one element to the next
};

// The facts of a committed datatype (or of one the MPI predefines); MPI_DATATYPE_NULL has none
// and must not be asked.
DatatypeFacts datatype_facts(MPI_Datatype type);

// Where count elements of type form one gap-free run of bytes in type-map order: the offset of its
// first byte from the block's address.
std::optional<MPI_Aint> contiguous_start(int count, MPI_Datatype type);

}  // namespace nbrcomb::detail
