# Sourced by the nbrbench_*.sh tests, whose arguments are MPIEXEC ARGUMENT... -- NBRBENCH: sets
# launcher (the mpiexec command line), nbrbench, and csv, a temporary file removed at exit.
launcher=()
while [[ $# -gt 0 && $1 != -- ]]; do launcher+=("$1"); shift; done
[[ $# -eq 2 ]] || { echo "usage: $0 MPIEXEC ARGUMENT... -- NBRBENCH" >&2; exit 2; }
nbrbench=$2
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
