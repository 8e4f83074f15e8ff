#!/usr/bin/env bash
# From a fresh Debian 12 machine to a side-by-side run of the example job, natively and with
# libnbrcomb preloaded: installs what is missing, builds into build/, runs both, compares; then
# the same kind of exchange on 256 processes of a simulated cluster (bench/smpi/, SIMULATE=0: not).
#
#   NP=8 MATRIX=SmaGri bench/run-demo.sh          environment: NP (4), MATRIX, KERNEL (spmv|stencil), ITERATIONS,
#                                                 RUNS (5: native and library runs alternate, medians of their medians)
#   NBRCOMB_MODE=direct bench/run-demo.sh --block 8   NBRCOMB_* reach the library; arguments go to the job
#   NBRCOMB_REORDER=on NBRCOMB_NODE_SIZE=4 NP=16 KERNEL=stencil bench/run-demo.sh --reorder 1
#                                                 reorder=1: the library renumbers the ranks, the job
#                                                 takes each new rank's part (native MPI keeps them)
#
# Exits non-zero when the two runs' checksums differ.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

.ci/setup-debian.sh
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

echo "Building into build/ (log: build/demo-build.log)"
mkdir -p build
if ! { cmake -S . -B build -DNBRCOMB_BUILD_BENCH=ON &&
       cmake --build build -j2 --target nbrcomb nbrcomb_halo_job; } >build/demo-build.log 2>&1; then
  tail -n 40 build/demo-build.log >&2
  echo "run-demo.sh: build failed, see build/demo-build.log" >&2
  exit 1
fi

# Launch with the MPI the project was built against, the processes bound to the cores: unbound, who
# shares a core changes as Linux moves them, and a call's latency with it by half.
cache() { sed -n "s/^$1:[A-Z]*=//p" build/CMakeCache.txt; }
mpiexec=$(cache MPIEXEC_EXECUTABLE)
library=$root/build/lib/libnbrcomb.so
np=${NP:-4}
if [[ $(cache NBRCOMB_MPI_IS_OPEN_MPI) == 1 ]]; then
  launch=("$mpiexec" -np "$np" --oversubscribe --bind-to core:overload-allowed)
  preload=(-x "LD_PRELOAD=$library")
  for name in $(compgen -e); do
    [[ $name == NBRCOMB_* ]] && preload+=(-x "$name")
  done
else
  # Hydra passes the whole environment, NBRCOMB_* included.
  launch=("$mpiexec" -n "$np" -bind-to core)
  preload=(-genv LD_PRELOAD "$library")
fi

job=(build/bin/nbrcomb_halo_job --kernel "${KERNEL:-spmv}" --iterations "${ITERATIONS:-200}")
[[ -n ${MATRIX:-} ]] && job+=(--matrix "$MATRIX")
job+=("$@")

# The machine's load drifts between runs: native and library runs alternate, and the latencies
# shown are the medians of the runs' medians.
runs=${RUNS:-5}
echo "Running $runs times each, alternating:"
echo "  ${launch[*]} ${job[*]}"
echo "  ${launch[*]} ${preload[*]} ${job[*]}"
for ((run = 1; run <= runs; ++run)); do
  "${launch[@]}" "${job[@]}" >"build/demo-native.$run.txt"
  "${launch[@]}" "${preload[@]}" "${job[@]}" >"build/demo-nbrcomb.$run.txt"
done
cp "build/demo-native.$runs.txt" build/demo-native.txt
cp "build/demo-nbrcomb.$runs.txt" build/demo-nbrcomb.txt
# median_of SIDE KEY: the median over the runs of one side's KEY
median_of() {
  for ((run = 1; run <= runs; ++run)); do sed -n "s/^$2=//p" "build/demo-$1.$run.txt"; done |
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
checksums=$(for ((run = 1; run <= runs; ++run)); do sed -n "s/^checksum=//p" build/demo-*."$run".txt; done | sort -u)

field() { sed -n "s/^$2=//p" "build/demo-$1.txt"; }
row() { printf '%-28s %-20s %s\n' "$1" "$(field native "$2")" "$(field nbrcomb "$2")"; }

if [[ $(field nbrcomb library) == none ]]; then
  echo "run-demo.sh: the job did not see libnbrcomb under LD_PRELOAD" >&2
  exit 1
fi
case $(field native kernel) in
  spmv) problem="spmv on $(field native matrix) ($(field native rows) rows, $(field native nonzeros) nonzeros)" ;;
  *) problem="stencil on a $(field native grid) process grid, $(field native block)^2 cells each" ;;
