#!/usr/bin/env python3
"""Projects nbrbench's CSV (standard input) on the columns of bench/smpi/run.sh, without header.

Without neighborhood collectives in the MPI, nbrbench's native side is the library's direct
schedule: its rows are named direct; --without-direct leaves them out."""
import csv
import sys

without_direct = sys.argv[1:] == ["--without-direct"]
for row in csv.DictReader(sys.stdin):
    variant = "direct" if row["variant"] == "native" else row["variant"]
    if without_direct and variant == "direct":
        continue
    print(",".join([row["topology"], row["ranks"], row["collective"], row["form"], row["bytes"], variant,
                    row["median_us"], row["ratio_to_native"], row["message_ratio"],
                    row["pattern_seconds"] or "0", row["valid"]]))
