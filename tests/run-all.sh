#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs CTest twice, in build/
# and in build-asan/ (AddressSanitizer and UBSan, benchmarks off). Fails if either suite fails.
set -euo pipefail
cd "$(dirname "$0")/.."

.ci/setup-debian.sh
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# Both suites run even when the first fails, so one run shows every failure.
failed=()
suite() {
  local dir=$1
  shift
  echo "== $dir: configure, build, test"
  if cmake -S . -B "$dir" "$@" && cmake --build "$dir" -j2 &&
     ctest --test-dir "$dir" --output-on-failure --no-tests=error --timeout 300 -j2; then
    return
  fi
  failed+=("$dir")
}
suite build
suite build-asan -DNBRCOMB_SANITIZE=ON -DNBRCOMB_BUILD_BENCH=OFF

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "run-all.sh: failed in ${failed[*]}" >&2
  exit 1
fi
