#!/usr/bin/env python3
"""Compare simulated ping-pong / many-small-messages results with the published Stampede measurements.

usage: compare.py MEDIANS_CSV PINGPONG_SO_CSV PINGPONG_XML_CSV MANY_INTER_CSV MANY_INTRA_CSV
  MEDIANS_CSV   calibration/stampede_medians.csv (run,size,half_rtt,send,isend; seconds)
  PINGPONG_*    validation/pingpong output (peer,size,half_rtt_us,send_us,isend_us); peer 1 shares
                rank 0's node, peer 2 is on another node
  MANY_*        validation/many_small output
Prints Markdown tables.
"""
import csv
import statistics
import sys

SHOWN = [1, 8, 64, 128, 256, 1024, 4096, 8192, 16384, 32768, 65536, 262144, 1048576]


def load_medians(path):
    meds = {"inter": {}, "intra": {}}
    for row in csv.DictReader(open(path)):
        meds[row["run"]][int(row["size"])] = {k: float(row[k]) * 1e6 for k in ("half_rtt", "send", "isend")}
    return meds


def load_sim(path):
    sim = {"intra": {}, "inter": {}}
    for row in csv.DictReader(open(path)):
        run = "intra" if row["peer"] == "1" else "inter"
        sim[run][int(row["size"])] = {"half_rtt": float(row["half_rtt_us"]), "send": float(row["send_us"]),
                                      "isend": float(row["isend_us"])}
    return sim


def nearest(meds, size):
    return min(meds, key=lambda s: abs(s - size))


def errors(meds, sim, key):
    errs = [abs(sim[s][key] - m[key]) / m[key] for s, m in meds.items() if s in sim]
    return statistics.median(errs) * 100, max(errs) * 100, len(errs)


def main():
    meds = load_medians(sys.argv[1])
    so, xml = load_sim(sys.argv[2]), load_sim(sys.argv[3])
    for run, title in (("inter", "inter-node (InfiniBand)"), ("intra", "intra-node (shared memory)")):
        print(f"\n#### Ping-pong, {title}: half round trip in us\n")
        print("| size (B) | Stampede measured | libnbr_cluster.so | error | XML platform | error |")
        print("|---:|---:|---:|---:|---:|---:|")
        for want in SHOWN:
            s = nearest(meds[run], want)
            if s not in so[run]:
                continue
            m = meds[run][s]["half_rtt"]
            a, b = so[run][s]["half_rtt"], xml[run].get(s, {}).get("half_rtt", float("nan"))
            print(f"| {s} | {m:.2f} | {a:.2f} | {(a - m) / m * 100:+.0f} % | {b:.2f} | {(b - m) / m * 100:+.0f} % |")
        bw = [s for s in meds[run] if s >= 500000]
        if bw:
            s = max(bw)
            print(f"\nBandwidth at {s} B (size / half round trip): measured "
                  f"{s / meds[run][s]['half_rtt'] / 1e3:.2f} GB/s, libnbr_cluster.so "
                  f"{s / so[run][s]['half_rtt'] / 1e3:.2f} GB/s, XML {s / xml[run][s]['half_rtt'] / 1e3:.2f} GB/s.")
        print(f"\nOver all {len(meds[run])} measured sizes (relative error: median / worst):")
        for key, label in (("half_rtt", "half round trip"), ("send", "MPI_Send duration"),
                           ("isend", "MPI_Isend duration")):
            med_so, max_so, _ = errors(meds[run], so[run], key)
            med_x, max_x, _ = errors(meds[run], xml[run], key)
            print(f"- {label}: libnbr_cluster.so {med_so:.1f} % / {max_so:.0f} %, XML {med_x:.1f} % / {max_x:.0f} %")

    for path, run, title in ((sys.argv[4], "inter", "peers on other nodes"),
                             (sys.argv[5], "intra", "peers on the same node")):
        rows = list(csv.DictReader(open(path)))
        bytes_ = int(rows[0]["bytes"])
        m = meds[run]
        print(f"\n#### Many small messages, {title} ({bytes_} B blocks, libnbr_cluster.so)\n")
        print("N blocks from rank 0: one message to each of N peers (spread) or one N-block message to one peer "
              "(combined).  *Done* = until the last receiver has its data; *sender* = rank 0's time in "
              "MPI_Isend + MPI_Wait(all).  *From measurements*: N x the measured MPI_Isend time plus the "
              "measured one-way time after the send call returns (half round trip - MPI_Send), at the "
              "nearest measured size.\n")
        print("| N | spread: done | spread: sender | from measurements | combined: done | from measurements |")
        print("|---:|---:|---:|---:|---:|---:|")
        for row in rows:
            n = int(row["n"])
            one, comb = m[nearest(m, bytes_)], m[nearest(m, n * bytes_)]
            est_spread = n * one["isend"] + (one["half_rtt"] - one["send"])
            est_comb = comb["isend"] + (comb["half_rtt"] - comb["send"])
            print(f"| {n} | {float(row['spread_done_us']):.2f} | {float(row['spread_sender_us']):.2f} | "
                  f"{est_spread:.2f} | {float(row['combined_done_us']):.2f} | {est_comb:.2f} |")


if __name__ == "__main__":
    main()
