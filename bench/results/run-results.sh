#!/usr/bin/env bash
# Regenerates bench/results/RESULTS.md and the evidence behind it in bench/results/, from runs on this
# machine and nothing else:
#   1. builds nbrcomb, nbrbench and nbrsim into build/ (Open MPI, the default MPI) and nbrcomb and
#      nbrbench into build-results-mpich/ (MPICH); both are incremental;
#   2. nbrbench with Open MPI at 4 ranks: native MPI and the library's variants in one job; then
#      auto mode with the default settings against native MPI at 4 and 16 ranks (Open MPI) and at
#      2 ranks (MPICH), on every topology, collective, size and form of the full sweep;
#   3. nbrbench with MPICH at 2 ranks: the persistent form beside blocking and nonblocking; then
#      paper 004's performance guidelines (nbrbench --guidelines) at 4 and 16 ranks (Open MPI) and
#      at 2 (MPICH), the processes bound to the cores;
#   4. nbrbench with Open MPI at 8 ranks: rank reordering (reorder=1) on emulated nodes of 2 and 4;
#      nbrmap: rank 0's mapping for reordering at up to 163,840 processes; nbrbench at 16 and 32
#      ranks on emulated nodes of 4 and 8: the messages between nodes of node aggregation;
#   5. nbrsim: Phase 1 on simulated processes at scale (Moore grids at 4096, random graphs at
#      1024; every algorithm on nodes of 16 at 256 and 1024, and at 4096 and 8192), every
#      pattern checked;
#   6. bench/results/plot.sh: a few PNG figures into bench/results/;
#   7. bench/results/results_tables.py: bench/results/RESULTS.md from the CSVs, the conditions and the commands,
#      with the latencies at scale that bench/smpi/run.sh wrote into bench/smpi/results.csv (a
#      separate run of about an hour and a half, on one core) and their figures, and those of node
#      aggregation in bench/smpi/aggregation.csv (run.sh --aggregation, about 50 minutes) and of
#      multi-hop routing in bench/smpi/multihop.csv (run.sh --multihop, about an hour).
#
#   bench/results/run-results.sh                   the full run: about 25 minutes of nbrbench on a quiet
#                                          2-core machine (most of it auto mode at 16 ranks), then
#                                          10 of simulations (one core)
#   QUICK=1 bench/results/run-results.sh           a short trial of the whole pipeline; it writes into
#                                          build/results-quick/ (RESULTS.md there too)
#   OUT=DIR bench/results/run-results.sh           CSVs, figures and RESULTS.md into DIR instead
#   BUILD=DIR, MPICH_BUILD=DIR             the build directories (default build/, build-results-mpich/)
#   NO_MPICH=1                             skip the MPICH part (RESULTS.md says so)
#
# Exits non-zero if a build fails, if the library delivered wrong data (nbrbench valid = 0), if a
# simulated pattern failed its check, or if a run failed; RESULTS.md is still written in the last
# three cases and says what failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
script_start=$(date +%s)

quick=${QUICK:-0}
build=${BUILD:-build}
mpich_build=${MPICH_BUILD:-build-results-mpich}
if [[ $quick == 1 ]]; then
  out=${OUT:-$build/results-quick}
  results_md=$out/RESULTS.md
else
  out=${OUT:-bench/results}
  results_md=${OUT:+$out/RESULTS.md}
  results_md=${results_md:-bench/results/RESULTS.md}
