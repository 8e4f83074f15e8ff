#!/usr/bin/env python3
"""Writes the first section of bench/results/RESULTS.md, "When it pays", from the simulated studies'
CSVs (bench/smpi/run.sh's columns): one table of topology x processes x block -> the best algorithm,
its ratio to direct and auto's, then the 4096-process figures beside seed 000's, the SpMM figures
beside seed 002's, the multigrid levels beside MPI Advance's, the kernels' iteration times with the
local product added at a stated rate, and the runs that made them.

    when_it_pays.py --manifest bench/smpi/study-runs.txt --csv NAME=PATH... [--model CSV [--measured CSV]]
                    --output RESULTS.md

The manifest's first line is "commit|SHA", the commit the simulations ran at; each further line one
batch of them, "MODE|REGEX|START|END|CSV[|SHA]", with the commit of a batch run at another. A batch run
again replaces the rows of its lines in the CSV.
"""
import argparse
import csv
import os
from collections import defaultdict

from results_tables import model_accuracy, read_csv, replace_section

HEADING = "## When it pays"

# Why auto missed the best by more than 5 %, per (topology, processes) where it did: what the
# batch's log or its code says. Auto's trial times the calls auto is measured on since code
# a5d829f (nbrbench's warm-up calls after a barrier, as its timed calls); before, it raced in
# back-to-back warm-up calls, and the two regimes can disagree (bench/smpi/README.md, section 6).
BETWEEN_SIMULATIONS_1024 = (
    "On `can_1054` and `lp_sctap2` at 1024 processes auto's trial kept `aggregate` (`NBRCOMB_LOG=2`: trial "
    "medians 9.04 and 8.90 µs against native's 28.49 and 10.97 µs); the gap is between simulations, not "
    "algorithms: the variants ran after 2 warm-up calls in one simulation, auto after 92 in another, and an "
    "algorithm's time moves by up to 10 % with the calls before it (`aggregate` on `lp_sctap2`: 8.36 µs in the "
    "variants' batch, 8.63 µs alone after 2 warm-up calls, 9.21 µs after 92). Beside each other in one "
    "simulation, each after 92 warm-up calls (nbrbench `--variant aggregate,forward,auto --warmup 92` with "
    "run.sh's options, code a5d829f): `can_1054` auto 0.343, `aggregate` 0.347, `forward` 0.334; `lp_sctap2` "
    "auto 0.780, `aggregate` 0.821: within 5 % of the best in both.")
WHY_NOT = {
    ("matrix:can_1054", 1024): BETWEEN_SIMULATIONS_1024,
    ("matrix:lp_sctap2", 1024): BETWEEN_SIMULATIONS_1024,
    ("matrix:SmaGri", 128): (
        "On `SmaGri` at 128 processes auto's calls take 1.05 times `forward`'s in time; the ratio's further "
        "percent is direct's difference between the two simulations."),
    ("moore:2:1", 4096): (
        "On Moore (2,1) at 4096 processes auto ran `dimwise`'s schedule (`NBRCOMB_LOG=2`: its trial kept "
        "`dimwise` up to 16 B per block, 4.24 µs against native's 5.74 µs; message ratio 0.500, `dimwise`'s), "
        "yet the median of its five timed calls came to 4.39 µs against the `dimwise` variant's 3.95 µs. That "
        "schedule's median under auto moves between simulations where the variant's does not (3.95 µs in every "
        "one): auto alone beside direct after 92 warm-up calls gave 0.695 of direct (4.13 µs, code 25e6000) and "
        "0.705 (4.08 µs, code 639c81e, the same decision), and 0.666 (3.91 µs) in 639c81e's batch beside the "
        "variants. Not explained yet."),
}
# Why auto has no row where the table says "not run" (bench/smpi/README.md, sections 6 and 7).
NOT_RUN = {
    ("amg:1000000:1", 4096): (
        "On level 1 at 4096 processes auto's trial kept `aggregate` twice (`NBRCOMB_LOG=2`: 10.01 µs against "
        "native's 18.19 µs; `aggregate` 10.88 µs in the variants' simulation), but its simulation's native "
        "experiment, which the ratio needs, did not end: after 80 minutes for auto's calls its 97 calls of direct "
        "ran 73 minutes more in a list scan inside SimGrid's communication code (`perf`)."),
    ("er:0.05", 4096): (
        "On Erdős–Rényi δ 0.05 at 4096 processes (205 neighbors each) a call of direct costs the simulator about 2 "
        "minutes (SimGrid's `MPI_Waitall` tests every request again after each completion: quadratic in the "
        "degree), so auto's 92 warm-up and 5 timed calls beside the variants' take about 3 hours of one core; "
        "not run yet. Its Phase 1 would not plan pairs there (its best case 87.6 µs against `forward`'s 13.2 µs "
        "estimate, computed as on (3,1); pairs' matching sends 4611 messages per process, nbrsim)."),
    ("moore:2:2", 8192): (
        "At 8192 processes (512 nodes of 16) auto's line of `run.sh --4096`, every variant after auto's 92 "
        "warm-up calls, needs over an hour of one core, more than was left beside the other work: the variants "
        "ran after 2 warm-up calls (17 minutes of one core, 18.3 GB; 8192 ranks need `vm.max_map_count` raised, "
        "`bench/smpi/README.md`), `dimwise` 0.333 as at 4096."),
    ("moore:3:1", 8192): (
        "On Moore (3,1) at 8192 processes likewise: the variants after 2 warm-up calls (13 minutes of one core "
        "alone on the machine, 20.0 GB), `dimwise` 0.269."),
    ("moore:2:1", 4096): (
        "On Moore (2,1) at 4096 processes auto ran on the allgather of 4 B blocks, seed 000's case, beside the "
        "variants after as many warm-up calls (an hour of one core); each other shape takes as long again."),
}
NEXT_HEADING = "## Summary"