esac
echo
echo "$problem, $(field native ranks) ranks, $(field native edges) edges"
echo "$(field native calls) calls ($(field native warmup) warmup); library $(field nbrcomb library), mode $(field nbrcomb library_mode), on rank 0 $(field nbrcomb library_calls) calls run by it and $(field nbrcomb library_native_calls) left to native MPI"
echo
printf '%-28s %-20s %s\n' "" native nbrcomb
row checksum checksum
row "messages / call / rank" messages_per_call_per_rank
row "  max over ranks" messages_per_call_per_rank_max
row "bytes / call / rank" bytes_per_call_per_rank
native_median=$(median_of native latency_median_us) library_median=$(median_of nbrcomb latency_median_us)
printf '%-28s %-20s %s\n' "median latency [us]" "$native_median" "$library_median"
printf '%-28s %-20s %s\n' "min latency [us]" "$(median_of native latency_min_us)" "$(median_of nbrcomb latency_min_us)"
awk -v n="$native_median" -v l="$library_median" \
  'BEGIN { printf "%-28s %.2f\n", "median ratio nbrcomb/native", (n > 0 ? l / n : 0) }'
if [[ -n $(field nbrcomb reordered) ]]; then
  echo
  echo "rank reordering (reorder=1): new ranks $([[ $(field nbrcomb reordered) == 1 ]] && echo yes || echo "no (none was better)");" \
       "edge weight between nodes $(field nbrcomb edge_weight_between_nodes_before) -> $(field nbrcomb edge_weight_between_nodes_after);" \
       "bytes between nodes / call / rank $(field nbrcomb bytes_between_nodes_per_call_per_rank_before) ->" \
       "$(field nbrcomb bytes_between_nodes_per_call_per_rank_after)"
fi
echo
if [[ $(wc -l <<<"$checksums") == 1 ]]; then
  echo "results agree: yes"
else
  echo "results agree: NO (outputs in build/demo-native.*.txt and build/demo-nbrcomb.*.txt)"
  exit 1
fi

# What the library buys where a message costs what it costs between the nodes of a cluster: the
# same kind of exchange on 256 simulated processes (bench/smpi/). SIMULATE=0 leaves it out.
[[ ${SIMULATE:-1} == 0 ]] && exit 0
echo
echo "The same kind of exchange on a simulated cluster: SimGrid SMPI, 16 nodes of 16 cores whose"
echo "per-message costs are calibrated on TACC Stampede's InfiniBand (bench/smpi/README.md);"
echo "256 processes, Moore (2,2) stencil (24 neighbors each), allgather of 4 B (log: build/demo-smpi.log)"
if ! NBRCOMB_LOG=2 bench/smpi/run.sh --quick >build/demo-smpi.csv 2>build/demo-smpi.log; then
  tail -n 20 build/demo-smpi.log >&2
  echo "run-demo.sh: the simulation failed, see build/demo-smpi.log" >&2
  exit 1
fi
# run.sh's columns: topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,
# message_ratio,pattern_seconds,valid
smpi() { awk -F, -v variant="$1" -v column="$2" 'NR > 1 && $6 == variant { print $column }' build/demo-smpi.csv; }
candidate=$(sed -n 's/.*auto: candidate \([a-z]*\) .*/\1/p' build/demo-smpi.log | head -n 1)
decision=$(sed -n 's/.*auto: neighbor_allgather blocking, [^:]*: \([a-z]*\).*/\1/p' build/demo-smpi.log | head -n 1)
echo
printf '%-28s %-24s %s\n' "" "one message per edge" "nbrcomb, default settings"
printf '%-28s %-24s %s\n' "" "(Open MPI, MPICH)" "(after Phase 1 and trial)"
printf '%-28s %-24.2f %.2f\n' "latency per call [us]" "$(smpi direct 7)" "$(smpi auto 7)"
printf '%-28s %-24.2f %.2f\n' "messages, relative" "$(smpi direct 9)" "$(smpi auto 9)"
printf '%-28s %.2f\n' "ratio nbrcomb/native" "$(smpi auto 8)"
case $candidate in
  aggregate) chose="node aggregation (paper 003)" ;;
  pairs) chose="pairs of friends (paper 000)" ;;
  dimwise) chose="dimension-wise combining over the stencil's grid" ;;
  forward) chose="store-and-forward over a virtual grid" ;;
  global) chose="the MPI's global collective" ;;
  *) chose="nothing to combine" ;;
esac
printf '%-28s %s\n' "auto chose" "$chose, then ${decision:-native} for this call shape"
if [[ $(awk -F, 'NR > 1 && $11 != 1' build/demo-smpi.csv) ]]; then
  echo "simulated results valid: NO (build/demo-smpi.csv)"
  exit 1
fi
echo "simulated results valid: yes"
