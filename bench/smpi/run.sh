#!/usr/bin/env bash
# Latency of the library's variants at scale: nbrbench with libnbrcomb on 256 and 1024 simulated
# processes of a cluster of 16-core nodes calibrated on TACC Stampede (SimGrid SMPI; platform,
# calibration and limits in bench/smpi/README.md).
#   bench/smpi/run.sh [--quick | --aggregation | --multihop]
# Builds build-smpi/ (the library, nbrbench and the platform against SMPI), then prints CSV:
#   topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,message_ratio,
#   pattern_seconds,valid
# --aggregation: node aggregation (paper 003) against direct, pairs and topology-aware groups of 4
# on seed 000's topologies and SuiteSparse matrices, with four more columns before valid:
#   internode_messages (per call and process), internode_message_ratio (to direct's),
#   internode_bytes, internode_byte_ratio
# direct is the library's one message per edge, what Open MPI and MPICH send (SMPI has no
# neighborhood collectives of its own); median_us is simulated time, the median of the timed
# calls (the slowest process counts); message_ratio is messages per call over direct's;
# pattern_seconds is Phase 1 on the slowest process (simulated); valid is 1 where the data
# received are what MPI prescribes. --multihop: routing over a process grid (dimwise, forward)
# against direct, pairs and aggregation, allgather and alltoall, and auto after its trial
# (multihop.csv; about 75 minutes; MULTIHOP_AUTO_1KIB=1 adds auto at 1 KiB, an hour more). --quick: 256 processes of Moore (2,2), 4 B allgather, a few
# minutes; the full run about an hour and a half. Progress goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/../.."

quick=0 aggregation=0 multihop=0
case ${1:-} in
  --quick) quick=1 ;;
  --aggregation) aggregation=1 ;;
  --multihop) multihop=1 ;;
  "") ;;
  *) sed -n '2,21p' "$0" >&2; exit 2 ;;
esac

cmake -S . -B build-smpi -C bench/smpi/smpi-cache.cmake >&2
cmake --build build-smpi -j2 --target nbrbench nbr_cluster >&2

cores=16
export PLATFORM=$PWD/build-smpi/lib/libnbr_cluster.so
# Each rank its own copy of the library; the code between MPI calls (the library's packing and
# schedule lookups, the same code for direct and combining) not charged: on this shared machine
# its real time would carry the simulator's own scheduling noise; MPICH's algorithms for the
# collectives of the setup (SMPI's default sends a message from every process to every other),
# but tree and recursive-doubling ones where MPICH's are two-level: those make every new
# communicator find its nodes with a ring allgather over all its processes (SMPI's
# Comm::init_smp, P - 1 rounds), the wall at 4096 processes; the solver options keep large runs
# affordable (README.md, sections 5 and 6).
export SMPIRUN_FLAGS="--cfg=smpi/privatize-libs:$PWD/build-smpi/lib/libnbrcomb.so.0
  --cfg=smpi/coll-selector:mpich --cfg=smpi/bcast:binomial_tree --cfg=smpi/allreduce:rdb
  --cfg=smpi/reduce:binomial --cfg=smpi/allgather:rdb --cfg=smpi/gather:ompi_binomial
  --cfg=smpi/scatter:ompi_binomial --cfg=smpi/alltoall:bruck --cfg=smpi/simulate-computation:no
  --cfg=maxmin/concurrency-limit:64 --cfg=surf/precision:1e-7
  --log=root.thres:warning"

# Simulation is deterministic: few timed calls give a stable median. Auto mode is measured once
# settled, past its lazy Phase 1 (call 32), its trial of the shape (34 calls, from the 32nd) and
# the decision in the call after it.
timing=(--runs 1 --reps 5 --node-size 0)
auto_warmup=70

if [[ $aggregation -eq 1 ]]; then
  echo "topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,message_ratio,pattern_seconds,internode_messages,internode_message_ratio,internode_bytes,internode_byte_ratio,valid"
else
  echo "topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,message_ratio,pattern_seconds,valid"
fi

# simulate PROCESSES TOPOLOGIES COLLECTIVES FORMS BYTES VARIANTS WARMUP [columns.py options]
simulate() {
  local processes=$1 topologies=$2 collectives=$3 forms=$4 bytes=$5 variants=$6 warmup=$7
  shift 7
  echo "run.sh: $processes processes, $topologies, $collectives $forms, $bytes B, $variants" >&2
  bench/smpi/smpirun-cluster.sh $(((processes + cores - 1) / cores)) "$cores" "$processes" \
    build-smpi/bin/nbrbench --topology "$topologies" --collective "$collectives" --form "$forms" \
    --bytes "$bytes" --variant "$variants" --warmup "$warmup" "${timing[@]}" |
    bench/smpi/columns.py "$@"
}

