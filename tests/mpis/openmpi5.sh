#!/usr/bin/env bash
# The library against Open MPI 5.0 beside Debian 12's 4.1, in one command:
#   tests/mpis/openmpi5.sh [WORK_DIR]
# Gets Open MPI 5.0.7's source (Debian's package for its next release, trixie: a deb-src line for
# it is added where apt has none), builds it into WORK_DIR/prefix (build-mpi.sh: 30 to 60 minutes
# the first time, kept after), builds the library and its tests against it in WORK_DIR/build, and
# runs the MPI tests at up to 4 ranks, linked and preloaded (Fortran included), the fuzzer in every
# mode, and the clients that can run against it (mpi4py where MPI4PY_SOURCE names its source);
# then prints a row for README.md's table of what is tested. WORK_DIR defaults to build-ompi5 in
# the source tree. Needs root for apt.
set -euo pipefail
cd "$(dirname "$0")/../.."
source_tree=$PWD
work=$(realpath -m "${1:-build-ompi5}")
version=5.0.7
mkdir -p "$work"

.ci/setup-debian.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 5.0's PRRTE: as 4.1's mpirun, --oversubscribe for more ranks than cores.
export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe

mpi_source=$work/openmpi-$version
if [[ ! -d $mpi_source ]]; then
  if ! apt-get source --print-uris "openmpi=$version-1" >/dev/null 2>&1; then
    cat > /etc/apt/sources.list.d/nbrcomb-trixie-src.sources <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -q
  fi
  (cd "$work" && apt-get source -q "openmpi=$version-1")
fi
tests/mpis/build-mpi.sh "$mpi_source" "$work/prefix"
prefix=$work/prefix

cmake -S "$source_tree" -B "$work/build" -DMPI_C_COMPILER="$prefix/bin/mpicc" -DMPI_CXX_COMPILER="$prefix/bin/mpicxx" \
  -DMPI_Fortran_COMPILER="$prefix/bin/mpifort" -DMPIEXEC_EXECUTABLE="$prefix/bin/mpiexec" \
  -DNBRCOMB_MPI_TEST_MAX_RANKS=4 -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
cmake --build "$work/build" -j2
# The clients' Python modules are Debian's, built against 4.1: they cannot load into a 5.0 job
# (client.* tests), and the simulated-cluster test needs SimGrid's MPI.
suite_status=0
ctest --test-dir "$work/build" -j2 --output-on-failure --timeout 300 \
  --exclude-regex '^(client\.|nbrbench\.guidelines|PatternScale\.)' | tee "$work/ctest.log" || suite_status=$?

# 100 cases per mode and rank count: 2,200 in all.
fuzz_status=0
PATH="$prefix/bin:$PATH" tests/fuzz/campaign.sh --cases 100 --ranks "3 4" --seed 52 --build "$work/build" \
  | tee "$work/fuzz.log" || fuzz_status=$?

# mpi4py's client: Debian's mpi4py is built against 4.1; an mpi4py 3.1 source tree (a git
# checkout of tag 3.1.4, as Debian 12 ships; 4.x needs a newer Cython than Debian 12's) named by
# MPI4PY_SOURCE is built against 5.0 here and runs the client through the library and natively.
clients="petsc4py: not run (PETSc would have to be built against 5.0)"
if [[ -n ${MPI4PY_SOURCE:-} ]]; then
  apt-get install -y -q cython3 >/dev/null
  rm -rf "$work/mpi4py" && cp -r "$MPI4PY_SOURCE" "$work/mpi4py"
  (cd "$work/mpi4py" && /usr/bin/python3 setup.py -q build_src build_ext --mpicc="$prefix/bin/mpicc" build) >"$work/mpi4py.log" 2>&1
  mpi4py_path=$(ls -d "$work"/mpi4py/build/lib.*)
  client_status=0
  for kind in blocking nonblocking; do
    "$prefix/bin/mpiexec" -n 4 --oversubscribe -x PYTHONPATH="$mpi4py_path" -x LD_PRELOAD="$work/build/lib/libnbrcomb.so" \
      -x NBRCOMB_MODE=pairs -x NBRCOMB_THETA=1 /usr/bin/python3 tests/clients/mpi4py_collectives.py "$kind" library || client_status=1
    "$prefix/bin/mpiexec" -n 4 --oversubscribe -x PYTHONPATH="$mpi4py_path" \
      /usr/bin/python3 tests/clients/mpi4py_collectives.py "$kind" native || client_status=1
  done
  clients="mpi4py 3.1 built here: $( ((client_status == 0)) && echo passed || echo FAILED ); $clients"
else
  clients="mpi4py: not run (set MPI4PY_SOURCE); $clients"
fi

passed=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$work/ctest.log" || true)
fuzzed=$(awk 'NF == 5 && $2 ~ /^[0-9]+$/ {cases += $2; bad += $3 + $4 + $5}
              END {print cases " cases, " bad " failed, hung or crashed"}' "$work/fuzz.log")
echo
echo "| Open MPI $version (built here) | $passed | $fuzzed | $clients | $(git -C "$source_tree" rev-parse --short HEAD) |"
[[ $suite_status -eq 0 && $fuzz_status -eq 0 && ${client_status:-0} -eq 0 ]]
