#!/bin/sh
# Run an SMPI program on the Stampede-calibrated cluster, NODES x CORES, ranks filling the nodes in
# order (ranks 0..CORES-1 on node-0, ...).
#   bench/smpi/smpirun-cluster.sh NODES CORES NP program [args...]
# Environment:
#   PLATFORM        an XML platform instead of build/libnbr_cluster.so
#   NBR_SMPI_FATPIPE=1  NICs without bandwidth sharing (faster to simulate, see README.md)
#   SMPIRUN_FLAGS   more smpirun options, e.g. "--cfg=smpi/privatize-libs:/abs/path/libnbrcomb.so.0"
#   NBR_SIMGRID=package  the package's libsimgrid even where build-simgrid.sh built one
set -eu
if [ $# -lt 4 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
nodes=$1 cores=$2 np=$3
shift 3
platform=${PLATFORM:-$here/build/libnbr_cluster.so}
# The SimGrid library without the list scan (build-simgrid.sh) in place of the package's, where
# built: smpirun puts the system's library directory first on LD_LIBRARY_PATH, so the simulator
# preloads it (same soname) through smpirun's -wrapper.
simgrid=$(cd "$here/../.." && pwd)/build-simgrid/lib/libsimgrid.so.3.32
wrapper=
if [ "${NBR_SIMGRID:-}" != package ] && [ -e "$simgrid" ]; then wrapper="env LD_PRELOAD=$simgrid"; fi
export NBR_SMPI_NODES=$nodes NBR_SMPI_CORES=$cores
# Every rank maps its own copies of the program and the privatized libraries, about 13 mappings each:
# past about 4900 ranks that exceeds Linux's default limit of 65530, and a rank whose copy fails to
# load aborts the simulation ("Did you compile the program with a SMPI-specific compiler").
map_count=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$map_count" -gt 0 ] && [ "$map_count" -lt $((np * 14)) ]; then
  echo "smpirun-cluster.sh: vm.max_map_count is $map_count; $np ranks need about $((np * 14)):" \
    "sysctl -w vm.max_map_count=$((np * 14))" >&2
  exit 1
fi
# A directory of its own for smpirun's copies of the privatized libraries, so that simulations can
# run side by side.
TMPDIR=$(mktemp -d)
export TMPDIR
hosts=$TMPDIR/hosts
trap 'rm -rf "$TMPDIR"' EXIT
i=0
while [ $i -lt "$nodes" ]; do echo "node-$i:$cores"; i=$((i + 1)); done > "$hosts"
# shellcheck disable=SC2086  # SMPIRUN_FLAGS is a list of options
smpirun ${wrapper:+-wrapper "$wrapper"} -np "$np" -platform "$platform" -hostfile "$hosts" ${SMPIRUN_FLAGS:-} "$@"
