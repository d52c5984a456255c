#!/usr/bin/env python3
"""CI helper for scripts/ci/ci_spark.sh: makes the small test corpora and compares the cluster recipes' Parquet
output with the CLI's CSV output on the same input.

    cluster_check.py make DIR                    corpus.txt (with equivalent copies, blank, comment and
                                                 malformed lines), train.txt, test.txt; kaggle.csv and
                                                 kaggle.parquet (columns quizzes,solutions: the published
                                                 answers, a few of them wrong); nopuzzle.csv and
                                                 nopuzzle.parquet (no puzzle column)
    cluster_check.py columns                     examples/cluster/frame_columns.py's rules on small cases
    cluster_check.py solve CLI.csv OUT.parquet   status, solutions, solution equal, row for row
    cluster_check.py pipe CLI.jsonl OUT_DIR      spark_solve.py's JSONL rows: puzzle, status, solutions,
                                                 solution and whether there is an error equal
    cluster_check.py kaggle CLI.csv OUT.parquet IN.csv
                                                 a DataFrame recipe on the Kaggle layout: the input's quizzes
                                                 and solutions come out byte-identical (the latter as
                                                 input_solutions), status, solutions, solution equal the CLI's
    cluster_check.py pipe-kaggle CLI.csv OUT_DIR IN.csv
                                                 spark_solve.py --keep-columns on the Kaggle layout: rows equal
                                                 the CLI's (but index, line, error, expected), input_solutions
                                                 byte-identical to the input's solutions
    cluster_check.py dedupe CLI.csv OUT.parquet  the kept rows (line, puzzle, status, canonical, dropped) equal
    cluster_check.py overlap CLI.csv OUT.parquet the leaks (line, train_line, canonical) equal

Exits non-zero with a message on the first difference.
"""

import csv
import glob
import json
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
    kaggle(out, records[:1500], rng)
    split = len(records) * 4 // 5
    with open(f"{out}/train.txt", "w") as f:
        f.write("\n".join(records[:split]) + "\n")
    with open(f"{out}/test.txt", "w") as f:
        fresh = [transformed(p, rng) for p in base[:50]]
        f.write("\n".join(records[split:] + ["x" * 81, "# comment", ""] + fresh) + "\n")
    print(f"cluster_check: {len(records)} records written to {out}", file=sys.stderr)


def kaggle(out, puzzles, rng):
    """The Kaggle layout, `quizzes,solutions`, the second holding the published answers, as CSV and Parquet; some
    puzzles have several solutions (givens removed), one is malformed, and some published answers are wrong (two
    digits swapped, or another puzzle's), so a recipe that confused the user's `solutions` with its own would be caught."""
    import batchdoku

    quizzes = []
    for i, p in enumerate(puzzles):
        if i % 50 == 9:  # most givens removed: several solutions
            p = "".join(c if j % 3 == 0 else "." for j, c in enumerate(p))
        quizzes.append(p)
    quizzes[17] = "123 not a puzzle"
    r = batchdoku.solve(quizzes, count_limit=1, threads=1)
    answers = [a.decode() for a in (r["solution"] + ord("0")).view("S81").ravel()]
    for i in range(0, len(answers), 97):
        a = list(answers[i])
        a[0], a[1] = a[1], a[0]
        answers[i] = "".join(a)
    answers[17] = answers[16]  # every published answer a grid: the CLI reads the column as expected solutions
    write_both(out, "kaggle", {"quizzes": quizzes, "solutions": answers}, row_group_size=400)
    # No recognisable puzzle column: boards written row by row with slashes, none named like a puzzle column.
    boards = ["/".join(p[k:k + 9] for k in range(0, 81, 9)) for p in quizzes[:200]]
    write_both(out, "nopuzzle", {"id": [str(i) for i in range(len(boards))], "board": boards,
                                 "difficulty": [str(rng.randint(1, 5)) for _ in boards]})


