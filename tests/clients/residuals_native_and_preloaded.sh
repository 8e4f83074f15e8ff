#!/bin/sh
# residuals_native_and_preloaded.sh PYTHON SCRIPT LIBRARY MPIEXEC...
#
# Runs the solver SCRIPT natively, then with LIBRARY preloaded under each setting below, and
# checks that every run prints the same residual history and solution norm, digit for digit:
# the data each exchange moves is the same, so the arithmetic is.
set -eu
python=$1 script=$2 library=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$@" "$python" "$script" >"$work/native.txt"
grep -q '^residual=' "$work/native.txt" || { echo "FAILED: the native run printed no residuals"; exit 1; }
echo "native: $(grep -c '^residual=' "$work/native.txt") residuals"
status=0
for settings in "" "NBRCOMB_LAZY=1" "NBRCOMB_LAZY=0" "NBRCOMB_MODE=pairs NBRCOMB_THETA=1" \
                "NBRCOMB_MODE=groups NBRCOMB_THETA=1 NBRCOMB_K=3" "NBRCOMB_MODE=aggregate NBRCOMB_NODE_SIZE=2" \
                "NBRCOMB_MODE=direct"; do
  exports=
  for setting in $settings; do exports="$exports -x $setting"; done
  # shellcheck disable=SC2086
  "$@" -x LD_PRELOAD="$library" $exports "$python" "$script" >"$work/preloaded.txt"
  if cmp -s "$work/native.txt" "$work/preloaded.txt"; then
    echo "preloaded with ${settings:-the default settings}: the same residual history"
  else
    echo "FAILED: preloaded with ${settings:-the default settings}, the residual history differs:"
    diff "$work/native.txt" "$work/preloaded.txt" | head -5
    status=1
  fi
done
exit $status
