#include "all_ranks.h"

#include <gtest/gtest.h>

namespace nbrcomb::test {

bool on_all_ranks(bool ok, MPI_Comm comm) {
    int all_ok = ok ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_LAND, comm);
    return all_ok != 0;
}

bool expect_all_ranks(bool ok, std::string_view what, MPI_Comm comm, std::source_location where) {
    if (!ok) ADD_FAILURE_AT(where.file_name(), static_cast<int>(where.line())) << what;
    return on_all_ranks(ok, comm);
}

int error_class(int code) {
    int result = code;
    MPI_Error_class(code, &result);
    return result;
}

int rank_of(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return rank;
}

int size_of(MPI_Comm comm) {
    int size = 0;
    MPI_Comm_size(comm, &size);
    return size;
}

}  // namespace nbrcomb::test
