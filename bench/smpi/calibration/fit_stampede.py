#!/usr/bin/env python3
"""Fit the SMPI cost model of bench/smpi to published MPI measurements of TACC Stampede.

Input: the raw calibration measurements that A. Legrand took on Stampede on 2017-06-01 for the
SimGrid platform-calibration project (framagit.org/simgrid/platform-calibration, mirrored at
github.com/Ezibenroc/platform-calibration, commit 32841f2d5a2203445409dec08a7917ad859f5a86):

  data/stampede_17_06_01-17:14/calibration/testplatform_{PingPong,Isend}.csv
      two nodes, one rank each: MVAPICH2 2.1 over Mellanox FDR InfiniBand (inter-node)
  data/stampede_17_06_01-17:26/calibration/testplatform_{PingPong,Isend}.csv
      one node, two ranks: MVAPICH2 2.1 shared memory (intra-node)

testplatform_{Test,Iprobe}.csv give the duration of single MPI_Test / MPI_Iprobe calls.
Each PingPong line pair is (MPI_Send duration, MPI_Recv duration) of rank 0 for one round trip;
their sum is the round-trip time.  Isend lines are MPI_Isend call durations.

Model (LogGP-like, one set of linear pieces per message-size segment):
  os(s)  : CPU time of MPI_Send  = fit of the measured MPI_Send duration (eager sizes only;
           0 for rendezvous sizes, where SMPI makes the send synchronous itself)
  ois(s) : CPU time of MPI_Isend = fit of the measured MPI_Isend duration (all sizes)
  or(s)  : CPU time the receiver spends per message.  The published receive timings
           (testplatform_Recv.csv) were taken right after a sleep and are larger than the whole
           one-way time (2.9 us against 1.3 us inter-node), so they are not used.  Instead the
           part of the one-way time left after the send overhead, H(s) - os(s), is split evenly
           between the receiver and the wire, and or(s) is never taken larger than ois(s):
               or(s) = min(ois(s), (H(s) - os(s)) / 2)       (eager sizes; 0 for rendezvous)
  T(s)   : network time = H(s) - os(s) - or(s) = lat(s) + s / bw(s),
           with H(s) the measured half round-trip time.
All fits are ordinary least squares over the per-size medians inside a segment.

Output (to stdout, or files with --out-dir):
  stampede_model.json   the fitted pieces (seconds, bytes)
  stampede_medians.csv  per-size measured medians (half RTT, Send, Isend) used by validation
  stampede_model.h      the same pieces as C++ tables for platforms/nbr_cluster.cpp
(platforms/gen_xml.py turns stampede_model.json into XML platforms.)

Usage:
  fit_stampede.py --git-dir /path/to/platform-calibration/.git [--out-dir DIR]
  fit_stampede.py --data-dir /path/to/platform-calibration [--out-dir DIR]
"""
import argparse
import collections
import csv
import io
import json
import os
import statistics
import subprocess
import sys

RUNS = {
    # name: (directory, eager threshold in bytes, segment lower bounds).  The bounds are where the
    # measured curves change slope: 150 B (end of MVAPICH2's small-message fast path), the eager
    # limit (MPI_Send turns synchronous: 17408 B over InfiniBand, between 8023 B and 8150 B in
    # shared memory), and a few more to follow the curvature.
    "inter": ("data/stampede_17_06_01-17:14/calibration", 17408, [0, 150, 1024, 4096, 17408, 65536, 262144]),
    "intra": ("data/stampede_17_06_01-17:26/calibration", 8150, [0, 150, 1024, 4096, 8150, 65536, 262144]),
}
DATA_COMMIT = "32841f2d5a2203445409dec08a7917ad859f5a86"


def read_text(args, path):
    if args.git_dir:
        return subprocess.run(["git", "--git-dir", args.git_dir, "show", f"HEAD:{path}"], check=True,
                              capture_output=True, text=True).stdout
    with open(os.path.join(args.data_dir, path)) as f:
        return f.read()


def medians(args, directory):
    """Per-size medians of the half round trip, of MPI_Send (in the ping-pong) and of MPI_Isend."""
    rows = list(csv.reader(io.StringIO(read_text(args, f"{directory}/testplatform_PingPong.csv"))))
    half, send = collections.defaultdict(list), collections.defaultdict(list)
    for a, b in zip(rows[0::2], rows[1::2]):
        assert a[0].strip() == "MPI_Send" and b[0].strip() == "MPI_Recv" and a[1] == b[1]
        size = int(a[1])
        half[size].append((float(a[3]) + float(b[3])) / 2)
        send[size].append(float(a[3]))
    isend = collections.defaultdict(list)
    for op, size, _, dur in csv.reader(io.StringIO(read_text(args, f"{directory}/testplatform_Isend.csv"))):
        isend[int(size)].append(float(dur))
    return {s: (statistics.median(half[s]), statistics.median(send[s]), statistics.median(isend[s]))
            for s in sorted(half) if s in isend}


def call_median(args, directory, op):
    """Median duration of one MPI_Test or MPI_Iprobe call (testplatform_{Test,Iprobe}.csv)."""
    rows = csv.reader(io.StringIO(read_text(args, f"{directory}/testplatform_{op}.csv")))
    return statistics.median(float(r[3]) for r in rows)


