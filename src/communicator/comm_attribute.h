// What the library caches on a communicator: an MPI attribute pointing to a box of its own, under
// one keyval for the process made at first use, whose callbacks copy the box to a duplicate and
// free it with the communicator.
#pragma once

#include <mpi.h>

namespace nbrcomb::detail {

template <MPI_Comm_copy_attr_function* copy_box, MPI_Comm_delete_attr_function* delete_box>
struct CommAttribute {
    static int keyval() {
        static const int value = [] {
            int created = MPI_KEYVAL_INVALID;
            PMPI_Comm_create_keyval(copy_box, delete_box, &created, nullptr);
            return created;
        }();
        return value;
    }

    // The box comm carries, or nullptr for none (and for MPI_COMM_NULL).
    static void* find(MPI_Comm comm) {
        void* box = nullptr;
        int found = 0;
        if (comm == MPI_COMM_NULL || PMPI_Comm_get_attr(comm, keyval(), &box, &found) != MPI_SUCCESS || !found)
            return nullptr;
        return box;
    }
};

}  // namespace nbrcomb::detail
