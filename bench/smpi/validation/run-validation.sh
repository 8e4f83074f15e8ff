#!/bin/sh
# Runs the validation microbenchmarks on the Stampede-calibrated platforms and compares them with
# the published measurements (calibration/stampede_medians.csv).  Needs make -C bench/smpi first.
#   bench/smpi/validation/run-validation.sh            (results in bench/smpi/build/validation/)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$here/build}
out=$B/validation
mkdir -p "$out"
export NBR_SMPI_NODES=3 NBR_SMPI_CORES=16
quiet="--log=root.thres:warning"

# Ping-pong at every size of the published data: rank 1 on rank 0's node, rank 2 on another node.
printf 'node-0:2\nnode-1:1\n' > "$out/hosts_pingpong"
sed -n 's/^inter,\([0-9]*\),.*/\1/p' "$here/calibration/stampede_medians.csv" > "$out/sizes"
python3 "$here/platforms/gen_xml.py" 3 16 > "$out/cluster_3x16.xml"
smpirun -np 3 -platform "$B/libnbr_cluster.so" -hostfile "$out/hosts_pingpong" $quiet \
  "$B/pingpong" -p 1 -p 2 -f "$out/sizes" > "$out/pingpong_so.csv"
smpirun -np 3 -platform "$out/cluster_3x16.xml" -hostfile "$out/hosts_pingpong" $quiet \
  "$B/pingpong" -p 1 -p 2 -f "$out/sizes" > "$out/pingpong_xml.csv"

# Many small messages: 8-byte blocks to N peers on two other nodes / on the same node.
printf 'node-0:1\nnode-1:16\nnode-2:16\n' > "$out/hosts_inter"
printf 'node-0:16\n' > "$out/hosts_intra"
smpirun -np 33 -platform "$B/libnbr_cluster.so" -hostfile "$out/hosts_inter" $quiet \
  "$B/many_small" -b 8 -n 1,2,4,8,16,24,32 > "$out/many_inter.csv"
smpirun -np 16 -platform "$B/libnbr_cluster.so" -hostfile "$out/hosts_intra" $quiet \
  "$B/many_small" -b 8 -n 1,2,4,8,15 > "$out/many_intra.csv"

python3 "$here/validation/compare.py" "$here/calibration/stampede_medians.csv" "$out/pingpong_so.csv" \
  "$out/pingpong_xml.csv" "$out/many_inter.csv" "$out/many_intra.csv" | tee "$out/report.md"
