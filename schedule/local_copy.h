// Copies one block to another whose type signature matches, through the MPI's datatype engine.
#pragma once

#include "schedule/schedule.h"

namespace nbrcomb::detail {

// Blocks whose type maps are gap-free runs in memory order (datatype_facts.h) are copied with
// memmove; any other pair of types goes through MPI_Pack into a staging buffer and MPI_Unpack
// out of it, or as a message to this process where those move fewer bytes than the types hold.
// Like a receive, a source longer than the target fails with MPI_ERR_TRUNCATE and writes
// nothing; a shorter one fills the target's leading bytes. Errors are returned, never raised.
int copy_block(const void* from, const Block& from_block, void* to, const Block& to_block);

// Makes the communicator copies go on (a duplicate of MPI_COMM_SELF): once per process, before the
// first copy, which may come inside the MPI's progress engine (src/progress/mpi_progress_hook.h),
// where duplicating a communicator, which waits in the MPI, never returns.
void prepare_local_copies();

}  // namespace nbrcomb::detail