fi
logs=$build/results-logs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$logs"
# Figures from an earlier run would otherwise stay beside the new ones.
rm -f "$out"/*.png "$out"/*.csv

if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# ---- The sweeps -----------------------------------------------------------------------------
# Open MPI: 4 ranks on the 2 cores (oversubscribed). Two processes share at most P - 2 = 2
# out-neighbors there, so theta = 1 lets the pairs mode combine at all; groups of k need more
# than k common neighbors and do not form below 5 ranks.
ompi_np=4
ompi_args=(--topology moore:2:1,moore:2:2,er:0.8,matrix:dwt_162 --collective alltoallv,allgather,alltoall
           --form blocking,nonblocking --bytes 4,64,1024,16384,65536
           --variant direct,pairs,groups:2,groups:2:aware --runs 20 --reps 100 --warmup 2 --theta 1)
# MPICH: 2 ranks, one per core (MPICH busy-polls; oversubscribed it measures the scheduler).
mpich_np=2
mpich_args=(--topology moore:2:1,moore:2:2,matrix:dwt_162 --collective alltoallv,allgather
            --form blocking,nonblocking,persistent --bytes 4,64,1024,16384,65536
            --variant direct,pairs,groups:2 --runs 20 --reps 50 --warmup 2 --theta 1)
# Paper 004's performance guidelines, natively and with the library's default settings: Open MPI
# at 4 and 16 ranks, MPICH at 2, the processes bound to the cores (unbound, a call's latency
# changes by half as Linux moves them; bench/nbrbench/README.md); 20 runs in 5 launches, which
# nbrguide pools, as the paper launches the benchmark once per run.
guideline_ompi_nps=(4 16)
guideline_launches=5
guideline_args=(--guidelines --runs 4)
# Auto mode as a user meets it: no setting, every topology, collective and size of the full sweep.
auto_ompi_nps=(4 16)
auto_args=(--variant auto --form blocking,nonblocking)
auto_mpich_args=(--variant auto --form blocking,nonblocking,persistent)
# Rank reordering: Open MPI at 8 ranks (4 per core: only the edges and bytes between the emulated
# nodes carry meaning), nodes of 2 and of 4 ranks.
reorder_np=8
reorder_node_sizes=(2 4)
reorder_args=(--topology shuffled:moore:2:1,moore:2:1,shuffled:vonneumann:3:1,er:0.3
              --topology shuffled:matrix:dwt_162,matrix:dwt_162 --collective alltoallv --form blocking --bytes 1024
              --variant direct,direct:reorder,pairs,pairs:reorder --runs 8 --reps 20 --warmup 2 --theta 1)
# nbrmap: the mapping rank 0 runs for reordering, up to the default gathering limit.
# One run per topology, sizes ascending, so that each row's peak memory is its own.
map_topologies=(moore:3:1 shuffled:moore:3:1 vonneumann:3:1)
map_args=(--processes 4096 --processes 32768 --processes 163840 --node-size 32 --node-size 128)
# Node aggregation: ranks, topology and emulated node size of each run. Oversubscribed, so the
# counts matter, not the times: few repetitions.
aggregation_runs=("16 moore:2:2 4" "32 er:0.2 8")
aggregation_args=(--collective allgather,allgatherv,alltoall,alltoallv,alltoallw --form blocking,nonblocking
                  --bytes 4,1024 --variant direct,aggregate,pairs,groups:2:aware,groups:4:aware --theta 1
                  --runs 1 --reps 3 --warmup 1)
# nbrsim: the topologies of papers 000 and 002 at scale.
moore=(--topology moore:2:1 --topology moore:2:2 --topology moore:2:3 --topology moore:3:1 --processes 4096)
er=(--topology er:0.05 --topology er:0.2 --topology er:0.4 --topology er:0.6 --topology er:0.8 --processes 1024)
groups=(--mode groups --k 2 --k 3 --k 4)
aware=(--node-size 32)
# nbrsim: every algorithm on the simulated cluster's shapes (nodes of 16), where bench/smpi/run.sh
# --multihop measures them, and at 4096 and 8192 processes.
multihop_moore=(--topology moore:2:1 --topology moore:2:2 --topology moore:3:1 --node-size 16)
multihop_er=(--topology er:0.05 --topology er:0.2 --node-size 16)
multihop_modes=(direct pairs aggregate dimwise forward)
multihop_moore_sizes=(--processes 256 --processes 1024)
multihop_er_sizes=(--processes 256)
multihop_scale=(--processes 4096 --processes 8192)
if [[ $quick == 1 ]]; then
  ompi_args=(--topology moore:2:2,matrix:dwt_162 --collective alltoallv --form blocking,nonblocking --bytes 4,1024,65536
             --variant direct,pairs,groups:2,groups:2:aware --runs 8 --reps 5 --warmup 1 --theta 1)
  mpich_args=(--topology moore:2:2 --collective alltoallv --form blocking,nonblocking,persistent --bytes 4,65536
              --variant direct,pairs --runs 8 --reps 5 --warmup 1 --theta 1)
  auto_ompi_nps=(4)
  guideline_ompi_nps=(4)
  guideline_launches=2
  guideline_args=(--guidelines --quick)
  auto_args=(--variant auto --form blocking,nonblocking --topology moore:2:2,er:0.4 --bytes 4,65536 --runs 8 --reps 20)
  auto_mpich_args=(--variant auto --form blocking,persistent --topology moore:2:2 --bytes 4,65536 --runs 8 --reps 20)
  reorder_args=(--topology shuffled:moore:2:1,er:0.3 --collective alltoallv --form blocking --bytes 1024
                --variant direct,direct:reorder --runs 3 --reps 5 --warmup 1 --theta 1)
  map_topologies=(moore:3:1 shuffled:moore:3:1)
  map_args=(--processes 4096 --node-size 32)
  aggregation_runs=("8 moore:2:2 4")
  aggregation_args=(--collective allgather,alltoallv --form blocking --bytes 4,1024
                    --variant direct,aggregate,pairs --theta 1 --runs 1 --reps 3 --warmup 1)
  moore=(--topology moore:2:1 --topology moore:2:2 --processes 1024)
  er=(--topology er:0.05 --topology er:0.4 --processes 256)
  multihop_moore_sizes=(--processes 256)
  multihop_scale=(--processes 1024)
  groups=(--mode groups --k 2 --k 3)
  aware=(--node-size 16)
fi

# ---- Records for RESULTS.md -----------------------------------------------------------------
conditions=$work/conditions
commands=$work/commands
: >"$conditions"
: >"$commands"
note() { printf '%s=%s\n' "$1" "$2" >>"$conditions"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# The command as one would type it: words quoted only where the shell needs it.
quoted() {
  local word line=""
  for word in "$@"; do
    [[ $word =~ ^[A-Za-z0-9_./:,=+@%-]+$ ]] || word=$(printf '%q' "$word")
    line+="${line:+ }$word"
  done
  echo "$line"
}
failures=()

# run LABEL OUTPUT SHOWN TIMEOUT COMMAND...: runs the command with its standard output into OUTPUT
# and its standard error into the log, and records the command (with "SHOWN" after it), its time,
# the load and its exit status.
run() {
  local label=$1 output=$2 shown=$3 limit=$4 status=0 start end
  shift 4
  printf '%s\t%s %s\n' "$label" "$(quoted "$@")" "$shown" >>"$commands"
  note "$label.load_before" "$(load)"
  echo "run-results.sh: $label: $(quoted "$@") $shown (log: $logs/$label.log)" >&2
  start=$(date +%s.%N)
  timeout "$limit" "$@" >"$output" 2>"$logs/$label.log" || status=$?
  end=$(date +%s.%N)
  note "$label.seconds" "$(echo "$end - $start" | bc)"
  note "$label.load_after" "$(load)"
  note "$label.status" "$status"
  if [[ $status -ne 0 ]]; then
    failures+=("$label (exit status $status, see $logs/$label.log)")
    tail -n 20 "$logs/$label.log" >&2
  fi
}

# append LABEL CSV COMMAND...: run, with the command's CSV rows appended to CSV below the first
# header.
append() {
  local label=$1 csv=$2
  shift 2
  local shown="> $csv"
  [[ -s $csv ]] && shown="| tail -n +2 >> $csv"
  run "$label" "$work/$label.csv" "$shown" 7200 "$@"
  if [[ -s $csv ]]; then tail -n +2 "$work/$label.csv" >>"$csv"; else cat "$work/$label.csv" >"$csv"; fi
}

# ---- 1. Build ---------------------------------------------------------------------------------
build_dir() {  # DIR LOG CMAKE_ARGS... -- TARGETS...
  local dir=$1 log=$2 configure=() targets=()
  shift 2
  while [[ $# -gt 0 && $1 != -- ]]; do configure+=("$1"); shift; done
  shift
  targets=("$@")
  echo "run-results.sh: building ${targets[*]} in $dir (log: $log)" >&2
  if ! { cmake -S . -B "$dir" "${configure[@]}" && cmake --build "$dir" -j2 --target "${targets[@]}"; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "run-results.sh: the build in $dir failed, see $log" >&2
    exit 1
  fi
}
note quick "$quick"
note root "$([[ $(id -u) -eq 0 ]] && echo 1 || echo 0)"
note date "$(date -u '+%Y-%m-%d %H:%M UTC')"
note load_start "$(load)"
build_dir "$build" "$logs/build.log" -- nbrcomb nbrbench nbrsim nbrmap nbrguide
cache() { sed -n "s/^$1:[A-Z]*=//p" "$2/CMakeCache.txt"; }
if [[ $(cache NBRCOMB_MPI_IS_OPEN_MPI "$build") != 1 ]]; then
  echo "run-results.sh: $build is not built with Open MPI; point BUILD at a build that is" >&2
  exit 1
fi
mpich=1
if [[ ${NO_MPICH:-0} == 1 ]] || ! command -v mpicc.mpich >/dev/null || ! command -v mpiexec.mpich >/dev/null; then
  mpich=0
else
  build_dir "$mpich_build" "$logs/build-mpich.log" -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
    -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich -DNBRCOMB_BUILD_TESTS=OFF -DNBRCOMB_BUILD_BENCH=ON \
    -- nbrcomb nbrbench
fi
note mpich "$mpich"

# The conditions.
note git_commit "$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
note git_subject "$(git log -1 --format=%s 2>/dev/null || true)"
# The outputs this run rewrites do not count: only a change to what was built does.
outputs=(":(exclude)$out" ":(exclude)$results_md")
note git_changed "$(git status --porcelain --untracked-files=no -- . "${outputs[@]}" 2>/dev/null | wc -l)"
note git_untracked "$(git status --porcelain -- . "${outputs[@]}" 2>/dev/null | grep -c '^??' || true)"
note os "$(. /etc/os-release && echo "$PRETTY_NAME") (Debian $(cat /etc/debian_version 2>/dev/null)), Linux $(uname -r)"
note cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
note cores "$(nproc)"
note memory "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
note compiler "$(c++ --version | head -n 1)"
note build_type "$(cache CMAKE_BUILD_TYPE "$build")"
note openmpi "$(mpirun --version 2>&1 | head -n 1)"
note ompi_np "$ompi_np"
if [[ $mpich == 1 ]]; then
  note mpich_version "MPICH $(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p') ($(mpichversion 2>/dev/null | sed -n 's/^MPICH Device:[[:space:]]*//p'); Hydra $(mpiexec.mpich --version | sed -n 's/^[[:space:]]*Version:[[:space:]]*//p' | head -n 1))"
  note mpich_np "$mpich_np"
