#!/usr/bin/env bash
# A long nbrfuzz campaign: every mode at every rank count, thousands of cases in all, against
# Open MPI (build/) or, with --mpich, MPICH (build-mpich/). A case that hangs or crashes ends
# its run; the campaign notes it and goes on from the next case. Prints every failure's
# reproduction line and the totals per mode; exits 1 if any case failed, hung or crashed.
# --build DIR takes the programs from DIR/bin instead.
#
#   tests/fuzz/campaign.sh                       # 200 cases per mode and rank count, ranks 2..8
#   tests/fuzz/campaign.sh --cases 1000 --seed 7 --ranks "3 4" --modes "pairs global"
#   tests/fuzz/campaign.sh --mpich               # ranks 2..4: MPICH busy-polls when oversubscribed
#   tests/fuzz/campaign.sh --native              # nbrfuzz_native: checks the fuzzer against the MPI alone
#
# Open MPI runs with its topo/treematch component off: in Open MPI 4.1 it hangs now and then in
# MPI_Dist_graph_create (reorder 0 included) after many constructions, with or without the library.
set -uo pipefail
cd "$(dirname "$0")/../.."

mpi=openmpi
build=
program=nbrfuzz
cases=200
seed=1
ranks=
modes="off direct pairs groups aggregate dimwise forward global auto auto-lazy1 auto-lazy0"
timeout=60
while [[ $# -gt 0 ]]; do
  case $1 in
    --mpich) mpi=mpich ;;
    --native) program=nbrfuzz_native ;;
    --build) build=$2; shift ;;
    --cases) cases=$2; shift ;;
    --seed) seed=$2; shift ;;
    --ranks) ranks=$2; shift ;;
    --modes) modes=$2; shift ;;
    --timeout) timeout=$2; shift ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
  shift
done

if [[ $mpi == mpich ]]; then
  build=${build:-build-mpich}
  ranks=${ranks:-2 3 4}
  launch=(mpiexec.mpich -n)
  oversubscribe=()
else
  build=${build:-build}
  ranks=${ranks:-2 3 4 5 6 7 8}
  launch=(mpirun -n)
  oversubscribe=(--oversubscribe)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_topo=^treematch
fi
binary=$build/bin/$program
if [[ ! -x $binary ]]; then
  echo "campaign.sh: no $binary; build it first: cmake --build $build --target $program" >&2
  exit 2
fi

declare -A runs failed hung crashed
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for mode in $modes; do
  runs[$mode]=0 failed[$mode]=0 hung[$mode]=0 crashed[$mode]=0
  for p in $ranks; do
    # Every (mode, ranks) pair its own seed, so that the runs draw different cases.
    run_seed=$((seed * 1000 + p))
    first=0
    while ((first < cases)); do
      "${launch[@]}" "$p" "${oversubscribe[@]}" "$binary" --seed "$run_seed" --first "$first" \
        --cases $((cases - first)) --mode "$mode" --timeout "$timeout" --progress >"$log" 2>&1
      grep -E '^nbrfuzz (FAIL|HANG|CRASH) ' "$log" | awk '!seen[$0]++'
      failed[$mode]=$((failed[$mode] + $(grep -c '^nbrfuzz FAIL ' "$log")))
      # A run that hangs or crashes ends at that case (a hang still prints the totals so far).
      stopped=$(grep -m1 -oE '^nbrfuzz (HANG|CRASH) case [0-9]+' "$log")
      summary=$(grep -E '^nbrfuzz: [0-9]+ cases' "$log")
      if [[ -z $stopped && -n $summary ]]; then
        runs[$mode]=$((runs[$mode] + $(awk '{print $2}' <<<"$summary")))
        break
      fi
      if [[ -z $stopped ]]; then
        # The launcher tore the job down before the dying rank's line came through: blame the
        # last case begun.
        begun=$(grep -oE '^nbrfuzz case [0-9]+' "$log" | tail -1)
        begun=${begun##* }
        stopped="nbrfuzz CRASH case ${begun:-$first}"
        echo "$stopped: $mode at $p ranks ended without a word; the last case begun:" >&2
        grep -E '^nbrfuzz case ' "$log" | tail -1 >&2
      fi
      stopped_case=${stopped##* }
      if [[ $stopped == *HANG* ]]; then
        hung[$mode]=$((hung[$mode] + 1))
      else
        crashed[$mode]=$((crashed[$mode] + 1))
      fi
      runs[$mode]=$((runs[$mode] + stopped_case - first + 1))
      first=$((stopped_case + 1))
    done
  done
done

echo "campaign: $program on $mpi, seed $seed, $cases cases per mode and rank count, ranks $ranks"
printf '%-12s %8s %8s %8s %8s\n' mode cases failed hung crashed
bad=0
for mode in $modes; do
  printf '%-12s %8d %8d %8d %8d\n' "$mode" "${runs[$mode]}" "${failed[$mode]}" "${hung[$mode]}" "${crashed[$mode]}"
  bad=$((bad + failed[$mode] + hung[$mode] + crashed[$mode]))
done
((bad == 0))
