#!/usr/bin/env bash
# nbrbench --guidelines end to end (its quick campaign), in two launches whose runs nbrguide pools:
# every guideline of paper 004, GL1-GL12, is tested natively and with the library; every row is
# whole, pools both launches' runs, and its verdict follows from its ratio and p (p <= 0.001 and
# ratio >= 1.03); every checked collective received what the standard prescribes (nbrbench exits 1
# where the library did not); the Tables 3-4 summary names every guideline; and plot.sh draws its
# figures; a launch that cannot write its measurements fails. Which guidelines hold is measured,
# not asserted.
#
#   nbrbench_guidelines.sh PLOT_SH NBRGUIDE MPIEXEC ARGUMENT... -- NBRBENCH
set -euo pipefail
plot=$1
nbrguide=$2
shift 2
launcher=()
while [[ $# -gt 0 && $1 != -- ]]; do launcher+=("$1"); shift; done
[[ $# -eq 2 ]] || { echo "usage: $0 PLOT_SH NBRGUIDE MPIEXEC ARGUMENT... -- NBRBENCH" >&2; exit 2; }
nbrbench=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A measurements file that cannot be written ends the launch before its campaign, with status 2.
status=0
"${launcher[@]}" "$nbrbench" --guidelines --quick --measurements "$work/missing/launch.csv" >/dev/null 2>&1 || status=$?
[[ $status -ne 0 && ! -e $work/missing ]] ||
  { echo "nbrbench_guidelines: an unwritable --measurements file did not fail the launch" >&2; exit 1; }

for launch in 1 2; do
  "${launcher[@]}" "$nbrbench" --guidelines --quick --seed "$launch" --measurements "$work/launch$launch.csv" \
    >"$work/launch$launch-tests.csv" 2>"$work/launch$launch.err" || { cat "$work/launch$launch.err" >&2; exit 1; }
done
"$nbrguide" "$work/launch1.csv" "$work/launch2.csv" >"$work/guidelines.csv" 2>"$work/stderr"
# The quick campaign's 8 runs from each launch.
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
         $col["runs"] != 16 { print "nbrbench_guidelines: " $col["runs"] " runs pooled, not 16: " $0; bad = 1 }
         END { exit bad }' "$work/guidelines.csv"

awk -F, '
NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
function v(name) { return $col[name] }
function fail(why) { print "nbrbench_guidelines: " why ": " $0; failed = 1 }
{
    seen[v("guideline"), v("variant")] = 1
    if (v("a_median_us") + 0 <= 0 || v("b_median_us") + 0 <= 0) fail("no latency")
    ratio = v("a_median_us") / v("b_median_us")
    if (ratio / v("ratio") > 1.01 || ratio / v("ratio") < 0.99) fail("ratio is not a over b")
    violated = v("p") + 0 <= 0.001 && v("ratio") + 0 >= 1.03
    if (v("violated") != violated) fail("verdict does not follow from p and ratio")
    if (v("valid") == "0") fail("wrong data")
}
END {
    for (g = 1; g <= 12; ++g)
        for (variant = 1; variant <= 2; ++variant) {
            name = variant == 1 ? "native" : "library"
            if (!(("GL" g, name) in seen)) { print "nbrbench_guidelines: no test of GL" g " " name; failed = 1 }
        }
    exit failed
}' "$work/guidelines.csv"
for g in $(seq 1 12); do
  grep -q "^  GL$g .* native .* library " "$work/stderr" || { echo "nbrbench_guidelines: no summary of GL$g" >&2; exit 1; }
done
"$plot" "$work/guidelines.csv" "$work/plots" >/dev/null
[[ -s $work/plots/violations.png ]] || { echo "nbrbench_guidelines: no violations.png" >&2; exit 1; }
echo "nbrbench_guidelines: $(($(wc -l <"$work/guidelines.csv") - 1)) tests checked"
