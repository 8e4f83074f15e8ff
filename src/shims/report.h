// The summary at MPI_Finalize (NBRCOMB_REPORT).
#pragma once

namespace nbrcomb::detail {

// Sums every process's counters on rank 0 and writes the summary there: to standard error for
// NBRCOMB_REPORT=1, or to a new file <prefix>.<n>.txt that never overwrites an earlier one.
// Collective over MPI_COMM_WORLD; does nothing when the report is off.
int write_report();

}  // namespace nbrcomb::detail