fi

# ---- 2. Open MPI --------------------------------------------------------------------------------
ompi_csv=$out/nbrbench-openmpi-${ompi_np}ranks.csv
run nbrbench-openmpi "$ompi_csv" "> $ompi_csv" 1800 \
  mpirun --oversubscribe -np "$ompi_np" -x "LD_PRELOAD=$build/lib/libnbrcomb.so" \
  "$build/bin/nbrbench" "${ompi_args[@]}"

# ---- 3. MPICH -----------------------------------------------------------------------------------
mpich_csv=$out/nbrbench-mpich-${mpich_np}ranks.csv
if [[ $mpich == 1 ]]; then
  run nbrbench-mpich "$mpich_csv" "> $mpich_csv" 1800 \
    mpiexec.mpich -n "$mpich_np" -genv LD_PRELOAD "$mpich_build/lib/libnbrcomb.so" \
    "$mpich_build/bin/nbrbench" "${mpich_args[@]}"
fi

# ---- Auto mode, default settings ------------------------------------------------------------------
auto_tables=()
for np in "${auto_ompi_nps[@]}"; do
  csv=$out/nbrbench-auto-openmpi-${np}ranks.csv
  run "nbrbench-auto-openmpi-${np}ranks" "$csv" "> $csv" 3600 \
    mpirun --oversubscribe -np "$np" -x "LD_PRELOAD=$build/lib/libnbrcomb.so" "$build/bin/nbrbench" "${auto_args[@]}"
  auto_tables+=("Open MPI=$csv")
