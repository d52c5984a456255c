#!/usr/bin/env python3
"""Solve a puzzle file on Apache Spark, with the batchdoku binary as a per-partition filter.

Each partition's records stream through `batchdoku solve` (stdin -> stdout, one output row per record, in order).

* **The executor runs its own copy.** The binary is shipped with SparkContext.addFile, and each task resolves it
  on the executor with SparkFiles.get (the copy in that executor's own work directory on a cluster, the driver's
  SparkFiles directory in local mode); nothing from the driver's file system is put into the command.
* **It takes what the CLI takes, one record per line.** Before the pipe, every task drops the lines the CLI does
  not count as records: blank lines, `#` comment lines and `end` lines (POJ files). When the input's first
  record line is a CSV header (it contains a comma and does not start with a grid, as the CLI detects it), every
  line equal to it is dropped too, it is written first to each partition's pipe, and batchdoku reads CSV
  (`--input-format csv`: the puzzle column and `--keep-columns` work as in the CLI); otherwise batchdoku reads
  lines (`--input-format line`). Unless `--column` or `--input-format` is passed to batchdoku, the puzzle column
  must be there: named (quizzes, quiz, puzzle, puzzles, question) or holding puzzles in the first records
  (frame_columns.py); else the script stops before the job with code 2 and a message naming the header's
  columns (the CLI would read its first column, every record `invalid`). Block-format inputs (a grid over 9 lines) cannot be split by line: convert them
  first (`batchdoku solve --format line` keeps the puzzle, `canon --format line` its form).
* **A failure fails the job, saying why.** Every record must give exactly one output row: a task whose binary
  exits with a code other than 0 or 1 (1: finished, some records `invalid`, each with its row), or gives a different number of rows than the records it was given, raises an error naming the
  partition, the exit code and the end of batchdoku's stderr, and Spark fails the job.

Local mode, no cluster needed:

    python3 examples/cluster/spark_solve.py --binary target/release/batchdoku \\
        --input data/sample.txt --output /tmp/solved --master 'local[2]' -- solve -k 2 --format jsonl

Everything after `--` is passed to batchdoku (default: `solve --format csv`); `--no-header`, `-q`, `-j 1` and the
input format are added so that every output line is a result row. `index` and `line` count within each
partition: carry your own id after the 81 cells and add `--keep-trailing`, or use `--keep-columns` on CSV.
"""

import argparse
import csv
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time

from frame_columns import SAMPLE_ROWS, ColumnError, puzzle_column

GRID_CELLS = 81
CELL_CHARS = frozenset("123456789.0-_*")


def is_record(line):
    """True when the CLI's line reader takes `line` as a record: not blank, not a `#` comment, not `end`."""
    body = line.strip()
    return bool(body) and not body.startswith("#") and body != "end"


def csv_header(first):
    """The CSV header the CLI would detect in `first` (the input's first record line), else None."""
    body = first.lstrip("\ufeff").strip()
    starts_with_grid = len(body) >= GRID_CELLS and all(c in CELL_CHARS for c in body[:GRID_CELLS])
    if "," in body and not starts_with_grid and body.isprintable():
        return first
    return None


def csv_fields(line):
    """The fields of one CSV line, each stripped (the CLI strips names and puzzle fields)."""
    return [f.strip() for f in next(csv.reader([line.lstrip("\ufeff")]), [])]


def check_puzzle_column(header, records):
    """Raises ColumnError (naming the header's columns) when neither the header nor the `records` after it show a
    puzzle column, as frame_columns.puzzle_column finds it."""
    names = csv_fields(header)
    rows = [dict(zip(names, csv_fields(r))) for r in records if r != header]
    puzzle_column(names, lambda: rows)


