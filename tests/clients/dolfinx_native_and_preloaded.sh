#!/bin/sh
# dolfinx_native_and_preloaded.sh PYTHON SCRIPT LIBRARY MPIEXEC...
#
# Runs the DOLFINx program natively, then with LIBRARY preloaded and its default settings, and
# checks what a user would: the same solution (to 1e-9 relative: DOLFINx's mesh partitioning
# varies in the last digits between runs, natively too), and no more messages in total, Phase 1
# included, than native MPI sends (the library's report at MPI_Finalize counts both).
# shellcheck source=dolfinx_common.sh
. "$(dirname "$0")/dolfinx_common.sh"

"$@" "$python" "$script" >"$work/native.txt"
"$@" -x LD_PRELOAD="$library" -x NBRCOMB_REPORT="$work/report" "$python" "$script" >"$work/preloaded.txt"
report=$work/report.0.txt
cat "$report"

native=$(norm "$work/native.txt") preloaded=$(norm "$work/preloaded.txt")
echo "solution norm: native $native, preloaded $preloaded"
sent=$(sent "$report") native_sent=$(native_sent "$report")
awk -v a="$native" -v b="$preloaded" -v sent="$sent" -v native_sent="$native_sent" 'BEGIN {
  if (a == "" || b == "") { print "FAILED: a run printed no norm"; exit 1 }
  d = (a - b) / a; if (d < 0) d = -d
  if (d > 1e-9) { printf "FAILED: the solutions differ by %g relative\n", d; exit 1 }
  if (sent == "" || sent + 0 > native_sent + 0) {
    printf "FAILED: %s messages sent preloaded, %s natively\n", sent, native_sent; exit 1 }
  printf "messages, Phase 1 included: %d preloaded, %d native MPI\n", sent, native_sent
}'
