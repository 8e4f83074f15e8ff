# Sourced by the dolfinx_*.sh tests, whose arguments are PYTHON SCRIPT LIBRARY MPIEXEC...: sets
# python, script and library, leaves MPIEXEC... as the arguments, makes work (a folder removed at
# exit), and defines norm FILE (the solution norm a run printed) and the report's message counts,
# sent REPORT and native_sent REPORT (all messages, Phase 1 included, and native MPI's).
set -eu
python=$1 script=$2 library=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

norm() { sed -n 's/^norm=//p' "$1"; }
# "all messages, Phase 1 included   SENT (native MPI: NATIVE)"
sent() { sed -n 's/^ *all messages, Phase 1 included *\([0-9]*\) (native MPI: \([0-9]*\)).*/\1/p' "$1"; }
native_sent() { sed -n 's/^ *all messages, Phase 1 included *\([0-9]*\) (native MPI: \([0-9]*\)).*/\2/p' "$1"; }