def write_both(out, name, columns, row_group_size=None):
    """`columns` (name: list of strings) as NAME.csv (plain, unquoted, as Kaggle publishes) and NAME.parquet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with open(f"{out}/{name}.csv", "w") as f:
        f.write(",".join(columns) + "\n")
        for row in zip(*columns.values()):
            f.write(",".join(row) + "\n")
    pq.write_table(pa.table(columns), f"{out}/{name}.parquet", row_group_size=row_group_size)


def column_rules():
    """frame_columns.py: the puzzle column found as the CLI finds it, or an error naming the columns; our names
    never replace the input's."""
    sys.path.insert(0, "examples/cluster")
    from frame_columns import ColumnError, puzzle_column, renamed_inputs

    p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    s = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    never = lambda: sys.exit("cluster_check columns: FAIL: sampled although a name decides")  # noqa: E731
    cases = [
        (["id", "Quizzes", "solutions"], never, None, "Quizzes"),
        (["QUESTION", "puzzle"], never, None, "puzzle"),  # the CLI's order of names: quizzes, quiz, puzzle...
        (["a", "b"], never, "B", "b"),
        (["answer", "grid", "x"], lambda: [{"answer": s, "grid": p, "x": "1"}] * 3, None, "grid"),
        (["answer", "x"], lambda: [{"answer": s, "x": p + " rated 3"}], None, "x"),
        (["answer", "x"], lambda: [{"answer": s, "x": "y"}], None, "answer"),
    ]
    for names, sample, wanted, want in cases:
        got = puzzle_column(names, sample, wanted)
        if got != want:
            sys.exit(f"cluster_check columns: FAIL: {names} (--column {wanted}): {got}, wanted {want}")
    for names, sample, wanted in [(["id", "board"], lambda: [{"id": "1", "board": p[:80]}], None),
                                  (["id", "board"], never, "puzzle")]:
        try:
            got = puzzle_column(names, sample, wanted)
            sys.exit(f"cluster_check columns: FAIL: {names} (--column {wanted}): {got}, wanted an error")
        except ColumnError as e:
            if "id, board" not in str(e):
                sys.exit(f"cluster_check columns: FAIL: the error does not name the columns: {e}")
    renames = renamed_inputs(["quizzes", "Solutions", "input_solutions", "status"], ["status", "solutions"])
    want = {"Solutions": "input_input_Solutions", "status": "input_status"}
    if renames != want:
        sys.exit(f"cluster_check columns: FAIL: renames {renames}, wanted {want}")
    print(f"cluster_check columns: ok: {len(cases) + 3} cases", file=sys.stderr)


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


def csv_input(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def part_lines(path):
    """The lines of a saveAsTextFile directory, part by part."""
    lines = []
    for f in sorted(glob.glob(f"{path}/part-*")):
        with open(f, newline="") as h:
            lines += h.read().splitlines()
    return lines


def byte_identical(what, column, given, got):
    """The user's column `column` of `given` rows comes out unchanged in `got` rows (under got's key)."""
    a = [r[column].encode() for r in given]
    key = f"input_{column}" if column == "solutions" else column
    b = [None if r.get(key) is None else str(r[key]).encode() for r in got]
    if a != b:
        diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        sys.exit(f"cluster_check {what}: FAIL: the input's {column} column does not come out as {key} unchanged: "
                 f"{len(a)} rows in, {len(b)} out; row {diff}: {a[diff] if diff < len(a) else None} vs "
                 f"{b[diff] if diff < len(b) else None}")
    wrong = sum(r["solutions"] != s for r, s in zip(given, (x.get("solution") for x in got)))
    if column == "solutions" and wrong == 0:
        sys.exit(f"cluster_check {what}: FAIL: the fixture's published answers all equal our solutions: the check "
                 f"could not tell them apart")
    print(f"cluster_check {what}: ok: the input's {column} comes out byte-identical as {key} ({len(a)} rows"
          f"{f'; {wrong} of them differ from our solution' if column == 'solutions' else ''})", file=sys.stderr)


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
    if cmd == "columns":
        return column_rules()
    if cmd == "pipe":
        with open(sys.argv[2]) as f:
            cli = [json.loads(line) for line in f]
        got = [json.loads(line) for line in part_lines(sys.argv[3])]
        for r in cli + got:  # index, line and an error's line number count within each partition
            r["has_error"] = r["error"] is not None
        return same("pipe", cli, got, ["puzzle", "status", "solutions", "solution", "has_error"])
    if cmd == "pipe-kaggle":
        cli, given = cli_rows(sys.argv[2]), csv_input(sys.argv[4])
        names = list(cli[0].keys())
        got = [dict(zip(names, f)) for f in csv.reader(part_lines(sys.argv[3]))]
        same("pipe-kaggle", cli, got, [n for n in names if n not in ("index", "line", "error", "expected")])
        return byte_identical("pipe-kaggle", "solutions", given, got)
    cli, got = cli_rows(sys.argv[2]), parquet_rows(sys.argv[3])
    if cmd == "kaggle":
        given = csv_input(sys.argv[4])
        columns = list(got[0].keys()) if got else []
        if columns != ["quizzes", "input_solutions", "status", "solutions", "solution"]:
            sys.exit(f"cluster_check kaggle: FAIL: columns {columns}")
        same("kaggle", cli, got, ["status", "solutions", "solution"])
        byte_identical("kaggle", "quizzes", given, got)
        byte_identical("kaggle", "solutions", given, got)
    elif cmd == "solve":
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
    else:
        sys.exit(f"cluster_check: unknown command {cmd}")


if __name__ == "__main__":
    main()
