#!/usr/bin/env bash
# The schedules the library builds, as NBRCOMB_LOG=3 prints them, for a fixed set of topologies,
# algorithms and collectives at 4 ranks, compared byte for byte with a committed listing: a change
# meant to keep behavior (a move, a rename, a cleanup) must leave every message, copy and offset
# where it was. A change meant to alter schedules regenerates the listing and commits the diff:
#   UPDATE_SCHEDULES_GOLDEN=1 ctest -R schedules_golden
#
#   schedules_golden.sh GOLDEN MPIEXEC ARGUMENT... -- NBRBENCH
set -euo pipefail
golden=$1
shift
# shellcheck source=nbrbench_launcher.sh
source "$(dirname "$0")/nbrbench_launcher.sh"
output=$(mktemp -d)
listing=$(mktemp)
trap 'rm -rf "$csv" "$output" "$listing"' EXIT

# Each rank's standard error in a file of its own (Open MPI's launcher), so that no two ranks'
# lines interleave. Every algorithm of the table but auto, whose choice depends on timing; the
# random graph and the mesh have fixed seeds.
# Open MPI copies the ranks' output to its own too: kept apart, shown if the run fails.
if ! NBRCOMB_LOG=3 "${launcher[@]}" --output-filename "$output" -x NBRCOMB_LOG "$nbrbench" \
  --topology moore:2:1,er:0.5,mesh:4000 --collective allgather,allgatherv,alltoall,alltoallv,alltoallw \
  --form blocking --bytes 8 --variant direct,pairs,groups:4,aggregate,dimwise,forward,global \
  --theta 1 --node-size 2 --runs 1 --reps 1 --warmup 0 >"$csv" 2>"$listing"; then
  cat "$listing" >&2
  exit 1
fi

# Per rank, in rank order, every schedule block: its header line (the log prefix kept) to the
# blank line that ends it.
for rank in 0 1 2 3; do
  stderr=$(find "$output" -path "*rank.$rank/*" -name stderr)
  [[ -n $stderr ]] || { echo "schedules_golden: no standard error of rank $rank under $output" >&2; exit 1; }
  awk '/^nbrcomb\[[0-9]+\]: neighbor_[a-z]+ schedule:/ { block = 1 }
       block { print }
       block && $0 == "" { block = 0 }' "$stderr"
done >"$listing"

blocks=$(grep -c ' schedule: ' "$listing" || true)
if [[ ${UPDATE_SCHEDULES_GOLDEN:-0} == 1 ]]; then
  cp "$listing" "$golden"
  echo "schedules_golden: wrote $blocks schedules to $golden"
  exit
fi
if ! diff -u "$golden" "$listing" >&2; then
  echo "schedules_golden: the schedules differ from $golden (above: - committed, + now)" >&2
  exit 1
fi
echo "schedules_golden: $blocks schedules identical to $golden"