# Local product of y = A x per row, charged at this rate: a sparse matrix-vector product moves
# about 12 bytes per nonzero (value and column index) and runs memory-bound at roughly a
# gigaflop per core on the Xeon E5-2680 cores of the simulated platform (2 flops per nonzero).
FLOPS_PER_SECOND = 1.0e9
# Nonzeros of A on each level of mesh:1000000's hierarchy (diagonal included) for P processes:
# rows and off-diagonal entries of bench/topology/mesh.h's levels, seed 1 (coarsen() depends on the
# partition, so on P). Deterministic: the generator draws from its seed alone.
LEVEL_NONZEROS = {
    (256, 0): 5909030, (256, 1): 2365207, (256, 2): 481139, (256, 3): 31299,
    (1024, 0): 5909030, (1024, 1): 2455099, (1024, 2): 711130, (1024, 3): 317879,
    (4096, 0): 5909030, (4096, 1): 2603237, (4096, 2): 1212111, (4096, 3): 3370730,
}


def read_rows(paths):
    rows = []
    for name, path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                row["study"] = name
                rows.append(row)
    return rows


def shape(row):
    return (row["topology"], int(row["processes"]), row["collective"], int(row["bytes"]))


def by_shape(rows):
    """Per shape, its rows by variant; direct's from the first simulation of the shape (auto's runs
    have a direct of their own, which its ratio already refers to)."""
    shapes = defaultdict(dict)
    for row in rows:
        if row["valid"] != "1":
            continue
        shapes[shape(row)].setdefault(row["variant"], row)
    return shapes


def block_text(collective, size, topology):
    per = " per ghost value" if collective == "alltoallv" else ""
    return f"{collective} {size_text(size)}{per}"


def size_text(size):
    return f"{size // 1024} KiB" if size >= 1024 and size % 1024 == 0 else f"{size} B"


def verdict(ratio):
    """A deterministic simulation's one figure against direct's: the nbrbench thresholds, no test needed."""
    return "faster" if ratio <= 0.97 else "slower" if ratio >= 1.03 else "tie"


def ratios_with_verdicts(variants):
    """Every variant but direct: its ratio to direct and its verdict, by name."""
    return ", ".join(f"`{v}` {float(r['ratio_to_direct']):.3f} ({verdict(float(r['ratio_to_direct']))})"
                     for v, r in sorted(variants.items()) if v != "direct")


def setup_text(variants):
    """Auto's setup where its row counts it (run.sh --4096): Phase 1's simulated time as direct calls, its
    messages and steps (the busiest process's), the trial's calls, and the break-even: the calls after which
    the time each call saves against direct has paid for Phase 1."""
    auto, direct = variants.get("auto"), variants.get("direct")
    if not auto or not direct or not auto.get("pattern_messages"):
        return "—"
    phase1_us = float(auto["pattern_seconds"]) * 1e6
    direct_us, auto_us = float(direct["median_us"]), float(auto["median_us"])
    text = (f"Phase 1 {phase1_us:.0f} µs ({phase1_us / direct_us:.1f} direct calls), "
            f"{float(auto['pattern_messages']):.0f} messages in {float(auto['pattern_exchanges']):.0f} steps; "
            f"{float(auto['trial_calls']):.0f} trial calls; ")
    if auto_us >= direct_us * 0.97:
        return text + "runs natively"
    return text + f"pays back after {phase1_us / (direct_us - auto_us):.0f} calls"