def ols(points):
    """Least squares line y = a + b x through (x, y) points."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx > 0 else 0.0
    return my - b * mx, b


def fit(meds, eager, bounds):
    segs = []
    for i, lo in enumerate(bounds):
        hi = bounds[i + 1] if i + 1 < len(bounds) else float("inf")
        sizes = [s for s in meds if lo <= s < hi]
        is_eager = hi <= eager
        ois = ols([(s, meds[s][2]) for s in sizes])
        if is_eager:
            os_ = ols([(s, meds[s][1]) for s in sizes])
            or_values = []
            for s in sizes:
                h = meds[s][0]
                o_s = os_[0] + os_[1] * s
                o_is = ois[0] + ois[1] * s
                or_values.append((s, max(0.0, min(o_is, (h - o_s) / 2))))
            or_ = ols(or_values)
        else:
            os_, or_ = (0.0, 0.0), (0.0, 0.0)
        net = ols([(s, meds[s][0] - (os_[0] + os_[1] * s) - (or_[0] + or_[1] * s)) for s in sizes])
        if net[0] < 0:  # keep the wire latency non-negative: refit the slope through the origin
            net = (0.0, sum(s * (meds[s][0] - os_[0] - os_[1] * s - or_[0] - or_[1] * s) for s in sizes)
                   / sum(s * s for s in sizes))
        segs.append({"min_size": lo, "eager": is_eager, "n_sizes": len(sizes),
                     "os": os_, "ois": ois, "or": or_, "lat": net[0], "inv_bw": net[1]})
    return segs


def predict(segs, s, what):
    seg = [g for g in segs if g["min_size"] <= s][-1]
    if what == "half":
        return (seg["os"][0] + seg["os"][1] * s + seg["or"][0] + seg["or"][1] * s
                + seg["lat"] + seg["inv_bw"] * s)
    return seg[what][0] + seg[what][1] * s


def cxx_table(name, segs):
    lines = [f"// {name}: min_size, os(a,b), ois(a,b), or(a,b), lat, inv_bw   (seconds, bytes)",
             f"static const Piece {name}[] = {{"]
    for g in segs:
        vals = [g["min_size"], *g["os"], *g["ois"], *g["or"], g["lat"], g["inv_bw"]]
        lines.append("    {" + ", ".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in vals) + "},")
    lines.append("};")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--git-dir", help="git directory of a platform-calibration clone")
    src.add_argument("--data-dir", help="work tree of a platform-calibration clone")
    ap.add_argument("--out-dir", help="write the output files here")
    args = ap.parse_args()

    model, med_rows = {"source": {"repository": "framagit.org/simgrid/platform-calibration",
                                  "data_commit": DATA_COMMIT,
                                  "runs": {k: v[0] for k, v in RUNS.items()}}}, []
    for name, (directory, eager, bounds) in RUNS.items():
        meds = medians(args, directory)
        segs = fit(meds, eager, bounds)
        # The NIC (or loopback) capacity is the best rate any single transfer reached.
        peak_bw = max(1.0 / g["inv_bw"] for g in segs if g["inv_bw"] > 0)
        model[name] = {"eager_threshold": eager, "peak_bw": peak_bw, "segments": segs,
                       "test": call_median(args, directory, "Test"),
                       "iprobe": call_median(args, directory, "Iprobe")}
        for s, (h, snd, isd) in meds.items():
            med_rows.append((name, s, h, snd, isd))
        worst = max(abs(predict(segs, s, "half") - meds[s][0]) / meds[s][0] for s in meds)
        print(f"{name}: {len(meds)} sizes, peak {peak_bw / 1e9:.2f} GB/s, "
              f"worst relative error of the fitted half round trip {worst * 100:.1f} %", file=sys.stderr)
        for g in segs:
            print(f"  >= {g['min_size']:6d} B {'eager' if g['eager'] else 'rndv '} n={g['n_sizes']:3d}"
                  f"  os {g['os'][0] * 1e6:6.3f}us+{g['os'][1] * 1e12:6.1f}ps/B"
                  f"  ois {g['ois'][0] * 1e6:6.3f}us+{g['ois'][1] * 1e12:6.1f}ps/B"
                  f"  or {g['or'][0] * 1e6:6.3f}us+{g['or'][1] * 1e12:6.1f}ps/B"
                  f"  net {g['lat'] * 1e6:6.3f}us+{g['inv_bw'] * 1e12:6.1f}ps/B", file=sys.stderr)

    inter = model["inter"]
    outputs = {
        "stampede_model.json": json.dumps(model, indent=1) + "\n",
        "stampede_medians.csv": "run,size,half_rtt,send,isend\n" + "".join(
            f"{r},{s},{h:.6e},{snd:.6e},{isd:.6e}\n" for r, s, h, snd, isd in med_rows),
        "stampede_model.h": "// Generated by bench/smpi/calibration/fit_stampede.py from the Stampede measurements\n"
                            f"// of the SimGrid platform-calibration project (data commit {DATA_COMMIT[:12]}).\n"
                            f"static const double kInterPeakBw = {inter['peak_bw']:.6g};  // bytes/s\n"
                            f"static const double kIntraPeakBw = {model['intra']['peak_bw']:.6g};  // bytes/s\n"
                            f"static const unsigned kInterEager = {inter['eager_threshold']};\n"
                            f"static const unsigned kIntraEager = {model['intra']['eager_threshold']};\n"
                            f"static const double kInterTest = {inter['test']:.6g}, kInterIprobe = {inter['iprobe']:.6g};\n"
                            f"static const double kIntraTest = {model['intra']['test']:.6g}, "
                            f"kIntraIprobe = {model['intra']['iprobe']:.6g};\n"
                            + cxx_table("kInter", inter["segments"]) + "\n"
                            + cxx_table("kIntra", model["intra"]["segments"]) + "\n",
    }
    if args.out_dir:
        for fname, text in outputs.items():
            with open(os.path.join(args.out_dir, fname), "w") as f:
                f.write(text)
    else:
        print(outputs["stampede_model.h"])


if __name__ == "__main__":
    main()
