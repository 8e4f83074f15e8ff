#!/usr/bin/env python3
"""Projects nbrbench's CSV (standard input) on the columns of bench/smpi/run.sh, without header.

Without neighborhood collectives in the MPI, nbrbench's native side is the library's direct
schedule: its rows are named direct; --without-direct leaves them out. --internode adds the
messages and bytes sent between nodes per call and process, and their ratios to direct's. --setup
adds, after valid, Phase 1's messages and steps and the trial's calls (the busiest process's)."""
import csv
import os
import sys

without_direct = "--without-direct" in sys.argv[1:]
internode = "--internode" in sys.argv[1:]
setup = "--setup" in sys.argv[1:]


def ratio(part, whole):
    return f"{float(part) / float(whole):.4f}" if part and whole and float(whole) > 0 else ""


for row in csv.DictReader(sys.stdin):
    variant = "direct" if row["variant"] == "native" else row["variant"]
    if without_direct and variant == "direct":
        continue
    topology = row["topology"]
    if topology.startswith("matrix:"):  # the matrix by name, not by where this machine keeps it
        topology = "matrix:" + os.path.splitext(os.path.basename(topology))[0]
    columns = [topology, row["ranks"], row["collective"], row["form"], row["bytes"], variant,
               row["median_us"], row["ratio_to_native"], row["message_ratio"], row["pattern_seconds"] or "0"]
    if internode:
        messages, native_messages = row["internode_messages_per_call"], row["native_internode_messages_per_call"]
        bytes_, native_bytes = row["internode_bytes_per_call"], row["native_internode_bytes_per_call"]
        columns += [messages, ratio(messages, native_messages), bytes_, ratio(bytes_, native_bytes)]
    columns.append(row["valid"])
    if setup:
        columns += [row["pattern_messages"] or "0", row["pattern_exchanges"] or "0", row["trial_calls"] or "0"]
    print(",".join(columns))