def when_it_pays_table(shapes):
    out = ["| topology | processes | call, block | best algorithm | its ratio to direct | auto's ratio | "
           "auto's setup, break-even | where |", "|---|---:|---|---|---:|---:|---|---|"]
    for key in sorted(shapes, key=lambda k: (k[0].split(":")[0], k[1], k[0], k[2], k[3])):
        variants = shapes[key]
        combined = {v: r for v, r in variants.items() if v not in ("direct", "auto")}
        if not combined:
            continue
        best_name, best = min(combined.items(), key=lambda item: float(item[1]["ratio_to_direct"]))
        best_ratio = float(best["ratio_to_direct"])
        best_text = f"`{best_name}`" if best_ratio < 1 else f"direct (`{best_name}` {best_ratio:.2f})"
        ratio_text = f"{best_ratio:.3f} ({verdict(best_ratio)})" if best_ratio < 1 else "1.000"
        auto = variants.get("auto")
        auto_ratio = float(auto["ratio_to_direct"]) if auto else None
        auto_text = f"{auto_ratio:.3f} ({verdict(auto_ratio)})" if auto else "not run"
        topology, processes, collective, size = key
        out.append(f"| `{topology}` | {processes} | {block_text(collective, size, topology)} | {best_text} | "
                   f"{ratio_text} | {auto_text} | {setup_text(variants)} | simulated |")
    return out


def summary(shapes):
    """Where a combining algorithm beat direct by 3 % or more, and how often auto came within 5 % of the best."""
    wins = defaultdict(list)
    cases = 0
    for key, variants in shapes.items():
        combined = {v: float(r["ratio_to_direct"]) for v, r in variants.items() if v not in ("direct", "auto")}
        if not combined:
            continue
        cases += 1
        best_name = min(combined, key=combined.get)
        if combined[best_name] <= 0.97:
            wins[best_name].append(key)
    verdicts = auto_verdicts(shapes)
    close = sum(1 for _, auto, best, _ in verdicts if auto <= best * 1.05)
    parts = [f"`{name}` in {len(keys)} ({', '.join(sorted({k[0].split(':')[0] for k in keys}))})"
             for name, keys in sorted(wins.items(), key=lambda item: -len(item[1]))]
    text = (f"**Where it wins**: of {cases} cases, a combining algorithm took at most 0.97 of direct's time in "
            f"{sum(len(k) for k in wins.values())}: " + "; ".join(parts) + ". ")
    if verdicts:
        text += (f"**Auto** (the default) came within 5 % of the best in {close} of the {len(verdicts)} cases it "
                 "was run in; the list below says where not, and why.")
    return text


def ran_like(variants, auto):
    """The measured variant (direct included) whose ratio is within 10 % of auto's and closest (direct
    varies by a few % between simulations): likely what its trial kept, which RESULTS.md does not
    record; where none is, it kept an algorithm not measured beside it."""
    name, ratio = min(((v, float(r["ratio_to_direct"])) for v, r in variants.items() if v != "auto"),
                      key=lambda item: abs(item[1] - auto))
    if abs(ratio - auto) > 0.10 * auto:
        return "its time is close to none of the variants measured beside it (its trial kept another algorithm)"
    return f"its time is closest to {f'`{name}`' if name != 'direct' else 'direct'}'s"


def time_against_best(variants):
    """Auto's median time against the best variant's, each from its own simulation: a ratio to direct
    also carries the few % by which direct differs between the two."""
    combined = {v: r for v, r in variants.items() if v not in ("direct", "auto")}
    best = min(combined.values(), key=lambda r: float(r["ratio_to_direct"]))
    auto_us, best_us = float(variants["auto"]["median_us"]), float(best["median_us"])
    return f"in time {auto_us:.2f} µs against `{best['variant']}`'s {best_us:.2f} µs ({auto_us / best_us:.2f} times)"


