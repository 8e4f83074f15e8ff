#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs CTest four times: in
# build/ (Open MPI), in build-asan/ (Open MPI with AddressSanitizer and UBSan, benchmarks off),
# in build-mpich/ (MPICH, benchmarks off) and in build-smpi/ (the library and nbrbench on a
# simulated cluster, SimGrid SMPI). Fails if any suite fails.
set -euo pipefail
cd "$(dirname "$0")/.."

.ci/setup-debian.sh
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# Every suite runs even when an earlier one fails, so one run shows every failure.
# suite <dir> [<cmake argument>...] [-- <ctest argument>...]
failed=()
suite() {
  local dir=$1
  shift
  local configure=() test=()
  while [[ $# -gt 0 && $1 != -- ]]; do
    configure+=("$1")
    shift
  done
  [[ $# -gt 0 ]] && shift
  test=("$@")
  echo "== $dir: configure, build, test"
  local start=$SECONDS
  if cmake -S . -B "$dir" "${configure[@]}" && cmake --build "$dir" -j2 &&
     ctest --test-dir "$dir" --output-on-failure --no-tests=error --timeout 300 -j2 "${test[@]}"; then
    echo "== $dir: passed in $((SECONDS - start)) s"
    return
  fi
  echo "== $dir: failed after $((SECONDS - start)) s"
  failed+=("$dir")
}
# Every suite is built without debug information, which takes a third of the compile time; a
# failure is reproduced in a build of one's own.
no_debug_info=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG")
suite build "${no_debug_info[@]}"
# Sanitized runs of many ranks take minutes each on 2 cores: the sanitized suite runs up to 4
# ranks, where the tests already form pairs, groups of 4 and nodes of 2 (build/ runs 8 and 16).
# The PatternScale unit tests simulate thousands of processes in one; the smaller unit tests run
# the same code sanitized.
suite build-asan -DNBRCOMB_SANITIZE=ON -DNBRCOMB_BUILD_BENCH=OFF -DNBRCOMB_MPI_TEST_TIMEOUT=300 \
  -DNBRCOMB_MPI_TEST_MAX_RANKS=4 "${no_debug_info[@]}" -- --exclude-regex '^PatternScale\.'
# MPICH busy-polls when oversubscribed, so every rank beyond the 2 cores costs a scheduler
# slice per call: a 4-rank run takes ten times a 2-rank one. Its MPI tests run at up to 3 ranks
# in relink mode, the fewest where processes find friends (the tests of groups of 4 and of
# reordering over nodes of 2, which need 4, run in the other suites); preload mode, whose
# library code is relink mode's, shows at up to 2 ranks that MPICH's calls are intercepted.
# None needs a minute, so a hang fails after 2. The PatternScale unit tests simulate thousands
# of processes in one, without MPI, and already ran twice.
suite build-mpich -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
  -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich -DNBRCOMB_BUILD_BENCH=OFF \
  -DNBRCOMB_MPI_TEST_MAX_RANKS=3 -DNBRCOMB_MPI_TEST_MAX_PRELOAD_RANKS=2 -DNBRCOMB_MPI_TEST_TIMEOUT=120 \
  "${no_debug_info[@]}" -- --exclude-regex '^PatternScale\.'
# SimGrid's SMPI simulates a cluster in one process; its one test checks nbrbench's results there.
suite build-smpi -C bench/smpi/smpi-cache.cmake

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "run-all.sh: failed in ${failed[*]}" >&2
  exit 1
fi
