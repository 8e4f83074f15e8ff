#!/usr/bin/env bash
# From a fresh Debian 12 machine to a side-by-side run of the example job: installs what is
# missing, builds into build/, and launches the job once with libnbrcomb preloaded. That one job
# runs its halo exchange on two communicators of the same graph, one the library manages and one
# made through PMPI_, which it never sees (native MPI), alternating run by run as nbrbench
# measures; it checks that both give the same result bit for bit, and judges the library side
# against native by a one-sided rank-sum test of the run medians (bench/stats/): faster or slower
# at p <= 0.001 and 3 % apart, a tie otherwise. The demo prints both sides, how many calls the
# library ran and how many it left to native MPI, and the verdict with the ratio and p; a ratio
# never comes without its verdict. Then the same kind of exchange on 256 processes of a simulated
# cluster (bench/smpi/; deterministic, so its verdict is the 3 % threshold alone; SIMULATE=0: not).
#
#   NP=8 MATRIX=SmaGri bench/run-demo.sh          environment: NP (4), MATRIX, KERNEL (spmv|stencil),
#                                                 RUNS (20) runs of ITERATIONS/RUNS calls per side (ITERATIONS 1000)
#   NBRCOMB_MODE=direct bench/run-demo.sh --block 8   NBRCOMB_* reach the library; arguments go to the job
#   NBRCOMB_REORDER=on NBRCOMB_NODE_SIZE=4 NP=16 KERNEL=stencil bench/run-demo.sh --reorder 1
#                                                 reorder=1 on both sides: the library renumbers the ranks,
#                                                 native MPI keeps them; each side takes its new rank's part
#
# Exits non-zero when the two sides' results differ.
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

job=(build/bin/nbrcomb_halo_job --kernel "${KERNEL:-spmv}" --iterations "${ITERATIONS:-1000}" --runs "${RUNS:-20}")
[[ -n ${MATRIX:-} ]] && job+=(--matrix "$MATRIX")
job+=("$@")

echo "Running both sides in one job:"
echo "  ${launch[*]} ${preload[*]} ${job[*]}"
status=0
"${launch[@]}" "${preload[@]}" "${job[@]}" >build/demo.txt || status=$?
field() { sed -n "s/^$1=//p" build/demo.txt; }
if [[ -z $(field verdict) ]]; then
  echo "run-demo.sh: the job failed (exit status $status), its output: build/demo.txt" >&2
  exit 1
fi
if [[ $(field library) == none ]]; then
  echo "run-demo.sh: the library was not loaded (LD_PRELOAD=$library): both sides ran native MPI" >&2
  exit 1
fi
row() { printf '%-28s %-20s %s\n' "$1" "$(field "$2_native")" "$(field "$2_library")"; }

case $(field kernel) in
  spmv) problem="spmv on $(field matrix) ($(field rows) rows, $(field nonzeros) nonzeros)" ;;
  *) problem="stencil on a $(field grid) process grid, $(field block)^2 cells each" ;;
esac
library_calls=$(field library_calls)
echo
echo "$problem, $(field ranks) ranks, $(field edges) edges"
echo "each side: $(field warmup) warmup calls, then $(field iterations) timed ones in $(field runs) runs, the sides" \
     "alternating; library $(field library), mode $(field library_mode)"
echo
printf '%-28s %-20s %s\n' "" native nbrcomb
row checksum checksum
row "messages / call / rank" messages_per_call_per_rank
row "  max over ranks" messages_per_call_per_rank_max
row "bytes / call / rank" bytes_per_call_per_rank
row "median latency [us]" latency_median_us
row "min latency [us]" latency_min_us
# Whatever the library did not run went to native MPI, also where it does not manage the communicator.
printf '%-28s %-20s %s\n' "calls run by nbrcomb" - \
  "$library_calls of $(field calls) on rank 0 ($(($(field calls) - library_calls)) left to native MPI)"
if [[ -n $(field reordered) ]]; then
  echo
  echo "rank reordering (reorder=1): new ranks $([[ $(field reordered) == 1 ]] && echo yes || echo "no (none was better)");" \
       "edge weight between nodes $(field edge_weight_between_nodes_before) -> $(field edge_weight_between_nodes_after);" \
       "bytes between nodes / call / rank $(field bytes_between_nodes_per_call_per_rank_before) ->" \
       "$(field bytes_between_nodes_per_call_per_rank_after)"
fi
echo
# The p of the direction the ratio points to; the verdict's thresholds are the job's.
p=$(awk -v r="$(field ratio)" -v f="$(field p_faster)" -v s="$(field p_slower)" 'BEGIN { print (r < 1 ? f : s) }')
echo "verdict: $(field verdict) (ratio $(printf '%.2f' "$(field ratio)"), p = $p): the library ran $library_calls of $(field calls) calls"
if [[ $status -eq 0 && $(field checksum_native) == "$(field checksum_library)" ]]; then
  echo "results agree: yes"
else
  echo "results agree: NO (output in build/demo.txt)"
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
decision=$(sed -n 's/.*auto: neighbor_allgather blocking, [^:]*: \([a-z]*\).*/\1/p' build/demo-smpi.log | head -n 1)
echo
printf '%-28s %-24s %s\n' "" "one message per edge" "nbrcomb, default settings"
printf '%-28s %-24s %s\n' "" "(Open MPI, MPICH)" "(after Phase 1 and trial)"
printf '%-28s %-24.2f %.2f\n' "latency per call [us]" "$(smpi direct 7)" "$(smpi auto 7)"
printf '%-28s %-24.2f %.2f\n' "messages, relative" "$(smpi direct 9)" "$(smpi auto 9)"
case $decision in
  aggregate) chose="node aggregation (paper 003)" ;;
  pairs) chose="pairs of friends (paper 000)" ;;
  dimwise) chose="dimension-wise combining over the stencil's grid" ;;
  forward) chose="store-and-forward over a virtual grid" ;;
  global) chose="the MPI's global collective" ;;
  *) chose="native MPI, one message per edge" ;;
esac
printf '%-28s %s\n' "auto chose" "$chose (the decision of its trial, NBRCOMB_LOG=2)"
# No noise to test against: 3 % apart either way decides, as in the job's verdict.
awk -v r="$(smpi auto 8)" 'BEGIN {
  verdict = r <= 1 / 1.03 ? "faster" : r >= 1.03 ? "slower" : "tie"
  printf "verdict: %s (ratio nbrcomb/native %.2f; simulated, deterministic: within 3 %% is a tie)\n", verdict, r }'
if [[ $(awk -F, 'NR > 1 && $11 != 1' build/demo-smpi.csv) ]]; then
  echo "simulated results valid: NO (build/demo-smpi.csv)"
  exit 1
fi
echo "simulated results valid: yes"
