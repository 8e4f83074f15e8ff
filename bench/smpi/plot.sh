#!/usr/bin/env bash
# Figures from bench/smpi/run.sh's CSV (gnuplot, Debian's gnuplot-nox):
#   smpi-latency-TOPOLOGY-PROCESSES.png  allgather latency against block size, one line per variant
#                                        (paper 000, Fig. 3)
#   smpi-speedup-density-PROCESSES.png   direct latency / variant latency of the random graphs at
#                                        4 B against their density (paper 000, Fig. 2)
#   bench/smpi/plot.sh CSV OUTPUT_DIR
set -euo pipefail
[[ $# -eq 2 && -r $1 ]] || { sed -n '2,7p' "$0" >&2; exit 2; }
csv=$1 out=$2
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One data file per figure and line: blocking allgather rows, columns found by name.
python3 - "$csv" "$work" <<'EOF'
import csv, collections, os, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["collective"] == "allgather" and r["form"] == "blocking"]
lines = collections.defaultdict(list)
for r in rows:
    lines[("latency", r["topology"], r["processes"], r["variant"])].append((int(r["bytes"]), float(r["median_us"])))
    if r["topology"].startswith("er:") and r["bytes"] == "4" and r["variant"] != "direct":
        lines[("speedup", "er", r["processes"], r["variant"])].append(
            (float(r["topology"].split(":")[1]), 1 / float(r["ratio_to_direct"])))
for (kind, topology, processes, variant), points in lines.items():
    name = f"{kind}-{topology.replace(':', '_')}-{processes}"
    os.makedirs(os.path.join(sys.argv[2], name), exist_ok=True)
    with open(os.path.join(sys.argv[2], name, variant.replace(":", "_")), "w") as f:
        f.writelines(f"{x} {y}\n" for x, y in sorted(points))
EOF

for dir in "$work"/*/; do
  name=$(basename "$dir")
  kind=${name%%-*} rest=${name#*-}
  topology=${rest%-*} processes=${rest##*-}
  plots=()
  for line in "$dir"*; do
    plots+=("'$line' using 1:2 with linespoints title '$(basename "$line" | tr _ :)'")
  done
  if [[ $kind == latency ]]; then
    [[ $(cat "$dir"* | wc -l) -gt ${#plots[@]} ]] || continue  # one size: no line to draw
    settings="set logscale xy; set xlabel 'bytes per neighbor'; set ylabel 'latency (us, simulated)'
      set title '${topology//_/:}, $processes processes, allgather (SMPI, Stampede model)'"
    png=$out/smpi-latency-$topology-$processes.png
  else
    settings="set xlabel 'density'; set ylabel 'speedup over direct'
      set title 'random graphs, $processes processes, allgather 4 B (SMPI, Stampede model)'"
    png=$out/smpi-speedup-density-$processes.png
  fi
  gnuplot <<EOF
set terminal pngcairo size 800,500
set output '$png'
set key outside right
$settings
plot $(IFS=,; echo "${plots[*]}")
EOF
done
