#!/bin/sh
# dolfinx_rules.sh PYTHON SCRIPT LIBRARY MPIEXEC...
#
# Auto mode's rules file on an application whose communicators never reach NBRCOMB_LAZY's call
# (DOLFINx makes each for a few calls, and its partitioner draws new graphs every run): a first
# run with Phase 1 in the first call writes the decisions (NBRCOMB_RULES_OUT), a second with the
# default settings reads them (NBRCOMB_RULES). Its report must count decisions from rules and no
# trial call, it must send no more messages than native MPI, and its solution must be the first's
# (to 1e-9 relative, as dolfinx_native_and_preloaded.sh allows).
# shellcheck source=dolfinx_common.sh
. "$(dirname "$0")/dolfinx_common.sh"

"$@" -x LD_PRELOAD="$library" -x NBRCOMB_LAZY=1 -x NBRCOMB_RULES_OUT="$work/rules" \
  "$python" "$script" >"$work/first.txt"
grep -v '^#' "$work/rules"
"$@" -x LD_PRELOAD="$library" -x NBRCOMB_RULES="$work/rules" -x NBRCOMB_REPORT="$work/report" \
  "$python" "$script" >"$work/second.txt"
report=$work/report.0.txt
cat "$report"

first=$(norm "$work/first.txt") second=$(norm "$work/second.txt")
# "auto mode decided by   F forced, R rules, T trial, E estimate; C trial calls"
rules=$(sed -n 's/^ *auto mode decided by *[0-9]* forced, \([0-9]*\) rules.*/\1/p' "$report")
trial_calls=$(sed -n 's/^ *auto mode decided by.*; \([0-9]*\) trial calls.*/\1/p' "$report")
sent=$(sent "$report") native_sent=$(native_sent "$report")
awk -v a="$first" -v b="$second" -v rules="$rules" -v trial_calls="$trial_calls" -v sent="$sent" \
    -v native_sent="$native_sent" 'BEGIN {
  if (a == "" || b == "") { print "FAILED: a run printed no norm"; exit 1 }
  d = (a - b) / a; if (d < 0) d = -d
  if (d > 1e-9) { printf "FAILED: the solutions differ by %g relative\n", d; exit 1 }
  if (rules + 0 == 0 || trial_calls != "0") {
    printf "FAILED: %s decisions from rules, %s trial calls\n", rules, trial_calls; exit 1 }
  if (sent == "" || sent + 0 > native_sent + 0) {
    printf "FAILED: %s messages sent, %s natively\n", sent, native_sent; exit 1 }
  printf "second run: %d decisions from rules, no trial call, %d messages (native MPI: %d)\n", rules, sent, native_sent
}'
