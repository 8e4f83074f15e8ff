#!/usr/bin/env bash
# Turns nbrbench's CSV into PNG figures like the papers' (gnuplot, Debian's gnuplot-nox):
#   latency_TOPOLOGY_COLLECTIVE_FORM.png  latency against message size, one line per variant, the
#                                         bars spanning the smallest to the largest run median
#                                         (paper 000, Figs. 3 and 5)
#   speedup_moore_COLLECTIVE_FORM.png     native latency / variant latency for every Moore (D,R)
#   speedup_vonneumann_...png             (paper 000 Fig. 4, paper 002 Fig. 5), and von Neumann
#   speedup_er_COLLECTIVE_FORM.png        the same against the density of the random graphs
#                                         (paper 000 Fig. 2, paper 002 Fig. 8b)
#   message_ratio_k.png                   messages per call relative to native against the group
#                                         size k, per topology, topology-agnostic and -aware
# The speedups are taken at the smallest message size in the CSV, as the papers' 4 bytes.
# From nbrsim's CSV (recognized by its ratio_avg column) instead:
#   message_ratio_k.png                   the same ratio against k for the groups rows, one line
#                                         per topology (and process count), agnostic and aware
#   message_ratio_density.png             for random graphs: the ratio against the density, one
#                                         line per mode and k, agnostic and aware
# From nbrbench --guidelines's CSV (recognized by its guideline column) instead:
#   violations.png                        per guideline relation, the share of its tests violated,
#                                         natively and with the library (paper 004, Tables 3-4)
#   GLn_A_vs_B_VARIANT_GROUP.png          for every group with a violation, the median latency of
#                                         both sides against message size, the bars spanning the
#                                         smallest to the largest run median (paper 004, Fig. 1a)
# Columns are found by name, so CSVs with more columns plot the same.
set -euo pipefail