done
if [[ $mpich == 1 ]]; then
  csv=$out/nbrbench-auto-mpich-${mpich_np}ranks.csv
  run "nbrbench-auto-mpich-${mpich_np}ranks" "$csv" "> $csv" 3600 \
    mpiexec.mpich -n "$mpich_np" -genv LD_PRELOAD "$mpich_build/lib/libnbrcomb.so" \
    "$mpich_build/bin/nbrbench" "${auto_mpich_args[@]}"
  auto_tables+=("MPICH=$csv")
fi

# ---- Paper 004's guidelines ---------------------------------------------------------------------
guideline_tables=()
guideline_figures=()
guidelines() {  # NAME LABEL LAUNCHER...: the launches, then nbrguide's assessment into $out/NAME.csv
  local name=$1 label=$2 launch measurements=()
  shift 2
  for launch in $(seq 1 "$guideline_launches"); do
    measurements+=("$logs/$name-launch$launch.csv")
    run "$name-launch$launch" /dev/null "> /dev/null" 3600 "$@" "${guideline_args[@]}" --seed "$launch" \
      --measurements "$logs/$name-launch$launch.csv"
  done
  run "$name" "$out/$name.csv" "> $out/$name.csv" 600 "$build/bin/nbrguide" "${measurements[@]}"
  guideline_tables+=("$label=$out/$name.csv")
}
for np in "${guideline_ompi_nps[@]}"; do
  guidelines "guidelines-openmpi-${np}ranks" "Open MPI, $np ranks" \
    mpirun --oversubscribe --bind-to core:overload-allowed -np "$np" -x "LD_PRELOAD=$build/lib/libnbrcomb.so" \
    "$build/bin/nbrbench"
