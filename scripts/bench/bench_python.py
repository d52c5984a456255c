#!/usr/bin/env python3
"""Throughput of batchdoku.solve on puzzles held in a NumPy array, against the CLI's solver-only rate.

    python3 scripts/bench/bench_python.py [SET] [--n 1000000] [--threads 1,2] [--count-limit 1] [--rounds 3]

SET defaults to ../shared/data/puzzles2_17_clue.txt, replicated to --n puzzles (a uint8 array of shape (n, 81)).
For each thread count, --rounds times (default 3), interleaved: one call of batchdoku.solve and one
`batchdoku bench --min-time 1` (solver only, in memory) on the same set; prints the best rate of each and their
ratio (the issue's target: >= 0.90).
"""

import argparse
import os
import subprocess
import time

import numpy as np

import batchdoku

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the crate root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set", nargs="?", default=os.path.join(ROOT, "..", "shared", "data", "puzzles2_17_clue.txt"))
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--count-limit", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "batchdoku"))
    args = ap.parse_args()
    base = batchdoku.read(args.set)["puzzles"]
    reps = -(-args.n // len(base))
    puzzles = np.ascontiguousarray(np.tile(base, (reps, 1))[: args.n])
    print(f"| threads | batchdoku.solve puzzles/s | CLI solver-only puzzles/s | ratio |")
    print(f"|---:|---:|---:|---:|")
    for t in map(int, args.threads.split(",")):
        best = cli = 0.0
        # Interleaved, best of each: on a shared machine both sides see the same load.
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            batchdoku.solve(puzzles, count_limit=args.count_limit, threads=t)
            best = max(best, len(puzzles) / (time.perf_counter() - t0))
            out = subprocess.run(
                [args.bin, "bench", "-j", str(t), "-k", str(args.count_limit), "--min-time", "1", "--format", "csv",
                 args.set],
                capture_output=True, check=True, text=True,
            ).stdout.splitlines()
            cli = max(cli, float(out[1].split(",")[5]))
        print(f"| {t} | {best:.0f} | {cli:.0f} | {best / cli:.2f} |")

if __name__ == "__main__":
    main()
