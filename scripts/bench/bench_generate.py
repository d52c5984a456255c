#!/usr/bin/env python3
"""Generation rates of `batchdoku generate` at 1 and 2 threads, on a shared machine.

Each setting runs `batchdoku generate -q -n N --seed 1 -j J ...` to /dev/null again
and again, keeping only undisturbed runs, and reports the median wall time of the
kept runs as puzzles/s:

- at -j 1 a run is kept when it was never descheduled (wall <= 1.03 x its CPU time);
- at -j 2 a run is kept when other processes used under 3% of the machine meanwhile
  (busy time in /proc/stat, steal included, minus the run's own CPU time).

Linux only (/proc/stat, os.wait4). Prints a Markdown table.

    python3 scripts/bench/bench_generate.py [--binary target/release/batchdoku] [--runs 5]
"""

import argparse
import os
import subprocess
import time

# (label, count, extra flags): counts sized for about 0.5-1.5 s at -j 1.
SETTINGS = [
    ("default", 4000, []),
    ("--minimal", 4000, ["--minimal"]),
    ("--clues 24", 2000, ["--clues", "24"]),
    ("--symmetry central", 8000, ["--symmetry", "central"]),
    ("--symmetry central --minimal", 150, ["--symmetry", "central", "--minimal"]),
    ("--clues 21", 20, ["--clues", "21"]),
]
HZ = os.sysconf("SC_CLK_TCK")


def busy_and_total():
    """Busy and total jiffies of the whole machine so far."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def one_run(binary, args):
    """(wall seconds, CPU seconds, share of the machine used by others)."""
    busy0, total0 = busy_and_total()
    start = time.perf_counter()
    child = subprocess.Popen([binary, "generate", "-q"] + args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    busy1, total1 = busy_and_total()
    if status != 0:
        raise SystemExit(f"batchdoku generate {' '.join(args)} failed ({status})")
    cpu = usage.ru_utime + usage.ru_stime
    total = total1 - total0
    others = max(0.0, (busy1 - busy0) - cpu * HZ) / total if total else 1.0
    return wall, cpu, others


def measure(binary, count, extra, threads, runs, max_tries):
    """Median wall time of `runs` undisturbed runs, and how many were tried."""
    args = ["-n", str(count), "--seed", "1", "-j", str(threads)] + extra
    kept, tries = [], 0
    while len(kept) < runs and tries < max_tries:
        tries += 1
        wall, cpu, others = one_run(binary, args)
        undisturbed = wall <= 1.03 * cpu if threads == 1 else others < 0.03
        if undisturbed:
            kept.append(wall)
        else:
            time.sleep(2)
    if not kept:
        return None, tries
    kept.sort()
    return kept[len(kept) // 2], tries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/batchdoku")
    parser.add_argument("--runs", type=int, default=5, help="undisturbed runs per cell")
    parser.add_argument("--max-tries", type=int, default=200)
    opts = parser.parse_args()
    with open("/proc/loadavg") as f:
        print(f"load average at start: {' '.join(f.read().split()[:3])}\n")
    print("| flags | N | -j 1 puzzles/s | -j 2 puzzles/s | speed-up | runs kept (-j 1, -j 2) |")
    print("|---|---:|---:|---:|---:|---|")
    for label, count, extra in SETTINGS:
        rates, kept = [], []
        for threads in (1, 2):
            wall, tries = measure(opts.binary, count, extra, threads, opts.runs, opts.max_tries)
            rates.append(count / wall if wall else None)
            kept.append(f"{opts.runs if wall else 0}/{tries}")
        cells = [f"{r:,.0f}" if r else "-" for r in rates]
        speedup = f"{rates[1] / rates[0]:.2f}" if all(rates) else "-"
        print(f"| {label} | {count:,} | {cells[0]} | {cells[1]} | {speedup} | {', '.join(kept)} |",
              flush=True)
    with open("/proc/loadavg") as f:
        print(f"\nload average at end: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