def auto_verdicts(shapes):
    """Per shape with auto: within 5 % of the best (direct counts), and never above 1.03 x direct."""
    lines = []
    for key in sorted(shapes):
        variants = shapes[key]
        if "auto" not in variants:
            continue
        auto = float(variants["auto"]["ratio_to_direct"])
        best = min([1.0] + [float(r["ratio_to_direct"]) for v, r in variants.items() if v not in ("direct", "auto")])
        verdict = "within 5 % of the best" if auto <= best * 1.05 else f"{auto / best:.2f} times the best"
        lines.append((key, auto, best, verdict))
    return lines


def kernel_rows(shapes):
    """Iteration time of y = A x on the mesh and its levels: the exchange plus the local product."""
    out = ["| topology | processes | local product (µs) | direct: exchange, iteration (µs) | best: exchange "
           "ratio, iteration ratio | auto: exchange ratio, iteration ratio |", "|---|---:|---:|---|---|---|"]
    for key in sorted(shapes, key=lambda k: (k[1], k[0])):
        topology, processes, collective, size = key
        if collective != "alltoallv" or not (topology.startswith("mesh:") or topology.startswith("amg:")):
            continue
        variants = shapes[key]
        if "direct" not in variants:
            continue
        level = int(topology.split(":")[2]) if topology.startswith("amg:") else 0
        if not topology.split(":")[1] == "1000000" or (processes, level) not in LEVEL_NONZEROS:
            continue
        # The average process's share; the slowest process holds more.
        compute_us = 2 * LEVEL_NONZEROS[(processes, level)] / processes / FLOPS_PER_SECOND * 1e6
        direct_us = float(variants["direct"]["median_us"])
        iteration = direct_us + compute_us

        def ratios(row):
            ratio = float(row["ratio_to_direct"])
            return f"{ratio:.3f}, {(ratio * direct_us + compute_us) / iteration:.3f}"

        combined = {v: r for v, r in variants.items() if v not in ("direct", "auto")}
        best = min(combined.values(), key=lambda r: float(r["ratio_to_direct"])) if combined else None
        auto = variants.get("auto")
        out.append(f"| `{topology}` | {processes} | {compute_us:.1f} | {direct_us:.2f}, {iteration:.2f} | "
                   f"{ratios(best) + ' (`' + best['variant'] + '`)' if best else '—'} | "
                   f"{ratios(auto) if auto else 'not run'} |")
    return out


def read_model(path):
    """nbrsim's CSV, one header per mode it ran."""
    with open(path) as f:
        lines = [line for i, line in enumerate(f) if i == 0 or not line.startswith("topology,")]
    return list(csv.DictReader(lines))


