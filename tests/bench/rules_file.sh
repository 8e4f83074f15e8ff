#!/usr/bin/env bash
# Auto mode's rules file: a first run writes the decisions of its trials and estimates
# (NBRCOMB_RULES_OUT); a second run reads them (NBRCOMB_RULES) and takes them without a trial: its
# report counts decisions from rules and no trial call, a line that is no rule is left out with one
# log line, and every row of both runs delivers what MPI prescribes.
#
#   rules_file.sh MPIEXEC ARGUMENT... -- NBRBENCH
set -euo pipefail
# shellcheck source=nbrbench_launcher.sh
source "$(dirname "$0")/nbrbench_launcher.sh"
dir=$(mktemp -d)
trap 'rm -rf "$csv" "$dir"' EXIT

# Phase 1 in the first call, so that every shape's trial ends within the run's calls.
export NBRCOMB_LAZY=1 NBRCOMB_REPORT=1
run() {
  "${launcher[@]}" "$nbrbench" --topology moore:2:1,er:0.8 --collective allgather,alltoallv \
    --form blocking,nonblocking --bytes 4,4096 --variant auto --runs 6 --reps 10 --warmup 1 >"$csv"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "valid") col = i; next }
           $col != "1" { print "rules_file: wrong data: " $0; exit 1 }' "$csv"
}

NBRCOMB_RULES_OUT=$dir/rules run 2>"$dir/first.log"
rules=$(grep -vc '^#' "$dir/rules") || { echo "rules_file: the first run wrote no rule" >&2; cat "$dir/first.log" >&2; exit 1; }
echo "this line is no rule" >>"$dir/rules"

NBRCOMB_RULES=$dir/rules run 2>"$dir/second.log"
decided=$(grep 'auto mode decided by' "$dir/second.log") || { cat "$dir/second.log" >&2; exit 1; }
echo "rules_file: $rules rules; second run:$decided"
[[ $decided =~ ([0-9]+)\ rules,\ 0\ trial,\ [0-9]+\ estimate\;\ 0\ trial\ calls ]] && ((BASH_REMATCH[1] > 0)) ||
  { echo "rules_file: the second run did not take the rules without trials" >&2; exit 1; }
[[ $(grep -c 'is no rule.*left out\|left out.*is no rule\|rules file .*:[0-9]*:.*left out' "$dir/second.log") -eq 1 ]] ||
  { echo "rules_file: the line that is no rule was not said once" >&2; cat "$dir/second.log" >&2; exit 1; }
