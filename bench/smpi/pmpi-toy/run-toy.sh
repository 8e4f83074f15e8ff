#!/bin/sh
# Is a PMPI interposer's state per rank under SMPI?  Runs the toy (toy_pmpi.cpp + toy_app.c, 4 ranks
# on one node) in the configurations of README.md; every line must read "expected N | global N ...".
#   bench/smpi/pmpi-toy/run-toy.sh                (after make -C bench/smpi)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$here/build}
export NBR_SMPI_NODES=1 NBR_SMPI_CORES=4
hosts=$(mktemp)
echo "node-0:4" > "$hosts"
run() {
  title=$1
  shift
  echo "== $title"
  out=$(smpirun -np 4 -platform "$B/libnbr_cluster.so" -hostfile "$hosts" --log=root.thres:critical "$@" 2>&1)
  echo "$out" | grep '^toy rank' | sort | sed 's/ | &global.*//'
  echo "$out" | grep -q '^toy rank' || echo "   (the wrappers were never called: no output from MPI_Finalize's wrapper)"
}
run "shared library, smpi/privatize-libs:<full path>" --cfg=smpi/privatize-libs:"$B/libtoy_pmpi.so" "$B/toy_app"
run "shared library, not privatized" "$B/toy_app"
run "wrapper linked into the application" "$B/toy_app_static"
run "wrapper linked into the application, -no-privatize" -no-privatize "$B/toy_app_static"
run "wrapper linked into the application, smpi/privatization:mmap" --cfg=smpi/privatization:mmap "$B/toy_app_static"
run "shared library privatized, contexts/factory:thread" --cfg=contexts/factory:thread \
    --cfg=smpi/privatize-libs:"$B/libtoy_pmpi.so" "$B/toy_app"
run "shared library privatized, contexts/factory:ucontext" --cfg=contexts/factory:ucontext \
    --cfg=smpi/privatize-libs:"$B/libtoy_pmpi.so" "$B/toy_app"
run "LD_PRELOAD of the library (application not linked to it)" \
    --cfg=smpi/privatize-libs:"$B/libtoy_pmpi.so" -wrapper "env LD_PRELOAD=$B/libtoy_pmpi.so" "$B/many_small" -n 1
rm -f "$hosts"
