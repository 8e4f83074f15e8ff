#!/bin/sh
# run-client.sh PYTHON MODULE... -- COMMAND...
#
# Runs COMMAND (mpiexec with a client program), or, when PYTHON is missing or cannot import one
# of the MODULEs, says why and exits 77, which the client tests declare as SKIP_RETURN_CODE.
# Checking here, before mpiexec starts, gives one clear line instead of a failure on every rank.
set -u
python=$1
shift
modules=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  modules="$modules $1"
  shift
done
[ $# -gt 0 ] && shift

skip() {
  echo "SKIPPED: $*"
  exit 77
}

command -v "$python" >/dev/null 2>&1 ||
  skip "no Python interpreter '$python' (Debian: apt-get install python3)"
for module in $modules; do
  case $module in
    mpi4py)
      # Without initializing MPI: the library version says which MPI mpi4py is built on, and
      # preloading a library built on Open MPI into another MPI's process cannot work.
      check='import mpi4py; mpi4py.rc.initialize = False; from mpi4py import MPI
version = MPI.Get_library_version().split(",")[0]
if not version.startswith("Open MPI"):
    raise SystemExit("mpi4py is built on " + version + ", this build on Open MPI")'
      package=python3-mpi4py ;;
    petsc4py)
      check='import petsc4py; petsc4py.get_config()'
      package="python3-petsc4py; PETSC_DIR is '${PETSC_DIR:-}', configured by NBRCOMB_CLIENT_PETSC_DIR" ;;
    *)
      check="import $module"
      package="python3-$module" ;;
  esac
  if ! output=$("$python" -c "$check" 2>&1); then
    skip "$python cannot use $module: $(printf '%s\n' "$output" | tail -n 1) (Debian: apt-get install $package)"
  fi
done
exec "$@"
