#include "datatypes.h"

#include <array>
#include <stdexcept>

namespace nbrcomb::test {

TypeCatalog::TypeCatalog() {
    MPI_Datatype type = MPI_DATATYPE_NULL;

    MPI_Type_vector(3, 2, 3, MPI_INT, &type);
    const MPI_Datatype int_vector = keep(type);

    // Blocks listed out of memory order: the data order is the list order.
    const std::array<int, 3> lengths{1, 3, 2}, displacements{5, 0, 9};
    MPI_Type_indexed(3, lengths.data(), displacements.data(), MPI_INT, &type);
    const MPI_Datatype indexed = keep(type);

    // int, double, two chars with holes before, between and after them.
    const std::array<int, 3> field_lengths{1, 1, 2};
    const std::array<MPI_Datatype, 3> field_types{MPI_INT, MPI_DOUBLE, MPI_CHAR};
    const std::array<MPI_Aint, 3> holey{4, 8, 20}, packed{0, 4, 12};
    MPI_Type_create_struct(3, field_lengths.data(), holey.data(), field_types.data(), &type);
    const MPI_Datatype holey_struct = keep(type);
    MPI_Type_create_struct(3, field_lengths.data(), packed.data(), field_types.data(), &type);
    const MPI_Datatype packed_struct = keep(type);

    MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &type);
    const MPI_Datatype spaced_double = keep(type);

    MPI_Type_vector(4, 1, 3, MPI_INT, &type);
    const MPI_Datatype every_third_int = keep(type);

    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &type);
    const MPI_Datatype every_second_double = keep(type);

    // Type maps out of memory order, which MPI sends in type-map order: two ints swapped; a struct
    // whose fields are listed backwards; the swapped ints with a negative lower bound; and, to
    // send only, one int listed twice.
    const std::array<int, 2> ones{1, 1}, swapped{1, 0}, twice{0, 0};
    MPI_Type_indexed(2, ones.data(), swapped.data(), MPI_INT, &type);
    const MPI_Datatype swapped_ints = keep(type);
    const std::array<MPI_Datatype, 2> int_double{MPI_INT, MPI_DOUBLE};
    const std::array<MPI_Aint, 2> backwards{8, 0}, forwards{0, 4};
    MPI_Type_create_struct(2, ones.data(), backwards.data(), int_double.data(), &type);
    const MPI_Datatype backward_struct = keep(type);
    MPI_Type_create_struct(2, ones.data(), forwards.data(), int_double.data(), &type);
    const MPI_Datatype forward_struct = keep(type);
    MPI_Type_indexed(2, ones.data(), swapped.data(), MPI_INT, &type);
    MPI_Datatype uncommitted_swap = type;
    MPI_Type_create_resized(uncommitted_swap, -8, 8, &type);
    MPI_Type_free(&uncommitted_swap);
    const MPI_Datatype swapped_below_lb = keep(type);
    MPI_Type_indexed(2, ones.data(), twice.data(), MPI_INT, &type);
    const MPI_Datatype one_int_twice = keep(type);

    pairs_ = {
        {"int", MPI_INT, 1, MPI_INT, 1},
        {"double", MPI_DOUBLE, 1, MPI_DOUBLE, 1},
        {"char", MPI_CHAR, 1, MPI_CHAR, 1},
        {"vector", int_vector, 1, int_vector, 1},
        {"indexed", indexed, 1, indexed, 1},
        {"struct_with_holes", holey_struct, 1, holey_struct, 1},
        {"resized", spaced_double, 1, spaced_double, 1},
        {"ints_to_vector", MPI_INT, 4, every_third_int, 1},
        {"struct_to_packed_struct", holey_struct, 1, packed_struct, 1},
        {"vector_to_doubles", every_second_double, 1, MPI_DOUBLE, 2},
        {"swapped_to_ints", swapped_ints, 1, MPI_INT, 2},
        {"ints_to_swapped", MPI_INT, 2, swapped_ints, 1},
        {"backward_struct_to_struct", backward_struct, 1, forward_struct, 1},
        {"negative_lb_swapped_to_ints", swapped_below_lb, 1, MPI_INT, 2},
        {"int_twice_to_ints", one_int_twice, 1, MPI_INT, 2},
    };
}

TypeCatalog::~TypeCatalog() {
    for (MPI_Datatype& type : owned_) MPI_Type_free(&type);
}

MPI_Datatype TypeCatalog::keep(MPI_Datatype type) {
    MPI_Type_commit(&type);
    owned_.push_back(type);
    return type;
}

const TypePair& TypeCatalog::pair(std::string_view name) const {
    for (const TypePair& p : pairs_)
        if (p.name == name) return p;
    throw std::out_of_range("no type pair named " + std::string(name));
}

MPI_Aint extent_of(MPI_Datatype type) {
    MPI_Aint lb = 0, extent = 0;
    MPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

MPI_Aint span_of(MPI_Datatype type, int count) {
    if (count == 0) return 0;
    MPI_Aint true_lb = 0, true_extent = 0;
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    return (count - 1) * extent_of(type) + true_lb + true_extent;
}

}  // namespace nbrcomb::test