def accuracy_sentence(model, measured):
    """How far the model is from the multi-hop study's simulations, where both exist."""
    _, errors, _ = model_accuracy(measured, model)
    if not errors["4"] or not errors["1024"]:
        return ""
    median = {b: 100 * e[len(e) // 2] for b, e in errors.items()}
    most = {b: 100 * e[-1] for b, e in errors.items()}
    return (f" Against the simulations of the multi-hop section below (256 and 1024 processes) it is off by "
            f"{median['4']:.0f} % at 4 B and {median['1024']:.0f} % at 1 KiB at the median (at most "
            f"{most['4']:.0f} % and {most['1024']:.0f} %).")


def section(rows, commit, csv_names, model, measured):
    shapes = by_shape(rows)
    invalid = sum(1 for r in rows if r["valid"] != "1")
    out = [HEADING + "\n",
           "Simulated on SimGrid SMPI with the Stampede-calibrated platform of `bench/smpi/README.md` (16 "
           "processes per node, nodes as the platform has them), nbrbench with the library built for SMPI; "
           "*direct* is one message per edge, what Open MPI and MPICH send. Ratios are of the median over the "
           "timed calls (the slowest process counts), each variant side by side with direct in one simulation; "
           "auto mode (the default settings) after its warm-up calls (`run.sh`'s `auto_warmup`): beside the "
           "variants, each after as many warm-up calls, in the batches the appendix says so of (`run.sh` measures "
           "every auto row so since 9ba8068), in a simulation of its own in the earlier ones. Made at commit "
           f"`{commit}`, but for the batches the appendix names with a commit of "
           "their own. A simulation is deterministic, so one run gives each figure; a ratio of at most 0.97 "
           "counts as faster, of at least 1.03 as slower, as nbrbench's verdicts do. "
           f"{len(rows)} rows, {invalid} of them with data other than MPI prescribes. Data: "
           + ", ".join(f"`{name}`" for name in csv_names) + ".\n",
           summary(shapes) + "\n"]
    out.extend(when_it_pays_table(shapes))
    out.append("")
    verdicts = auto_verdicts(shapes)
    if verdicts:
        out.append("**Auto against the best** (direct included; the bar: within 5 % of the best, and never above "
                   "1.03 of direct):\n")
        for (topology, processes, collective, size), auto, best, standing in verdicts:
            above = " — **above 1.03 of direct**" if auto > 1.03 else ""
            variants = shapes[(topology, processes, collective, size)]
            ran = ran_like(variants, auto)
            timed = f", {time_against_best(variants)}" if auto > best * 1.05 and best < 1 else ""
            out.append(f"- `{topology}`, {processes} processes, {collective} {size_text(size)}: auto {auto:.3f}, best "
                       f"{best:.3f}: {standing}{timed}{above}; {ran}.")
        misses = [key for key, auto, best, _ in verdicts if auto > best * 1.05]
        if misses:
            out.append("")
            reasons = dict.fromkeys(WHY_NOT.get(key[:2], f"`{key[0]}` at {key[1]} processes: not looked into.")
                                    for key in misses)
            out.append("Why not. " + " ".join(reasons))
        not_run = [key for key in sorted(shapes) if "auto" not in shapes[key]]
        if not_run:
            out.append("")
            reasons = dict.fromkeys(NOT_RUN.get(key[:2], f"`{key[0]}` at {key[1]} processes: not looked into.")
                                    for key in not_run)
            out.append("Not run. " + " ".join(reasons))
        out.append("")

    out.append("### 4096 processes beside seed 000\n")
    out.append("Seed 000 measured friend-based combining (`pairs`) at 4K–8K processes on a real cluster: 0.29–0.50 "
               "of native's neighbor-allgather latency with small blocks. Here, 4096 simulated processes on 256 "
               "nodes. Auto's Phase 1 plans pairs only where its best case can still win (`schedule/README.md`, "
               "*How auto mode decides*), not on Moore (2,2), (3,1) or Erdős–Rényi δ 0.05 with small blocks. "
               "`pairs` itself on Moore (2,2), 4 B allgather, on the SimGrid of `bench/smpi/build-simgrid.sh` "
               "(`bench/smpi/README.md`, section 4; on the package its setup did not end in 40 minutes): 0.591 of "
               "direct (faster), its Phase 1 3862 messages in 136 steps on the busiest process and 2.59 ms simulated, as "
               "long as 147 of direct's calls. The variants side by side with direct in one simulation per line "
               "of `run.sh --4096`:\n")
    scale = [k for k in shapes if k[1] == 4096 and not k[0].startswith(("mesh:", "amg:"))]
    for key in sorted(scale):
        variants = shapes[key]
        parts = ratios_with_verdicts(variants)
        out.append(f"- `{key[0]}`, {key[2]} {size_text(key[3])}: direct {float(variants['direct']['median_us']):.2f} µs; "
                   f"{parts}.")
    out.append("")

    scale = [r for r in model if r["processes"] == "4096" and r["mode"] != "direct"]
    if scale:
        # The model's columns and the simulated shape each stands for.
        columns = [("estimated_ratio_4B", "allgather", 4), ("estimated_ratio_1KiB", "allgather", 1024),
                   ("estimated_ratio_alltoall_1KiB", "alltoall", 1024)]

        def simulated(row, collective, size):
            found = shapes.get((row["topology"], 4096, collective, size), {}).get(row["mode"])
            return float(found["ratio_to_direct"]) if found else None

        errors = sorted(abs(float(row[column]) - measured_ratio) / measured_ratio
                        for row in scale for column, collective, size in columns
                        if (measured_ratio := simulated(row, collective, size)) is not None)
        checked = (f" Where a simulation measured the same case at 4096 (*estimate / simulated*), the model is "
                   f"off by {100 * errors[len(errors) // 2]:.0f} % of the simulated ratio at the median, at most "
                   f"{100 * errors[-1]:.0f} % ({len(errors)} cases):" if errors else ":")
        out.append("")
        out.append("Every variant at 4096 processes by nbrsim's cost model (`pattern/message_cost.h`, the same "
                   "Stampede pieces; `nbrsim --processes 4096 --node-size 16 --mode M`), which prices the "
                   "messages and bytes each process sends and forwards but not their contention: its ratio to "
                   "direct for an allgather of 4 B and 1 KiB blocks and an alltoall of 1 KiB." +
                   accuracy_sentence(model, measured) + checked + "\n")
        out.append("| topology | algorithm | messages per call (direct's) | allgather 4 B | allgather 1 KiB | "
                   "alltoall 1 KiB |")
        out.append("|---|---|---|---:|---:|---:|")
        for row in sorted(scale, key=lambda r: (r["topology"], float(r["estimated_ratio_4B"]))):
            cells = []
            for column, collective, size in columns:
                measured_ratio = simulated(row, collective, size)
                cells.append(f"{float(row[column]):.3f}" +
                             (f" / {measured_ratio:.3f}" if measured_ratio is not None else ""))
            out.append(f"| `{row['topology']}` | `{row['mode']}` | {float(row['msgs_avg']):.1f} "
                       f"({float(row['native_msgs_avg']):.1f}) | " + " | ".join(cells) + " |")
    out.append("")

    out.append("### SpMM beside seed 002\n")
    out.append("Seed 002 reports up to 5.2× over the default neighborhood collectives on an SpMM kernel whose "
               "process graph comes from SuiteSparse matrices (its §VII), with groups of k friends. Here the "
               "same construction on this repository's matrices with at least 1024 rows:\n")
    for key in sorted(k for k in shapes if k[0].startswith("matrix:")):
        variants = shapes[key]
        parts = ratios_with_verdicts(variants)
        out.append(f"- `{key[0]}`, {key[1]} processes, {key[3]} B per neighbor: {parts}.")
    out.append("")

    out.append("### Multigrid levels beside MPI Advance\n")
    out.append("MPI Advance (seed 003) reports 1.32× on Hypre BoomerAMG's SpMV with node-aware aggregation of "
               "persistent neighbor alltoallv. Here the halo exchange of y = A x on a METIS-partitioned mesh of a "
               "million cells and the coarse levels of its smoothed-aggregation hierarchy (8-byte values, "
               "per-neighbor counts). The iteration adds the local product, not simulated but charged at "
               f"{FLOPS_PER_SECOND / 1e9:.0f} Gflop/s per process (2 flops per nonzero, the level's nonzeros "
               "spread evenly over the processes), so the exchange's share, and with it what combining can "
               "change, is stated rather than measured; the exchanges are simulated and checked:\n")
    out.extend(kernel_rows(shapes))
    out.append("")
    return out


APPENDIX_HEADING = "## Appendix: the simulated runs"


def read_manifest(path):
    """The commit and the batches of the manifest."""
    with open(path) as f:
        lines = [line.rstrip("\n").split("|") for line in f if line.strip()]
    if not lines or lines[0][0] != "commit":
        raise SystemExit(f"{path}: the first line must be commit|SHA")
    return lines[0][1], lines[1:]


def appendix(batches, commit):
    """The runs behind the first section, one line per batch."""
    out = [APPENDIX_HEADING + "\n",
           "Each line ran `APPLICATIONS_ONLY='REGEX' bench/smpi/run.sh MODE` at its commit on one core of "
           "a 2-core Debian 12 machine (SimGrid 3.32), its rows in the CSV. Wall times include building "
           "`build-smpi/`, and grow where the machine ran other work beside.\n",
           "| mode | lines (regular expression) | started | ended | CSV | commit |", "|---|---|---|---|---|---|"]
    for mode, regex, start, end, name, *own in batches:
        out.append(f"| `{mode}` | `{regex}` | {start} | {end} | `{name}` | `{own[0] if own else commit}` |")
    out.append("")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", nargs="+", required=True, help="NAME=PATH of run.sh's CSVs")
    parser.add_argument("--manifest", required=True, help="commit|SHA, then MODE|REGEX|START|END|CSV per batch")
    parser.add_argument("--model", help="nbrsim's CSV of every mode on nodes of 16 (its rows at 4096 processes)")
    parser.add_argument("--measured", help="run.sh --multihop's CSV, against which the model's accuracy is given")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    paths = [tuple(item.split("=", 1)) for item in args.csv]
    commit, batches = read_manifest(args.manifest)
    replace_section(args.output, HEADING, section(read_rows(paths), commit, [os.path.basename(p) for _, p in paths],
                                                read_model(args.model) if args.model else [],
                                                read_csv(args.measured) if args.measured else []),
                    NEXT_HEADING)
    # The appendix closes the file.
    text = open(args.output).read()
    start = text.find(APPENDIX_HEADING)
    if start >= 0:
        end = text.find("\n## ", start + 1) + 1 or len(text)
        text = text[:start] + text[end:]
    with open(args.output, "w") as f:
        f.write(text.rstrip("\n") + "\n\n" + "\n".join(appendix(batches, commit)) + "\n")


if __name__ == "__main__":
    main()
