#!/usr/bin/env python3
"""CI helper for scripts/ci/ci_spark.sh: makes the small test corpora and compares the cluster recipes' Parquet
output with the CLI's CSV output on the same input.

    cluster_check.py make DIR                    corpus.txt (with equivalent copies, blank, comment and
                                                 malformed lines), corpus.csv, train.txt, test.txt
    cluster_check.py solve CLI.csv OUT.parquet   status, solutions, solution equal, row for row
    cluster_check.py dedupe CLI.csv OUT.parquet  the kept rows (line, puzzle, status, canonical, dropped) equal
    cluster_check.py overlap CLI.csv OUT.parquet the leaks (line, train_line, canonical) equal

Exits non-zero with a message on the first difference.
"""

import csv
import glob
import os
import random
import re
import sys


def transformed(puzzle, rng):
    """An equivalent puzzle: maybe transposed, bands and rows within bands shuffled, digits relabelled."""
    g = [list(puzzle[r * 9:(r + 1) * 9]) for r in range(9)]
    if rng.random() < 0.5:
        g = [list(col) for col in zip(*g)]
    bands = rng.sample(range(3), 3)
    rows = [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]
    g = [g[r] for r in rows]
    digits = rng.sample("123456789", 9)
    relabel = {str(d + 1): digits[d] for d in range(9)}
    return "".join(relabel.get(c, ".") for row in g for c in row)


def make(out, copies=12):
    rng = random.Random(20)
    base = [line.strip() for line in open("data/sample.txt") if line.strip()]
    records = []
    for i in range(copies):
        for p in base:
            records.append(p if i == 0 or rng.random() < 0.5 else transformed(p, rng))
    rng.shuffle(records)
    os.makedirs(out, exist_ok=True)
    with open(f"{out}/corpus.txt", "w") as f:
        f.write("# a corpus with equivalent copies, blank lines, comments and malformed records\n\n")
        for i, p in enumerate(records):
            f.write(p + "\n")
            if i % 500 == 7:
                f.write("\n   \n  # a comment\n")
            if i % 700 == 3:
                f.write("123 not a puzzle\n")
            if i % 900 == 5:
                f.write("11" + "." * 79 + "\n")  # contradictory givens: invalid, never merged
    with open(f"{out}/corpus.csv", "w") as f:
        f.write("id,puzzle,source\n")  # two columns would make the second the expected solution
        for i, p in enumerate(records[:1500]):
            f.write(f"{i},{p},set{i % 3}\n")
    split = len(records) * 4 // 5
    with open(f"{out}/train.txt", "w") as f:
        f.write("\n".join(records[:split]) + "\n")
    with open(f"{out}/test.txt", "w") as f:
        fresh = [transformed(p, rng) for p in base[:50]]
        f.write("\n".join(records[split:] + ["x" * 81, "# comment", ""] + fresh) + "\n")
    print(f"cluster_check: {len(records)} records written to {out}", file=sys.stderr)


def cli_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def parquet_rows(path):
    import pyarrow.parquet as pq

    def natural(name):  # Dask writes part.0, part.1, ..., part.10: sort by number
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]

    files = sorted(glob.glob(f"{path}/*.parquet"), key=natural) if os.path.isdir(path) else [path]
    rows = []
    for f in files:
        rows += pq.read_table(f).to_pylist()
    return rows


def text(v):
    return "" if v is None else str(v)


def same(what, cli, got, keys):
    a = [tuple(text(r[k]) for k in keys) for r in cli]
    b = [tuple(text(r[k]) for k in keys) for r in got]
    if a != b:
        diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        sys.exit(f"cluster_check {what}: FAIL: {len(a)} CLI rows, {len(b)} cluster rows; first difference at row "
                 f"{diff}: CLI {a[diff] if diff < len(a) else None} vs cluster {b[diff] if diff < len(b) else None}")
    print(f"cluster_check {what}: ok: {len(a)} rows equal the CLI's ({', '.join(keys)})", file=sys.stderr)


def main():
    cmd = sys.argv[1]
    if cmd == "make":
        return make(sys.argv[2])
    cli, got = cli_rows(sys.argv[2]), parquet_rows(sys.argv[3])
    if cmd == "solve":
        for r in got:  # the CLI leaves a malformed record's puzzle empty; the Arrow path keeps its text
            if r["status"] == "invalid":
                r["puzzle"] = ""
        for r in cli:
            if r["status"] == "invalid":
                r["puzzle"] = ""
        same("solve", cli, got, ["line", "puzzle", "status", "solutions", "solution"])
    elif cmd == "dedupe":
        # Invalid rows: the CLI leaves puzzle, canonical and dropped empty; their lines and places must match.
        for r in cli + got:
            if r["status"] == "invalid":
                r["puzzle"] = r["canonical"] = r["dropped"] = ""
        same("dedupe", cli, sorted(got, key=lambda r: r["line"]), ["line", "puzzle", "status", "canonical", "dropped"])
    elif cmd == "overlap":
        leaks = [r for r in cli if r["status"] == "leak"]
        same("overlap", leaks, sorted(got, key=lambda r: r["line"]), ["line", "puzzle", "train_line", "canonical"])
    elif cmd == "dask":
        same("dask", cli, got, ["id", "puzzle", "status", "solutions", "solution", "source"])
    else:
        sys.exit(f"cluster_check: unknown command {cmd}")


if __name__ == "__main__":
    main()
