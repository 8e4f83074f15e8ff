#!/bin/sh
# Which MPI features does SMPI provide?  Runs build/mpi_features once per feature (an unimplemented
# function aborts the whole simulation) on 2 nodes x 2 ranks, and checks the symbols of the MPI-4
# calls libnbrcomb can intercept.  Prints a Markdown table.
#   bench/smpi/pmpi-toy/run-probe.sh            (after make -C bench/smpi)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$here/build}
export NBR_SMPI_NODES=2 NBR_SMPI_CORES=2
# smpirun keeps its unrolled hostfile (smpitmp-hostf*) in the working directory when a run fails,
# as most of these do: work in a scratch directory.
scratch=$(mktemp -d)
cd "$scratch"
hosts=$scratch/hosts
printf 'node-0:2\nnode-1:2\n' > "$hosts"
run() {
  smpirun -np "$1" -platform "$B/libnbr_cluster.so" -hostfile "$hosts" --log=root.thres:critical \
    --log=smpi_config.thres:error "$B/mpi_features" "$2" 2>&1
}

echo "| feature | SMPI 3.32 | detail |"
echo "|---|---|---|"
for t in $(run 1 list | grep -v '^\['); do
  out=$(run 4 "$t")
  rc=$?
  nyi=$(echo "$out" | sed -n 's/.*Not yet implemented: \(PMPI_[A-Za-z_]*\).*/\1/p' | head -1)
  info=$(echo "$out" | sed -n 's/^INFO //p' | sort -u | head -2 | tr '\n' ' ')
  if echo "$out" | grep -q "^RESULT $t ok"; then
    echo "| $t | present | $info|"
  elif [ -n "$nyi" ]; then
    echo "| $t | aborts: Not yet implemented | $nyi |"
  elif echo "$out" | grep -q "^RESULT $t wrong"; then
    echo "| $t | present, wrong result | $(echo "$out" | sed -n "s/^RESULT $t wrong: //p") $info|"
  else
    echo "| $t | crashes (exit $rc) | $(echo "$out" | grep -io 'segmentation fault' | head -1) $info|"
  fi
done

lib=$(ldconfig -p | sed -n 's/.*libsimgrid.so.3.32.* => //p' | head -1)
for f in MPI_Neighbor_allgather_init MPI_Neighbor_allgatherv_init MPI_Neighbor_alltoall_init \
         MPI_Neighbor_alltoallv_init MPI_Neighbor_alltoallw_init; do
  if nm -D "$lib" | grep -q " T $f\$"; then where="in libsimgrid"; else where="no symbol in libsimgrid"; fi
  if grep -q "\\b$f\\b" /usr/include/smpi/smpi.h; then decl="declared"; else decl="not declared in mpi.h (MPI_VERSION 3.1)"; fi
  echo "| $f | missing symbol | $decl, $where |"
done
cd /
rm -rf "$scratch"
