// Random derived datatypes with a given type signature: the two ends of an edge realize the
// same sequence of basic elements with layouts of their own, so that the collective has to
// deliver by signature, not by memory image.
#pragma once

#include "random.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace nbrcomb::fuzz {

// A unit of 1..4 basic elements (MPI_CHAR, MPI_SHORT, MPI_INT, MPI_DOUBLE, MPI_LONG_LONG). A
// block of n units is a type signature both ends can realize in their own ways.
struct Signature {
    std::vector<MPI_Datatype> elements;
};
Signature random_signature(Random& random);
std::string describe(const Signature& unit);

// Receive types never touch a byte twice; send types may (the same element sent twice).
enum class Side { send, receive };

// A committed datatype and how it was built: from what, and from which draws, so that the same
// construction can be made again under a handle of its own (remade_layout).
struct Layout {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    bool derived = false;  // predefined types are not freed
    std::string text;
    Signature unit;
    int repeats = 1;
    Side side = Side::send;
    std::uint64_t draws = 0;
};

// A committed datatype whose type signature is unit repeated `repeats` times (repeats >= 1),
// laid out at random: contiguous, vectors with gaps and negative strides, indexed and hindexed
// blocks permuted in memory (type map out of memory order), indexed_block, structs with their
// fields backwards or nested types as fields, subarrays, resized with a lower lower bound and a
// larger extent, dups, nested up to three levels; on the send side also repeated
// displacements and overlapping extents. The predefined type where unit is one element and
// repeats is 1, now and then. The intermediate types are freed once the result is committed.
Layout random_layout(const Signature& unit, int repeats, Side side, Random& random);

// A new datatype built as layout was, with the same type map: what a program that makes its
// types afresh for every call passes.
Layout remade_layout(const Layout& layout);

// The free'd layout has type MPI_DATATYPE_NULL.
void free_layout(Layout& layout);

// The bytes count elements of type touch, relative to the buffer's address: [low, high),
// empty for count 0.
struct Span {
    MPI_Aint low = 0, high = 0;
};
Span span_of(MPI_Datatype type, int count);
MPI_Aint extent_of(MPI_Datatype type);

// value rounded up to a multiple of granule (> 0), negative values included: where layouts place
// blocks.
MPI_Aint round_up(MPI_Aint value, MPI_Aint granule);

}  // namespace nbrcomb::fuzz
