#!/usr/bin/env bash
# A long nbrfuzz campaign: every mode at every rank count, thousands of cases in all, against
# Open MPI (build/) or, with --mpich, MPICH (build-mpich/). A case that hangs or crashes ends
# its job; the campaign notes it and goes on from the next case. Prints every failure's
# reproduction lines and the totals per mode; exits 1 if any case failed, hung or crashed.
#
#   tests/fuzz/campaign.sh                       # 200 cases per mode and rank count, ranks 2..8
#   tests/fuzz/campaign.sh --cases 1000 --seed 7 --ranks "3 4" --modes "pairs global"
#   tests/fuzz/campaign.sh --mpich               # ranks 2..4: MPICH busy-polls when oversubscribed
#   tests/fuzz/campaign.sh --native              # nbrfuzz_native: checks the fuzzer against the MPI alone
#   tests/fuzz/campaign.sh --long --perturb --load 2 --jobs 2   # long jobs under load (below)
#
# --long: per rank count, --cases cases in one job, every mode drawn case by case, three
#   quarters of the nonblocking and persistent cases freeing their datatypes early, and emulated
#   nodes of 2 (NBRCOMB_NODE_SIZE) for every mode: handles of freed types and communicators come
#   back, and state one case leaves meets the next. --modes then names the series, "long".
# --perturb: random pauses before starts and completions (the cases stay those of the seed).
# --load N: N busy processes beside the jobs for the whole campaign. --jobs J: J jobs at once.
# --build DIR takes the programs from DIR/bin instead.
#
# Open MPI runs with its topo/treematch component off: in Open MPI 4.1 it hangs now and then in
# MPI_Dist_graph_create (reorder 0 included) after many constructions, with or without the library.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

mpi=openmpi
build=
program=nbrfuzz
cases=200
seed=1
ranks=
modes="off direct pairs groups aggregate dimwise forward global auto auto-lazy1 auto-lazy0"
timeout=60
long=false
perturb=false
load=0
jobs=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --mpich) mpi=mpich ;;
    --native) program=nbrfuzz_native ;;
    --long) long=true ;;
    --perturb) perturb=true ;;
    --load) load=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --build) build=$2; shift ;;
    --cases) cases=$2; shift ;;
    --seed) seed=$2; shift ;;
    --ranks) ranks=$2; shift ;;
    --modes) modes=$2; shift ;;
    --timeout) timeout=$2; shift ;;
    *) sed -n '2,21p' "$0" >&2; exit 2 ;;
  esac
  shift
done

if [[ $mpi == mpich ]]; then
  build=${build:-build-mpich}
  ranks=${ranks:-2 3 4}
  launch=(mpiexec.mpich -n)
  oversubscribe=()
  set_env=-genv
else
  build=${build:-build}
  ranks=${ranks:-2 3 4 5 6 7 8}
  launch=(mpirun -n)
  oversubscribe=(--oversubscribe)
  set_env=-x
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_topo=^treematch
fi
binary=$build/bin/$program
if [[ ! -x $binary ]]; then
  echo "campaign.sh: no $binary; build it first: cmake --build $build --target $program" >&2
  exit 2
fi
extra=()
environment=()
if $long; then
  modes=long
  extra+=(--free-early 75)
  if [[ $set_env == -x ]]; then environment=(-x NBRCOMB_NODE_SIZE=2); else environment=(-genv NBRCOMB_NODE_SIZE 2); fi
fi

work=$(mktemp -d)
hogs=()
cleanup() {
  ((${#hogs[@]})) && kill "${hogs[@]}" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
for ((i = 0; i < load; i++)); do
  bash -c 'while :; do :; done' &
  hogs+=($!)
done

# One series: a mode (or the long mix) at one rank count, job after job until its cases ran.
# Writes its failure lines to $work/$name.lines and "cases failed hung crashed" to $work/$name.totals.
series() {
  local mode=$1 p=$2 name="$1.$2"
  local log=$work/$name.log runs=0 failed=0 hung=0 crashed=0 first=0
  # Every (mode, ranks) pair its own seed, so that the series draw different cases.
  local run_seed=$((seed * 1000 + p))
  local options=(--seed "$run_seed" --timeout "$timeout" --progress "${extra[@]}")
  [[ $mode != long ]] && options+=(--mode "$mode")
  $perturb && options+=(--perturb "$run_seed")
  : >"$work/$name.lines"
  while ((first < cases)); do
    "${launch[@]}" "$p" "${oversubscribe[@]}" "${environment[@]}" "$binary" --first "$first" \
      --cases $((cases - first)) "${options[@]}" >"$log" 2>&1
    grep -E '^nbrfuzz (FAIL|HANG|CRASH) ' "$log" | awk '!seen[$0]++' >>"$work/$name.lines"
    failed=$((failed + $(grep -c '^nbrfuzz FAIL ' "$log")))
    # A job that hangs or crashes ends at that case (a hang still prints the totals so far).
    local stopped summary
    stopped=$(grep -m1 -oE '^nbrfuzz (HANG|CRASH) case [0-9]+' "$log")
    summary=$(grep -E '^nbrfuzz: [0-9]+ cases' "$log")
    if [[ -z $stopped && -n $summary ]]; then
      runs=$((runs + $(awk '{print $2}' <<<"$summary")))
      break
    fi
    if [[ -z $stopped ]]; then
      # The launcher tore the job down before the dying rank's line came through: blame the
      # last case begun.
      local begun
      begun=$(grep -oE '^nbrfuzz case [0-9]+' "$log" | tail -1)
      begun=${begun##* }
      stopped="nbrfuzz CRASH case ${begun:-$first}"
      { echo "$stopped: $mode at $p ranks ended without a word; the last case begun:"
        grep -E '^nbrfuzz case ' "$log" | tail -1; } >>"$work/$name.lines"
    fi
    local stopped_case=${stopped##* }
    if [[ $stopped == *HANG* ]]; then
      hung=$((hung + 1))
    else
      crashed=$((crashed + 1))
    fi
    runs=$((runs + stopped_case - first + 1))
    first=$((stopped_case + 1))
  done
  echo "$runs $failed $hung $crashed" >"$work/$name.totals"
}

for mode in $modes; do
  for p in $ranks; do
    while (($(jobs -rp | wc -l) >= jobs + load)); do wait -n; done
    series "$mode" "$p" &
  done
done
while (($(jobs -rp | wc -l) > load)); do wait -n; done

conditions=
$long && conditions+=", long jobs"
$perturb && conditions+=", perturbed"
((load)) && conditions+=", $load busy processes beside"
echo "campaign: $program on $mpi, seed $seed, $cases cases per mode and rank count, ranks $ranks$conditions," \
  "$jobs job(s) at once"
printf '%-12s %8s %8s %8s %8s\n' mode cases failed hung crashed
bad=0
for mode in $modes; do
  total=(0 0 0 0)
  for p in $ranks; do
    cat "$work/$mode.$p.lines"
    read -r -a part <"$work/$mode.$p.totals"
    for i in 0 1 2 3; do total[i]=$((total[i] + part[i])); done
  done
  printf '%-12s %8d %8d %8d %8d\n' "$mode" "${total[@]}"
  bad=$((bad + total[1] + total[2] + total[3]))
done
((bad == 0))