done
if [[ $mpich == 1 ]]; then
  guidelines "guidelines-mpich-${mpich_np}ranks" "MPICH, $mpich_np ranks" \
    mpiexec.mpich -n "$mpich_np" -bind-to core -genv LD_PRELOAD "$mpich_build/lib/libnbrcomb.so" \
    "$mpich_build/bin/nbrbench"
fi

# ---- 4. Rank reordering ---------------------------------------------------------------------------
reorder_csvs=()
for node_size in "${reorder_node_sizes[@]}"; do
  csv=$out/nbrbench-reorder-nodes-of-$node_size.csv
  run "nbrbench-reorder-nodes-of-$node_size" "$csv" "> $csv" 1800 \
    mpirun --oversubscribe -np "$reorder_np" -x "LD_PRELOAD=$build/lib/libnbrcomb.so" \
    "$build/bin/nbrbench" "${reorder_args[@]}" --node-size "$node_size"
  reorder_csvs+=("$csv")
done

map_csv=$out/nbrmap.csv
: >"$map_csv"
for topology in "${map_topologies[@]}"; do
  append "nbrmap-${topology//:/-}" "$map_csv" "$build/bin/nbrmap" --topology "$topology" "${map_args[@]}"
done

aggregation_csvs=()
for spec in "${aggregation_runs[@]}"; do
  read -r np topology node_size <<<"$spec"
  csv=$out/nbrbench-aggregation-${topology//:/-}-${np}ranks.csv
  run "nbrbench-aggregation-${topology//:/-}-${np}ranks" "$csv" "> $csv" 1800 \
    mpirun --oversubscribe -np "$np" -x "LD_PRELOAD=$build/lib/libnbrcomb.so" \
    "$build/bin/nbrbench" --topology "$topology" --node-size "$node_size" "${aggregation_args[@]}"
  aggregation_csvs+=("$csv")
done

# ---- 5. nbrsim ----------------------------------------------------------------------------------
# One CSV per family.
simulate() {  # LABEL CSV ARGS...
  local label=$1 csv=$2
  shift 2
  append "$label" "$csv" "$build/bin/nbrsim" "$@" --check
}
sim_moore=$out/nbrsim-moore.csv
sim_er=$out/nbrsim-er.csv
: >"$sim_moore"
: >"$sim_er"
simulate nbrsim-moore-pairs "$sim_moore" "${moore[@]}"
simulate nbrsim-moore-groups "$sim_moore" "${moore[@]}" "${groups[@]}"
simulate nbrsim-moore-aware-pairs "$sim_moore" "${moore[@]}" "${aware[@]}"
simulate nbrsim-moore-aware-groups "$sim_moore" "${moore[@]}" "${aware[@]}" "${groups[@]}"
simulate nbrsim-er-aware-pairs "$sim_er" "${er[@]}" "${aware[@]}"
simulate nbrsim-er-aware-groups "$sim_er" "${er[@]}" "${aware[@]}" "${groups[@]}"
# Topology-agnostic groups on dense random graphs cost minutes of Phase 1 per k in the simulator
# (nearly every process is a friend of every other): pairs and k = 2 only.
simulate nbrsim-er-pairs "$sim_er" "${er[@]}"
simulate nbrsim-er-groups "$sim_er" "${er[@]}" --mode groups --k 2
sim_multihop=$out/nbrsim-multihop.csv
: >"$sim_multihop"
for mode in "${multihop_modes[@]}"; do
  simulate "nbrsim-multihop-$mode" "$sim_multihop" "${multihop_moore[@]}" "${multihop_moore_sizes[@]}" --mode "$mode"
  simulate "nbrsim-multihop-er-$mode" "$sim_multihop" "${multihop_er[@]}" "${multihop_er_sizes[@]}" --mode "$mode"
done
for mode in "${multihop_modes[@]}"; do
  simulate "nbrsim-multihop-scale-$mode" "$sim_multihop" "${multihop_moore[@]}" --topology er:0.05 \
    "${multihop_scale[@]}" --mode "$mode"
done

# ---- 6. Figures ---------------------------------------------------------------------------------
# plot.sh draws every figure a CSV allows; a few of them are kept.
figures=()
keep() {  # FROM TO
  if [[ -f $1 ]]; then cp "$1" "$out/$2"; figures+=("$2"); else echo "run-results.sh: no figure $1" >&2; fi
}
plot() {  # CSV DIR
  printf '%s\t%s\n' figures "$(quoted bench/results/plot.sh "$1") DIR" >>"$commands"
  if ! bench/results/plot.sh "$1" "$2" >>"$logs/plot.log" 2>&1; then
    failures+=("plot.sh $1 (see $logs/plot.log)")
  fi
}
: >"$logs/plot.log"
if [[ -s $ompi_csv ]]; then
  plot "$ompi_csv" "$work/ompi"
  keep "$work/ompi/latency_moore_2_2_alltoallv_nonblocking.png" openmpi-latency-moore_2_2-alltoallv-nonblocking.png
  keep "$work/ompi/latency_matrix_dwt_162_alltoallv_blocking.png" openmpi-latency-dwt_162-alltoallv-blocking.png
fi
if [[ $mpich == 1 && -s $mpich_csv ]]; then
  plot "$mpich_csv" "$work/mpich"
  keep "$work/mpich/latency_moore_2_2_alltoallv_persistent.png" mpich-latency-moore_2_2-alltoallv-persistent.png
fi
if [[ -s $sim_moore ]]; then
  plot "$sim_moore" "$work/sim-moore"
  keep "$work/sim-moore/message_ratio_k.png" nbrsim-moore-message-ratio-k.png
fi
if [[ -s $sim_er ]]; then
  plot "$sim_er" "$work/sim-er"
  keep "$work/sim-er/message_ratio_density.png" nbrsim-er-message-ratio-density.png
fi

for table in "${guideline_tables[@]}"; do
  csv=${table#*=}
  name=$(basename "$csv" .csv)
  [[ -s $csv ]] || continue
  plot "$csv" "$work/$name"
  keep "$work/$name/violations.png" "$name-violations.png"
  guideline_figures+=("$name-violations.png=${table%%=*}: tests violated per guideline, natively and with the library")
done

aggregation_table=(--aggregation "${aggregation_csvs[@]}")
[[ -s bench/smpi/aggregation.csv ]] && aggregation_table+=(--aggregation-smpi bench/smpi/aggregation.csv)
multihop_table=(--multihop-sim "$sim_multihop")
[[ -s bench/smpi/multihop.csv ]] && multihop_table+=(--multihop-smpi bench/smpi/multihop.csv)
smpi_csv=bench/smpi/results.csv
smpi_table=()
if [[ -s $smpi_csv ]]; then
  bench/smpi/plot.sh "$smpi_csv" "$out"
  for png in "$out"/smpi-*.png; do [[ -e $png ]] && figures+=("$(basename "$png")"); done
  smpi_table=(--smpi "$smpi_csv")
fi

# ---- 7. RESULTS.md ------------------------------------------------------------------------------
note load_end "$(load)"
note script_seconds "$(($(date +%s) - script_start))"
note failures "${#failures[@]}"
for f in "${failures[@]}"; do note failure "$f"; done
mpich_table=()
if [[ $mpich == 1 ]]; then mpich_table=(--mpich "$mpich_csv"); fi
# Kept, so that RESULTS.md can be written again from the same runs (bench/results/results_tables.py).
cp "$conditions" "$commands" "$logs/"
python3 bench/results/results_tables.py --conditions "$conditions" --commands "$commands" \
  --openmpi "$ompi_csv" "${mpich_table[@]}" --auto "${auto_tables[@]}" --reorder "${reorder_csvs[@]}" --map "$map_csv" --sim-moore "$sim_moore" --sim-er "$sim_er" \
  "${aggregation_table[@]}" "${multihop_table[@]}" "${smpi_table[@]}" --guidelines "${guideline_tables[@]}" \
  --guideline-figures "${guideline_figures[@]}" --figures "${figures[@]}" --figures-dir "$out" --output "$results_md"
# The first section, from the simulated studies of bench/smpi/run.sh --applications and --4096 (hours
# of one core, run apart; their runs are listed in bench/smpi/study-runs.txt).
if [[ -s bench/smpi/study-runs.txt ]]; then
  python3 bench/results/when_it_pays.py --manifest bench/smpi/study-runs.txt \
    --csv applications=bench/smpi/applications.csv scale4096=bench/smpi/scale4096.csv \
    --model "$sim_multihop" --measured bench/smpi/multihop.csv --output "$results_md"
fi
echo "run-results.sh: wrote $results_md; CSVs and figures in $out; $(( $(date +%s) - script_start )) s" >&2
if [[ ${#failures[@]} -gt 0 ]]; then
  printf 'run-results.sh: FAILED: %s\n' "${failures[@]}" >&2
  exit 1
fi
