#!/usr/bin/env bash
# Latency of the library's variants at scale: nbrbench with libnbrcomb on 128 to 8192 simulated
# processes of a cluster of 16-core nodes calibrated on TACC Stampede (SimGrid SMPI; platform,
# calibration and limits in bench/smpi/README.md).
#   bench/smpi/run.sh [--quick | --aggregation | --multihop | --applications | --4096]
# Builds build-smpi/ (the library, nbrbench and the platform against SMPI), then prints CSV:
#   topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,message_ratio,
#   pattern_seconds,valid
# --aggregation: node aggregation (paper 003) against direct, pairs and topology-aware groups of 4
# on seed 000's topologies and SuiteSparse matrices, with four more columns before valid:
#   internode_messages (per call and process), internode_message_ratio (to direct's),
#   internode_bytes, internode_byte_ratio
# direct is the library's one message per edge, what Open MPI and MPICH send (SMPI has no
# neighborhood collectives of its own); median_us is simulated time, the median of the timed
# calls (the slowest process counts); message_ratio is messages per timed call over direct's (in
# auto's rows made before nbrbench counted the timed calls alone, its warm-up calls too);
# pattern_seconds is Phase 1 on the slowest process (simulated); valid is 1 where the data
# received are what MPI prescribes. --multihop: routing over a process grid (dimwise, forward)
# against direct, pairs and aggregation, allgather and alltoall, and auto after its trial
# (multihop.csv; about 75 minutes; MULTIHOP_AUTO_1KIB=1 adds auto at 1 KiB, an hour more). --quick: 256 processes of Moore (2,2), 4 B allgather, a few
# minutes; the full run about an hour and a half. --applications: the topologies applications
# make (applications.csv): a METIS-partitioned mesh's ghost exchange and its multigrid levels
# (MPI_Neighbor_alltoallv of 8-byte values, per-neighbor counts), SuiteSparse matrices' SpMM
# exchange (MPI_Neighbor_allgather of each process's rows of one column); --4096: 4096 and 8192
# processes (scale4096.csv), with three more columns after valid: Phase 1's messages and steps, and
# the calls of auto's trial (the busiest process's). APPLICATIONS_ONLY=REGEX runs only the lines of
# a mode whose arguments match (one simulation each).
# Progress goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/../.."

quick=0 aggregation=0 multihop=0 applications=0 scale=0
case ${1:-} in
  --quick) quick=1 ;;
  --aggregation) aggregation=1 ;;
  --multihop) multihop=1 ;;
  --applications) applications=1 ;;
  --4096) scale=1 ;;
  "") ;;
  *) sed -n '2,25p' "$0" >&2; exit 2 ;;
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
# settled: past its lazy Phase 1 (call 32) and a race of three candidates' two stages, decided at
# its second checkpoint (the 58th call after Phase 1; src/decision/auto_tuner.h).
timing=(--runs 1 --reps 5 --node-size 0)
auto_warmup=92

if [[ $aggregation -eq 1 ]]; then
  echo "topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,message_ratio,pattern_seconds,internode_messages,internode_message_ratio,internode_bytes,internode_byte_ratio,valid"
elif [[ $scale -eq 1 ]]; then
  echo "topology,processes,collective,form,bytes,variant,median_us,ratio_to_direct,message_ratio,pattern_seconds,valid,pattern_messages,pattern_exchanges,trial_calls"
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

# selected ARGUMENTS...: whether APPLICATIONS_ONLY (a regular expression, default all) matches them.
selected() { [[ "$*" =~ ${APPLICATIONS_ONLY:-.} ]]; }

# measure PROCESSES TOPOLOGIES COLLECTIVES FORMS BYTES VARIANTS [columns.py options]: direct and
# the variants in one simulation; with auto among them, every one after auto's warm-up calls, so
# that auto is compared with the variants on calls alike (an algorithm's time moves by up to 10 %
# with the calls and communicators before it: README.md, section 7).
measure() {
  local warmup=2
  grep -qx auto < <(tr , '\n' <<<"$6") && warmup=$auto_warmup
  simulate "$1" "$2" "$3" "$4" "$5" "$6" "$warmup" "${@:7}"
}

