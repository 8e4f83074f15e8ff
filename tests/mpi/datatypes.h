// The datatypes the tests send: predefined ones and derived ones with holes, strides,
// reordered blocks, type maps out of memory order and changed extents, in pairs whose type
// signatures match.
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>
#include <vector>

namespace nbrcomb::test {

// Types with matching signatures: send_per_unit elements of send carry the same basic values
// as recv_per_unit elements of recv, so n units travel as counts n * send_per_unit and
// n * recv_per_unit.
struct TypePair {
    std::string name;
    MPI_Datatype send;
    int send_per_unit;
    MPI_Datatype recv;
    int recv_per_unit;
};

// Commits the derived types on construction and frees them on destruction.
class TypeCatalog {
public:
    TypeCatalog();
    ~TypeCatalog();
    TypeCatalog(const TypeCatalog&) = delete;
    TypeCatalog& operator=(const TypeCatalog&) = delete;

    const std::vector<TypePair>& pairs() const { return pairs_; }
    const TypePair& pair(std::string_view name) const;

private:
    MPI_Datatype keep(MPI_Datatype type);

    std::vector<MPI_Datatype> owned_;
    std::vector<TypePair> pairs_;
};

MPI_Aint extent_of(MPI_Datatype type);

// Bytes that count elements of type touch from the start of their buffer (all types here
// have no data below their start).
MPI_Aint span_of(MPI_Datatype type, int count);

}  // namespace nbrcomb::test
