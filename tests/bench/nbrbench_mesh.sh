#!/usr/bin/env bash
# The ghost exchange of a METIS-partitioned mesh and of a coarse multigrid level (bench/topology/
# mesh.h), whose neighbors exchange unequal counts: every variant delivers with alltoallv and
# alltoallw what the MPI standard prescribes (nbrbench exits 1 otherwise, and every row must say
# valid), and the counts do differ between neighbors.
#
#   nbrbench_mesh.sh MPIEXEC ARGUMENT... -- NBRBENCH
set -euo pipefail
# shellcheck source=nbrbench_launcher.sh
source "$(dirname "$0")/nbrbench_launcher.sh"

"${launcher[@]}" "$nbrbench" --topology mesh:20000,amg:20000:2 --collective alltoallv,alltoallw \
  --form blocking,nonblocking --bytes 8 --variant pairs,aggregate,dimwise --theta 2 --runs 1 --reps 3 --warmup 1 >"$csv"

awk -F, '
NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
function v(name) { return $col[name] }
function fail(why) { print "nbrbench_mesh: " why ": " $0; failed = 1 }
{
    ++rows
    if (v("valid") != "1") fail("wrong data")
    # Native MPI sends one message per edge; equal counts would carry out_degree x 8 bytes.
    if (v("variant") == "native" && v("bytes_per_call") + 0 == v("out_degree") * 8) fail("equal counts")
}
END {
    if (rows != 32) { print "nbrbench_mesh: " rows " rows, not 32"; failed = 1 }
    exit failed
}' "$csv"
echo "nbrbench_mesh: $(($(wc -l <"$csv") - 1)) rows checked"
