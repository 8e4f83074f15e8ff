#!/usr/bin/env bash
# The example job as an application that follows reorder=1: it creates its topology with
# reorder=1 and takes the part of the problem of its new rank. Native MPI keeps the ranks; the
# library (NBRCOMB_REORDER=on, emulated nodes of 4, pairs mode so that it runs every call)
# renumbers them. Preloaded, the job runs both in one launch and fails if their results differ;
# without the library both of its sides are native. Every side of both launches must give the
# same checksum, each launch a verdict, and the library's ranks must carry less weight between nodes.
#
#   halo_job_reorder.sh MPIEXEC ARGUMENT... -- PRELOAD_FLAG... -- HALO_JOB
set -euo pipefail
launcher=()
while [[ $# -gt 0 && $1 != -- ]]; do launcher+=("$1"); shift; done
shift
preload=()
while [[ $# -gt 0 && $1 != -- ]]; do preload+=("$1"); shift; done
[[ $# -eq 2 ]] || { echo "usage: $0 MPIEXEC ARGUMENT... -- PRELOAD_FLAG... -- HALO_JOB" >&2; exit 2; }
job=("$2" --matrix can_1054 --reorder 1 --iterations 20 --runs 4 --warmup 2)
native=$("${launcher[@]}" "${job[@]}")
library=$(NBRCOMB_MODE=pairs NBRCOMB_REORDER=on NBRCOMB_NODE_SIZE=4 "${launcher[@]}" "${preload[@]}" "${job[@]}")
field() { sed -n "s/^$2=//p" <<<"$1"; }

status=0
[[ $(field "$native" library) == none ]] || { echo "halo_job_reorder: the library is in the native run" >&2; status=1; }
[[ $(field "$library" library_calls) -gt 0 ]] || { echo "halo_job_reorder: the library ran no call" >&2; status=1; }
for run in "$native" "$library"; do
  [[ $(field "$run" verdict) =~ ^(faster|tie|slower)$ ]] || { echo "halo_job_reorder: no verdict" >&2; status=1; }
done
[[ $(field "$library" reordered) == 1 ]] || { echo "halo_job_reorder: the ranks stayed" >&2; status=1; }
before=$(field "$library" edge_weight_between_nodes_before)
after=$(field "$library" edge_weight_between_nodes_after)
[[ -n $after && $after -lt $before ]] || { echo "halo_job_reorder: weight between nodes $before -> $after" >&2; status=1; }
checksums=$(for run in "$native" "$library"; do field "$run" checksum_native; field "$run" checksum_library; done)
if [[ $(sort -u <<<"$checksums" | wc -l) -ne 1 || $(wc -l <<<"$checksums") -ne 4 ]]; then
  echo "halo_job_reorder: checksums differ:" $checksums >&2
  status=1
fi
echo "halo_job_reorder: weight between nodes $before -> $after, checksum $(field "$library" checksum_library)"
exit $status
