// The process-wide settings from NBRCOMB_* environment variables, read once after MPI_Init.
#pragma once

#include "src/settings/config.h"

namespace nbrcomb::detail {

// Reads the environment on first use (MPI must be initialized), reports bad values on rank 0
// of MPI_COMM_WORLD, and echoes the settings there at log level info.
const Config& environment_config();

}  // namespace nbrcomb::detail
