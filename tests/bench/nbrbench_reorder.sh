#!/usr/bin/env bash
# nbrbench end to end with rank reordering: every library variant, the :reorder ones on their new
# ranks included, delivers what the MPI standard prescribes (nbrbench validates and exits 1
# otherwise), and on topologies whose ranks are shuffled reordering lowers the edges and bytes
# between the emulated nodes, while it never raises them.
#
#   nbrbench_reorder.sh MPIEXEC ARGUMENT... -- NBRBENCH
set -euo pipefail
# shellcheck source=nbrbench_launcher.sh
source "$(dirname "$0")/nbrbench_launcher.sh"

"${launcher[@]}" "$nbrbench" --topology shuffled:moore:2:1,moore:2:1,er:0.3,shuffled:matrix:dwt_162 \
  --collective alltoallv,allgather --form blocking,nonblocking --bytes 64 \
  --variant direct,direct:reorder,pairs:reorder,groups:2:aware:reorder --node-size 4 --theta 1 \
  --runs 2 --reps 3 --warmup 1 >"$csv"

awk -F, '
NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
function v(name) { return $col[name] }
function fail(why) { print "nbrbench_reorder: " why ": " $0; failed = 1 }
v("variant") != "native" && v("valid") != "1" { fail("wrong data") }
v("reorder") == "1" {
    ++reordered_rows
    if (v("edge_cut_before") == "" || v("internode_bytes_after") == "") fail("no reordering figures")
    if (v("edge_cut_after") + 0 > v("edge_cut_before") + 0) fail("more edges between nodes")
    if (v("internode_bytes_after") + 0 > v("internode_bytes_before") + 0) fail("more bytes between nodes")
    if (v("topology") ~ /^shuffled:/ && !(v("edge_cut_after") + 0 < v("edge_cut_before") + 0 &&
                                          v("internode_bytes_after") + 0 < v("internode_bytes_before") + 0 &&
                                          v("reordered") == "1"))
        fail("a shuffled topology kept its cut")
}
v("reorder") == "0" && v("edge_cut_before") != "" { fail("reordering figures without reordering") }
END {
    if (reordered_rows == 0) { print "nbrbench_reorder: no row of a :reorder variant"; failed = 1 }
    exit failed
}' "$csv"
echo "nbrbench_reorder: $(($(wc -l <"$csv") - 1)) rows checked"