# measure PROCESSES TOPOLOGIES COLLECTIVES FORMS BYTES VARIANTS [columns.py options]: direct and
# the variants; auto, if asked for, in a simulation of its own with its longer warm-up.
measure() {
  local others
  others=$(tr , '\n' <<<"$6" | { grep -vx auto || true; } | paste -sd,)
  [[ -n $others ]] && simulate "$1" "$2" "$3" "$4" "$5" "$others" 2 "${@:7}"
  if grep -qx auto < <(tr , '\n' <<<"$6"); then
    simulate "$1" "$2" "$3" "$4" "$5" auto "$auto_warmup" $([[ -n $others ]] && echo --without-direct) "${@:7}"
  fi
}

if [[ $quick -eq 1 ]]; then
  measure 256 moore:2:2 allgather blocking 4 pairs,auto
  exit
fi

# Nodes are the simulated ones (16 ranks each, --node-size 0). About an hour of one core: at 1024
# processes only Moore grids (the random graphs' pairs Phase 1 does not finish there).
if [[ $aggregation -eq 1 ]]; then
  variants=aggregate,pairs,groups:4:aware
  measure 256 moore:2:1,moore:2:2,moore:3:1,er:0.05,er:0.2 allgather blocking 4,1024 $variants --internode
  matrices=$PWD/bench/data/matrices
  measure 256 "matrix:$matrices/can_1054.mtx,matrix:$matrices/lp_sctap2.mtx,matrix:$matrices/D_10.mtx" \
    allgather blocking 4,1024 $variants --internode
  measure 1024 moore:2:2 allgather blocking 4 $variants --internode
  measure 1024 moore:2:1,moore:3:1 allgather blocking 4 aggregate --internode
  # Auto mode, which picks pairs or aggregation per communicator (README, "Node aggregation").
  simulate 256 moore:2:1,moore:2:2,er:0.2 allgather blocking 4 auto "$auto_warmup" --without-direct --internode
  exit
fi

# The targets of multi-hop routing: Moore grids at 1024 processes, random graphs at 256, 4 B and
# 1 KiB blocks, every algorithm side by side in one simulation per topology, then auto.
if [[ $multihop -eq 1 ]]; then
  variants=aggregate,dimwise,forward
  measure 1024 moore:2:2,moore:3:1,moore:2:1 allgather,alltoall blocking 4 $variants
  measure 256 er:0.05,er:0.2 allgather,alltoall blocking 4 $variants,pairs
  measure 256 moore:2:1,moore:2:2,moore:3:1,er:0.05,er:0.2 allgather blocking 1024 $variants,pairs
  measure 1024 moore:2:2,moore:3:1,moore:2:1 allgather,alltoall blocking 4 auto
  measure 256 er:0.05,er:0.2 allgather,alltoall blocking 4 auto
  # Auto at 1 KiB: about an hour more (its 52 calls before timing are slow to simulate there).
  [[ ${MULTIHOP_AUTO_1KIB:-0} == 1 ]] &&
    measure 256 moore:2:1,moore:2:2,moore:3:1,er:0.05,er:0.2 allgather blocking 1024 auto
  exit
fi

# A part of seed 000's set, what an hour and a half of one core simulates: Moore (2,2) at 1024
# processes (most of it the setup of the communicators: SMPI's every new communicator runs a ring
# allgather over all processes), Moore (2,1), (2,2), (3,1) and random graphs of densities 0.05
# and 0.2 at 256. Larger blocks load the shared NICs with thousands of concurrent flows; random
# graphs' Phase 1 at 1024 processes takes many minutes per communicator (README.md, section 6).
measure 1024 moore:2:2 allgather blocking 4 pairs,pairs:aware
measure 1024 moore:2:2 allgather blocking 4 groups:4
measure 1024 moore:2:2 allgather blocking 4 auto
measure 256 moore:2:1,moore:2:2,moore:3:1 allgather blocking 4,1024 pairs,groups:4,pairs:aware
measure 256 moore:2:2 allgather blocking 4 auto
measure 256 er:0.05,er:0.2 allgather blocking 4 pairs,groups:4,pairs:aware
measure 256 er:0.2 allgather blocking 4 auto
