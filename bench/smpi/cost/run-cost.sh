#!/bin/sh
# What one 24-neighbor exchange costs to simulate: CPU time (user + system) of a run with I
# exchanges minus that of a run with none, divided by I; plus the simulated time per exchange and the
# peak memory of the run.  The simulation is one single-threaded process, so its CPU time is its wall
# time on an idle core.
#   bench/smpi/cost/run-cost.sh NODES CORES BYTES MODE ITERATIONS [extra smpirun options...]
#   e.g. bench/smpi/cost/run-cost.sh 64 16 64 aligned 4
# Environment: PLATFORM (default: build/libnbr_cluster.so), NBR_SMPI_FATPIPE, B (build directory).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$here/build}
nodes=$1 cores=$2 bytes=$3 mode=$4 iters=$5
shift 5
platform=${PLATFORM:-$B/libnbr_cluster.so}
export NBR_SMPI_NODES=$nodes NBR_SMPI_CORES=$cores
hosts=$(mktemp)
i=0
while [ $i -lt "$nodes" ]; do echo "node-$i:$cores"; i=$((i + 1)); done > "$hosts"
np=$((nodes * cores))

measure() { # iterations [smpirun options] -> "cpu_seconds maxrss_kb csv_line"
  it=$1
  shift
  out=$(/usr/bin/time -f "TIME %U %S %M" smpirun -np $np -platform "$platform" -hostfile "$hosts" \
        --log=root.thres:warning "$@" "$B/exchange" -b "$bytes" -m "$mode" -i "$it" 2>&1)
  echo "$out" | awk '/^TIME/ {printf "%.2f %d ", $2 + $3, $4} /^[0-9]+,/ {line = $0} END {print line}'
}
base=$(measure 0 "$@")
full=$(measure "$iters" "$@")
rm -f "$hosts"
echo "$base $full" | awk -v it="$iters" -v np="$np" '{
  split($6, f, ",");
  printf "ranks %d, %s B, %s: %.3f us simulated per exchange; %.2f s CPU per exchange (run with %d: %.1f s, with 0: %.1f s); peak RSS %.0f MB\n",
         np, f[2], f[4], f[5], ($4 - $1) / it, it, $4, $1, $5 / 1024 }'