# The application topologies (bench/topology/mesh.h): the ghost exchange of a mesh of a million
# cells in P METIS parts, one 8-byte value per ghost cell, and the first three coarse levels of its
# smoothed-aggregation hierarchy; seed 002's SpMM, one column of X per call, a process's rows of it
# (8 bytes each) to every process whose rows of A reference them, on the SuiteSparse matrices with
# at least 1024 rows, from 128 processes up to their rows. Each set side by side with direct and auto
# (the default settings) in one simulation. At 4096 processes the mesh and
# its first level (pairs' Phase 1 sends about 100 and 150 messages per process there, by nbrsim);
# levels 2 and 3 have 66 and 820 neighbors per process there, 5 and 60 times the mesh's messages.
if [[ $applications -eq 1 ]]; then
  mesh=mesh:1000000,amg:1000000:1,amg:1000000:2,amg:1000000:3
  matrices=$PWD/bench/data/matrices
  spmm="matrix:$matrices/can_1054.mtx,matrix:$matrices/lp_sctap2.mtx,matrix:$matrices/SmaGri.mtx"
  for line in "256 $mesh alltoallv blocking 8 pairs,aggregate,forward,auto" \
              "128 $spmm allgather blocking 64 pairs,aggregate,forward,auto" \
              "256 $spmm allgather blocking 32 pairs,aggregate,forward,auto" \
              "1024 ${mesh%,amg:1000000:3} alltoallv blocking 8 pairs,aggregate,forward,auto" \
              "1024 $spmm allgather blocking 8 pairs,aggregate,forward,auto" \
              "4096 mesh:1000000,amg:1000000:1 alltoallv blocking 8 pairs,aggregate,forward,auto"; do
    # shellcheck disable=SC2086  # a line is the arguments of measure
    selected $line && measure $line
  done
  exit
fi

# Seed 000's scale: 256 nodes of 16, and the top of its range, 512 nodes of 16. Moore (2,1) with
# 4 B and 1 KiB allgather and alltoall (up to 15 minutes of simulation for an experiment with 1 KiB
# blocks), its 4 B allgather beside auto; Moore (3,1) and (2,2) with 4 B alltoall and 1 KiB
# allgather, and with 4 B allgather beside auto, as Erdos-Renyi delta 0.05. A call of direct's 4 B
# allgather on Moore (2,2) costs the simulator about 14 s of one core at 4096. pairs' Phase 1 sends 2116 messages per
# process on Moore (2,2) in 65 matching rounds and about 40 times a process's 205 edges on
# Erdos-Renyi delta 0.05 (nbrsim): it is left out there, where its best case cannot beat dimwise's
# and forward's estimates (auto does not plan it either); on Moore (2,1), 160 messages per process
# (34 rounds), it runs.
if [[ $scale -eq 1 ]]; then
  for line in "4096 moore:2:1 alltoall blocking 4,1024 pairs,dimwise,aggregate,forward" \
              "4096 moore:2:1 allgather blocking 1024 pairs,dimwise,aggregate,forward" \
              "4096 moore:2:1 allgather blocking 4 pairs,dimwise,aggregate,forward,auto" \
              "4096 moore:3:1,moore:2:2 alltoall blocking 4 dimwise,aggregate,forward" \
              "4096 moore:2:2,moore:3:1 allgather blocking 1024 dimwise,aggregate,forward" \
              "4096 moore:2:2 allgather blocking 4 dimwise,aggregate,forward,auto" \
              "4096 moore:3:1 allgather blocking 4 dimwise,aggregate,forward,auto" \
              "4096 er:0.05 allgather blocking 4 aggregate,forward,auto" \
              "8192 moore:2:2 allgather blocking 4 dimwise,aggregate,auto" \
              "8192 moore:3:1 allgather blocking 4 dimwise,aggregate,auto"; do
    # shellcheck disable=SC2086
    selected $line && measure $line --setup
  done
  exit
fi

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
  lines=("1024 moore:2:2,moore:3:1,moore:2:1 allgather,alltoall blocking 4 $variants"
         "256 er:0.05,er:0.2 allgather,alltoall blocking 4 $variants,pairs"
         "256 moore:2:1,moore:2:2,moore:3:1,er:0.05,er:0.2 allgather blocking 1024 $variants,pairs"
         "1024 moore:2:2,moore:3:1,moore:2:1 allgather,alltoall blocking 4 auto"
         "256 er:0.05,er:0.2 allgather,alltoall blocking 4 auto")
  # Auto at 1 KiB: about an hour more (its calls before timing are slow to simulate there).
  [[ ${MULTIHOP_AUTO_1KIB:-0} == 1 ]] &&
    lines+=("256 moore:2:1,moore:2:2,moore:3:1,er:0.05,er:0.2 allgather blocking 1024 auto")
  for line in "${lines[@]}"; do
    # shellcheck disable=SC2086
    selected $line && measure $line
  done
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
