#include "src/base/error_handler.h"

#include "schedule/mpi_features.h"

namespace nbrcomb::detail {

int raise_error(MPI_Comm comm, int err) {
    if constexpr (!mpi_calls_predefined_error_handlers) {
        MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
        PMPI_Comm_get_errhandler(comm, &handler);
        if (handler == MPI_ERRORS_RETURN) return err;
        if (handler == MPI_ERRORS_ARE_FATAL) PMPI_Abort(comm, err);
    }
    PMPI_Comm_call_errhandler(comm, err);
    return err;
}

}  // namespace nbrcomb::detail