def pipe_partition(name, command, header):
    """A mapPartitionsWithIndex function: the records of one partition through batchdoku, checked."""

    def run(index, lines):
        from pyspark import SparkFiles

        binary = SparkFiles.get(name)  # resolved here, on the executor: its own copy
        if not os.access(binary, os.X_OK):
            os.chmod(binary, 0o755)
        err = tempfile.TemporaryFile()
        proc = subprocess.Popen([binary] + command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        fed = [0, None]

        def feed():
            try:
                if header is not None:
                    proc.stdin.write((header + "\n").encode())
                for line in lines:
                    if is_record(line) and line != header:
                        proc.stdin.write((line + "\n").encode())
                        fed[0] += 1
            except BrokenPipeError:
                pass  # the binary stopped reading: its exit code says why
            except BaseException as e:  # reading the partition failed: reported below
                fed[1] = e
            finally:
                try:
                    proc.stdin.close()
                except BrokenPipeError:
                    pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        rows = 0
        for out in proc.stdout:
            rows += 1
            yield out.decode().rstrip("\n")
        writer.join()
        code = proc.wait()

        def why():
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-5:]
            return " | ".join(tail) or "(no stderr)"

        if fed[1] is not None:
            raise RuntimeError(f"spark_solve: partition {index}: reading its input failed: {fed[1]!r}")
        if code not in (0, 1):  # 1: finished, some records invalid (their rows say why)
            raise RuntimeError(f"spark_solve: partition {index}: batchdoku exited with code {code}: {why()}")
        if rows != fed[0]:
            raise RuntimeError(f"spark_solve: partition {index}: {fed[0]} records in, {rows} rows out "
                               f"(every record must give one row): {why()}")

    return run


def local_conf(conf, master):
    """Local masters need no network: the driver stays on loopback and the UI is off."""
    if master.startswith("local"):
        conf.set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
        conf.set("spark.ui.enabled", "false")
    return conf


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="path to the batchdoku binary on the driver")
    ap.add_argument("--input", required=True, help="text file(s) of puzzles, one per line (any path Spark reads)")
    ap.add_argument("--output", required=True, help="output directory (saveAsTextFile); must not exist")
    ap.add_argument("--master", default="local[2]",
                    help="Spark master: local[N], local-cluster[W,C,MB], spark://host:port, yarn ... (default local[2])")
    ap.add_argument("--partitions", type=int, default=None, help="minimum input partitions")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                    help="a Spark setting, e.g. spark.task.maxFailures=1 (repeatable)")
    ap.add_argument("batchdoku_args", nargs="*", help="batchdoku arguments after --")
    args = ap.parse_args(argv)

    from pyspark import SparkConf, SparkContext

    tool_args = args.batchdoku_args or ["solve", "--format", "csv"]
    # One output row per record: no header (a no-op for jsonl and line), no summary on stderr, one thread per
    # task (Spark already runs one task per core).
    extra = ["--no-header", "-q", "-j", "1"]
    name = os.path.basename(args.binary)

    t0 = time.time()
    conf = local_conf(SparkConf().setAppName("batchdoku").setMaster(args.master), args.master)
    conf.set("spark.ui.showConsoleProgress", "false")
    conf.setAll(kv.split("=", 1) for kv in args.conf)
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")
    startup = time.time() - t0
    try:
        started = time.time()
        sc.addFile(os.path.abspath(args.binary))
        lines = sc.textFile(args.input, minPartitions=args.partitions) if args.partitions else sc.textFile(args.input)
        first = lines.filter(is_record).take(SAMPLE_ROWS + 1)
        header = csv_header(first[0]) if first else None
        chosen = any(a == "--input-format" or a.startswith("--input-format=") or a == "--column"
                     or a.startswith("--column=") for a in tool_args)
        if not chosen and header is not None:
            try:
                check_puzzle_column(header, first[1:])
            except ColumnError as e:
                print(f"spark_solve: {args.input}: {e}", file=sys.stderr)
                sys.exit(2)
        if not chosen:
            extra += ["--input-format", "csv" if header is not None else "line"]
        command = tool_args + extra
        records = sc.accumulator(0)

        def counted(it):
            for row in it:
                records.add(1)
                yield row

        results = lines.mapPartitionsWithIndex(pipe_partition(name, command, header)).mapPartitions(counted)
        results.saveAsTextFile(args.output)
        total = records.value
        elapsed = time.time() - started
        print(f"spark_solve: {total} records in {lines.getNumPartitions()} partitions, job {elapsed:.2f} s "
              f"({total / elapsed:.0f} puzzles/s), Spark start-up {startup:.2f} s; "
              f"batchdoku {' '.join(shlex.quote(c) for c in command)}", file=sys.stderr)
    finally:
        sc.stop()


if __name__ == "__main__":
    main()
