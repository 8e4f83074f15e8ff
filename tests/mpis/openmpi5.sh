#!/usr/bin/env bash
# The library against Open MPI 5.0 beside Debian 12's 4.1, in one command:
#   tests/mpis/openmpi5.sh [WORK_DIR]
# Gets Open MPI 5.0.7's source (Debian's package for its next release, trixie: a deb-src line for
# it is added where apt has none), builds it into WORK_DIR/prefix (build-mpi.sh: 30 to 60 minutes
# the first time, kept after), builds the library and its tests against it in WORK_DIR/build, and
# runs the MPI tests at up to 4 ranks, linked and preloaded (Fortran included), the fuzzer in every
# mode, and the clients that can run against it; then prints a row for README.md's table of what is
# tested. WORK_DIR defaults to build-ompi5 in the source tree. Needs root for apt.
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

passed=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$work/ctest.log" || true)
fuzzed=$(awk 'NF == 5 && $2 ~ /^[0-9]+$/ {cases += $2; bad += $3 + $4 + $5}
              END {print cases " cases, " bad " failed, hung or crashed"}' "$work/fuzz.log")
echo
echo "| Open MPI $version (built here) | $passed | fuzzer: $fuzzed | clients: Debian's mpi4py, petsc4py and DOLFINx are built against 4.1 and do not load into 5.0 | $(git -C "$source_tree" rev-parse --short HEAD) |"
[[ $suite_status -eq 0 && $fuzz_status -eq 0 ]]