usage() {
    echo "usage: $0 RESULTS.csv [OUTPUT_DIR]   (OUTPUT_DIR defaults to RESULTS-plots beside the CSV)" >&2
    exit 2
}
[[ $# -ge 1 && $# -le 2 && -r $1 ]] || usage
csv=$1
out=${2:-${csv%.csv}-plots}
command -v gnuplot >/dev/null || { echo "$0: gnuplot is missing (apt-get install gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The awk functions both figure programs use: a column by name, ordered lists of distinct
# values, and a PNG terminal for the next figure.
shared_functions='
function need(name) {
    if (!(name in col)) { print "plot.sh: the CSV has no column " name > "/dev/stderr"; failed = 1; exit 1 }
    return col[name]
}
# Adds value to the ordered list (items[list, 1..count[list]]) unless it is there.
function remember(list, value) {
    if ((list SUBSEP value) in seen) return
    seen[list, value] = 1
    items[list, ++count[list]] = value
}
function terminal(file, title, xlabel, ylabel) {
    print "reset" > gp
    print "set terminal pngcairo size 900,560 font \",10\"" > gp
    print "set output \"" out "/" file "\"" > gp
    print "set title \"" title "\" noenhanced" > gp
    print "set xlabel \"" xlabel "\"" > gp
    print "set ylabel \"" ylabel "\"" > gp
    print "set key outside right top noenhanced" > gp
    print "set grid ytics" > gp
}
'

# nbrbench --guidelines's CSV: paper 004's guideline tests.
if [[ ,$(head -n 1 "$csv"), == *,guideline,* ]]; then
awk -F, -v work="$work" -v out="$out" "$shared_functions"'
function safe(text) { gsub(/[^A-Za-z0-9._-]/, "_", text); gsub(/_+/, "_", text); return text }
# The group as a title reads it: its levels that are set, the numbers named.
function group_columns(    i, key, name, value) {
    key = ""
    for (i = 1; i <= ngroup; ++i) {
        name = group[i]; value = $col[name]
        if (value == "") continue
        key = key (key == "" ? "" : ", ") (name == "dims" || name == "reorder" ? name " " : "") value
    }
    return key
}
NR == 1 {
    for (i = 1; i <= NF; ++i) col[$i] = i
    c_guideline = need("guideline"); c_relation = need("relation"); c_a = need("a"); c_b = need("b")
    c_variant = need("variant"); c_bytes = need("bytes"); c_violated = need("violated"); c_ranks = need("ranks")
    c_am = need("a_median_us"); c_alo = need("a_run_median_min_us"); c_ahi = need("a_run_median_max_us")
    c_bm = need("b_median_us"); c_blo = need("b_run_median_min_us"); c_bhi = need("b_run_median_max_us")
    ngroup = split("variant neighborhood dims ordering constructor reorder operation form", group, " ")
    for (i = 1; i <= ngroup; ++i) need(group[i])
    gp = work "/figures.gp"
    next
}
{
    relation = $c_guideline " " $c_relation; v = $c_variant; ranks = $c_ranks
    remember("relations", relation); remember("variants", v)
    ++tests[relation, v]; violations[relation, v] += $c_violated
    g = relation SUBSEP group_columns()
    remember("groups", g); remember("rows" SUBSEP g, $c_bytes)
    if ($c_violated == 1) violated[g] = 1
    a_of[g] = $c_a; b_of[g] = $c_b
    point[g, $c_bytes] = $c_am " " $c_alo " " $c_ahi " " $c_bm " " $c_blo " " $c_bhi
}
END {
    if (failed || NR < 2) exit 1
    # The share of violated tests per relation and variant.
    data = work "/violations.dat"
    for (ri = 1; ri <= count["relations"]; ++ri) {
        r = items["relations", ri]; line = "\"" r "\""
        for (vi = 1; vi <= count["variants"]; ++vi) {
            v = items["variants", vi]
            line = line " " ((r, v) in tests ? 100 * violations[r, v] / tests[r, v] : 0)
        }
        print line > data
    }
    close(data)
    plot = ""
    for (vi = 1; vi <= count["variants"]; ++vi)
        plot = plot (vi > 1 ? ", " : "") "\"" data "\" using " vi + 1 (vi == 1 ? ":xtic(1)" : "") " title \"" items["variants", vi] "\""
    terminal("violations.png", "Paper 004 guidelines: tests violated, " ranks " ranks", "", "violated tests (%)")
    print "set terminal pngcairo size 1200,600 font \",10\"" > gp
    print "set style data histograms\nset style histogram clustered\nset style fill solid 0.8 border -1" > gp
    print "set boxwidth 0.9\nset xtics rotate by -40 noenhanced\nset yrange [0:*]\nset bmargin 12\nplot " plot > gp
    # A figure per group with a violation.
    for (gi = 1; gi <= count["groups"]; ++gi) {
        g = items["groups", gi]
        if (!(g in violated)) continue
        split(g, parts, SUBSEP)
        split(parts[1], words, " ")
        name = safe(words[1] "_" a_of[g] "_vs_" b_of[g] "_" parts[2])
        data = work "/" name ".dat"
        list = "rows" SUBSEP g
        categorical = count[list] == 1 && items[list, 1] == ""
        for (pi = 1; pi <= count[list]; ++pi) {
            b = items[list, pi]
            print (categorical ? 1 : b), point[g, b] > data
        }
        close(data)
        terminal(name ".png", parts[1] ": " parts[2] ", " ranks " ranks",
                 categorical ? "" : "bytes per neighbor", "latency (us), median of run medians")
        if (categorical)
            print "set xrange [0.5:1.5]\nset xtics (\"\" 1)" > gp
        else
            print "set logscale x 2\nset format x \"%.0f\"" > gp
        print "set logscale y\nplot \"" data "\" using 1:2:3:4 with yerrorlines title \"" a_of[g] "\", \"" data \
              "\" using 1:5:6:7 with yerrorlines title \"" b_of[g] "\"" > gp
    }
    close(gp)
}
' "$csv"
gnuplot "$work/figures.gp"
echo "$0: $(ls "$out"/*.png | wc -l) figures in $out"
exit 0
fi

# nbrsim's CSV: message ratios of simulated processes.
if [[ ,$(head -n 1 "$csv"), == *,ratio_avg,* ]]; then
awk -F, -v work="$work" -v out="$out" "$shared_functions"'
# Sorts the points "x y" of series by x.
function sort_points(series,    i, j, v, a, b) {
    for (i = 2; i <= count[series]; ++i) {
        v = items[series, i]; split(v, a, " ")
        for (j = i - 1; j >= 1; --j) {
            split(items[series, j], b, " ")
            if (b[1] + 0 <= a[1] + 0) break
            items[series, j + 1] = items[series, j]
        }
        items[series, j + 1] = v
    }
}
# Writes one data block per series of list and returns the plot command drawing them.
# A series and its aware twin share a color; the aware one is dashed.
function blocks(list, data,    si, pi, name, base, colors, plot) {
    plot = ""
    for (si = 1; si <= count[list]; ++si) {
        name = items[list, si]
        base = name; sub(/, aware$/, "", base)
        if (!((list, base) in color)) color[list, base] = ++colors
        sort_points(list SUBSEP name)
        for (pi = 1; pi <= count[list SUBSEP name]; ++pi) print items[list SUBSEP name, pi] > data
        print "\n" > data
        plot = plot (si > 1 ? ", " : "") "\"" data "\" index " si - 1 " using 1:2 with linespoints lc " \
               color[list, base] " dt " (base == name ? 1 : 2) " title \"" name "\""
    }
    close(data)
    return plot
}
NR == 1 {
    for (i = 1; i <= NF; ++i) col[$i] = i
    c_topology = need("topology"); c_processes = need("processes"); c_mode = need("mode"); c_k = need("k")
    c_node_size = need("node_size"); c_theta = need("theta"); c_ratio = need("ratio_avg")
    gp = work "/figures.gp"
    next
}
{
    t = $c_topology; p = $c_processes; aware = $c_node_size + 0 > 0
    remember("processes", p); remember("thetas", $c_theta)
    if (aware) node_size = $c_node_size
    where = aware ? ", aware" : ""
    if ($c_mode == "groups") {
        name = t " P=" p where
        remember("by_k", name); remember("by_k" SUBSEP name, $c_k " " $c_ratio)
    }
    if (index(t, "er:") == 1) {
        split(t, field, ":")
        name = ($c_mode == "pairs" ? "pairs" : "k=" $c_k) " P=" p where
        remember("by_density", name); remember("by_density" SUBSEP name, field[2] " " $c_ratio)
    }
}
END {
    if (failed || NR < 2) exit 1
    about = "nbrsim, theta " items["thetas", 1] (node_size ? ", aware: nodes of " node_size " ranks" : "")
    if (count["by_k"] > 0) {
        plot = blocks("by_k", work "/by_k.dat")
        terminal("message_ratio_k.png", "Messages per call relative to native MPI, groups of k (" about ")",
                 "k (friends per group)", "messages / native messages")
        print "set yrange [0:1.05]\nset xtics 1\nset offsets 0.5, 0.5, 0, 0\nplot " plot > gp
    }
    if (count["by_density"] > 0) {
        plot = blocks("by_density", work "/by_density.dat")
        terminal("message_ratio_density.png", "Messages per call relative to native MPI, random graphs (" about ")",
                 "edge density", "messages / native messages")
        print "set yrange [0:1.05]\nset xrange [0:1]\nplot " plot > gp
    }
    close(gp)
}
' "$csv"
gnuplot "$work/figures.gp"
echo "$0: $(ls "$out"/*.png | wc -l) figures in $out"
exit 0
fi

# awk writes the data of every figure into $work and the gnuplot commands that draw them.
awk -F, -v work="$work" -v out="$out" "$shared_functions"'
function safe(text) { gsub(/[^A-Za-z0-9._-]/, "_", text); return text }
function sort_numeric(list,    i, j, v) {
    for (i = 2; i <= count[list]; ++i) {
        v = items[list, i]
        for (j = i - 1; j >= 1 && items[list, j] + 0 > v + 0; --j) items[list, j + 1] = items[list, j]
        items[list, j + 1] = v
    }
}
function density(topology,    field) { split(topology, field, ":"); return field[2] + 0 }
NR == 1 {
    for (i = 1; i <= NF; ++i) col[$i] = i
    c_topology = need("topology"); c_collective = need("collective"); c_form = need("form")
    c_bytes = need("bytes"); c_variant = need("variant"); c_median = need("median_us")
    c_min = need("run_median_min_us"); c_max = need("run_median_max_us"); c_ratio = need("ratio_to_native")
    c_k = need("k"); c_aware = need("aware"); c_message_ratio = need("message_ratio")
    c_intercepted = need("intercepted"); c_ranks = need("ranks")
    gp = work "/figures.gp"
    next
}
{
    t = $c_topology; c = $c_collective; f = $c_form; b = $c_bytes; v = $c_variant
    remember("topologies", t); remember("collectives", c); remember("forms", f); remember("variants", v)
    remember("bytes", b); remember("variants_of" SUBSEP t SUBSEP c SUBSEP f, v)
    median[t, c, f, b, v] = $c_median; low[t, c, f, b, v] = $c_min; high[t, c, f, b, v] = $c_max
    ratio[t, c, f, b, v] = $c_ratio; ranks = $c_ranks
    if ($c_k != "" && $c_intercepted + 0 > 0 && $c_message_ratio != "") {
        k_of[v] = $c_k; aware_of[v] = $c_aware; message_ratio[t, c, f, b, v] = $c_message_ratio
    }
}
END {
    if (failed || NR < 2) exit 1
    sort_numeric("bytes")
    smallest = items["bytes", 1]

    # Latency against message size.
    for (ti = 1; ti <= count["topologies"]; ++ti)
    for (ci = 1; ci <= count["collectives"]; ++ci)
    for (fi = 1; fi <= count["forms"]; ++fi) {
        t = items["topologies", ti]; c = items["collectives", ci]; f = items["forms", fi]
        list = "variants_of" SUBSEP t SUBSEP c SUBSEP f
        if (count[list] == 0) continue
        name = safe("latency_" t "_" c "_" f)
        data = work "/" name ".dat"
        plot = ""
        for (vi = 1; vi <= count[list]; ++vi) {
            v = items[list, vi]
            for (bi = 1; bi <= count["bytes"]; ++bi) {
                b = items["bytes", bi]
                if ((t, c, f, b, v) in median)
                    print b, median[t, c, f, b, v], low[t, c, f, b, v], high[t, c, f, b, v] > data
            }
            print "\n" > data
            plot = plot (vi > 1 ? ", " : "") "\"" data "\" index " vi - 1 \
                   " using 1:2:3:4 with yerrorlines title \"" v "\""
        }
        close(data)
        terminal(name ".png", "MPI_Neighbor_" c " (" f ") on " t ", " ranks " ranks",
                 "bytes per neighbor", "latency (us), median of run medians")
        print "set logscale x 2\nset logscale y\nset format x \"%.0f\"" > gp
        print "plot " plot > gp
    }

    # Speedup against the topology: (D,R) of Moore and von Neumann grids, density of random graphs.
    split("moore vonneumann er", kinds, " ")
    for (kind_i = 1; kind_i <= 3; ++kind_i)
    for (ci = 1; ci <= count["collectives"]; ++ci)
    for (fi = 1; fi <= count["forms"]; ++fi) {
        kind = kinds[kind_i]; c = items["collectives", ci]; f = items["forms", fi]
        delete rows; rows_n = 0
        for (ti = 1; ti <= count["topologies"]; ++ti) {
            t = items["topologies", ti]
            if (index(t, kind ":") == 1 && (t, c, f, smallest, "native") in median) rows[++rows_n] = t
        }
        if (rows_n == 0) continue
        if (kind == "er")  # by density, whatever the order on the command line
            for (i = 2; i <= rows_n; ++i) {
                t = rows[i]; split(t, field, ":")
                for (j = i - 1; j >= 1 && density(rows[j]) > field[2] + 0; --j) rows[j + 1] = rows[j]
                rows[j + 1] = t
            }
        name = safe("speedup_" kind "_" c "_" f)
        data = work "/" name ".dat"
        plot = ""; columns = 1; top = 1
        for (vi = 1; vi <= count["variants"]; ++vi) {
            v = items["variants", vi]
            if (v == "native") continue
            ++columns
            plot = plot (plot == "" ? "" : ", ") "\"" data "\" using " \
                   (kind == "er" ? "1:" columns " with linespoints" : columns ":xtic(1)") " title \"" v "\""
        }
        if (columns == 1) continue
        for (r = 1; r <= rows_n; ++r) {
            t = rows[r]; split(t, field, ":")
            line = kind == "er" ? field[2] : "(" field[2] "," field[3] ")"
            for (vi = 1; vi <= count["variants"]; ++vi) {
                v = items["variants", vi]
                if (v == "native") continue
                key = t SUBSEP c SUBSEP f SUBSEP smallest SUBSEP v
                speedup = (key in ratio) && ratio[key] > 0 ? 1 / ratio[key] : "NaN"
                if (speedup != "NaN" && speedup > top) top = speedup
                line = line " " speedup
            }
            print line > data
        }
        close(data)
        terminal(name ".png", "MPI_Neighbor_" c " (" f "), " smallest " bytes, " ranks " ranks: speedup over native",
                 kind == "er" ? "edge density" : "(D, R)", "native latency / variant latency")
        if (kind != "er")
            print "set style data histograms\nset style histogram clustered\n" \
                  "set style fill solid 0.8 border -1\nset boxwidth 0.9" > gp
        else
            print "set xrange [0:1]" > gp
        # Room above the larger of 1 (native) and the best speedup, so the dashed line at 1 shows.
        print "set yrange [0:" 1.1 * top "]\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2" > gp
        print "plot " plot > gp
    }

    # Message ratio against k: blocking calls (the library runs them), smallest size, first collective.
    c = items["collectives", 1]
    data = work "/message_ratio_k.dat"
    plot = ""; block = 0; k_low = 16; k_high = 2
    for (ti = 1; ti <= count["topologies"]; ++ti)
    for (aware = 0; aware <= 1; ++aware) {
        t = items["topologies", ti]; n = 0
        for (vi = 1; vi <= count["variants"]; ++vi) {
            v = items["variants", vi]
            if ((v in k_of) && aware_of[v] == aware && (t, c, "blocking", smallest, v) in message_ratio) {
                print k_of[v], message_ratio[t, c, "blocking", smallest, v] > data; ++n
                if (k_of[v] < k_low) k_low = k_of[v]
                if (k_of[v] > k_high) k_high = k_of[v]
            }
        }
        if (n == 0) continue
        print "\n" > data
        plot = plot (plot == "" ? "" : ", ") "\"" data "\" index " block++ \
               " using 1:2 with linespoints title \"" t (aware ? " aware" : "") "\""
    }
    close(data)
    if (plot != "") {
        terminal("message_ratio_k.png", "Messages per call relative to native MPI, " ranks " ranks",
                 "k (friends per group)", "messages / native messages")
        print "set xtics 1\nset xrange [" k_low - 0.5 ":" k_high + 0.5 "]\nset yrange [0:*]\nplot " plot > gp
    }
    close(gp)
}
' "$csv"

gnuplot "$work/figures.gp"
echo "$0: $(ls "$out"/*.png | wc -l) figures in $out"
