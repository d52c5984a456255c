#!/usr/bin/env python3
"""batchdoku on Spark DataFrames: the Python package on Arrow batches (mapInArrow), no text through the JVM.

Three recipes, each reading puzzles, computing on the executors with the `batchdoku` Python package (one call per
Arrow batch, threads=1: Spark runs one task per core) and writing Parquet:

    solve   --input X --output DIR [-k 2]   adds status, solutions, solution (null when none)
    dedupe  --input X --output DIR          the first record of each equivalence class, with `dropped`
    overlap --train X --test Y --output DIR the test records equivalent to a training record (the leak check)

Inputs (`--input-format`): `text` (one puzzle per line; blank, `#` and `end` lines are not records, as in the
CLI; `line` is the 1-based line number), `csv` (with a header) or `parquet`. In CSV and Parquet input the puzzle
column is found as the CLI finds it (frame_columns.py: `--column`, else a column named quizzes, quiz, puzzle,
puzzles or question, else the one holding puzzles in the first rows); when there is none the script exits with
code 2 and a message naming the input's columns, before any job runs. Input columns are never replaced: one named
like a column the recipe adds (a Kaggle file's `solutions`) comes out unchanged as `input_solutions`, as with
`batchdoku solve --keep-columns`. Every executor needs the package: `pip install ./python pyarrow pandas` in the Python
that runs the executors (PYSPARK_PYTHON); the driver needs pyspark too.

Dedupe and overlap scale past one machine's memory: canonical forms are computed on the executors, Spark groups
by form (groupBy, a shuffle), and the first record of each class is the one with the smallest original position
(`line` for text input, else the row's position in read order, or `--order COLUMN`). Invalid records are never
merged: each keeps its own row in dedupe, and never leaks in overlap (the CLI's rules).

    python3 examples/cluster/spark_frames.py solve --input data/sample.txt --output /tmp/solved --master 'local[2]'
"""

import argparse
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from frame_columns import SAMPLE_ROWS, ColumnError, puzzle_column, renamed_inputs

# The columns each recipe adds (an input column with one of these names is renamed input_NAME).
OURS = {"solve": ("status", "solutions", "solution"), "dedupe": ("status", "canonical", "pos", "dropped"),
        "overlap": ("status", "canonical", "pos", "train_pos", "train_line")}
STATUS_NAMES = None  # filled from the package on first use (on each executor)


def digits_to_strings(grids, valid=None):
    """An (n, 81) uint8 digit array as an Arrow string array of 81 characters, without a Python object per row."""
    n = grids.shape[0]
    data = pa.py_buffer(np.ascontiguousarray(grids + ord("0"), dtype=np.uint8))
    offsets = pa.py_buffer(np.arange(0, 81 * (n + 1), 81, dtype=np.int32))
    mask = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    return pa.StringArray.from_buffers(n, offsets, data, mask, null_count=-1)


def status_strings(codes):
    """uint8 status codes as the CLI's status names (solved, unique, ...)."""
    import batchdoku

    global STATUS_NAMES
    if STATUS_NAMES is None:
        STATUS_NAMES = pa.array([s.name.lower() for s in batchdoku.Status])
    return pc.take(STATUS_NAMES, pa.array(codes.astype(np.int32)))


def solve_batches(column, count_limit):
    """A mapInArrow function: solve the `column` of every batch, adding status, solutions and solution."""

    def run(batches):
        import batchdoku

        for b in batches:
            r = batchdoku.solve(b.column(column).to_pylist(), count_limit=count_limit, threads=1)
            solved = np.asarray(r["solutions"]) > 0
            yield pa.RecordBatch.from_arrays(
                list(b.columns) + [status_strings(r["status"]), pa.array(r["solutions"].astype(np.int64)),
                                   digits_to_strings(r["solution"], solved)],
                names=list(b.schema.names) + ["status", "solutions", "solution"])

    return run


def canon_batches(column):
    """A mapInArrow function: the canonical form of the `column` of every batch (null when invalid)."""

    def run(batches):
        import batchdoku

        for b in batches:
            r = batchdoku.canon(b.column(column).to_pylist(), threads=1)
            ok = r["status"] != batchdoku.Status.INVALID
            yield pa.RecordBatch.from_arrays(
                list(b.columns) + [status_strings(r["status"]), digits_to_strings(r["canonical"], ok)],
                names=list(b.schema.names) + ["status", "canonical"])

    return run


def warm_up(spark):
    """Starts every core's Python worker and imports the package there (once per session, as any first job
    would), so that the job time that follows is the work itself. Returns the seconds it took."""
    t = time.time()
    cores = spark.sparkContext.defaultParallelism

    def load(batches):
        import batchdoku  # noqa: F401

        yield from batches

    spark.range(cores, numPartitions=cores).mapInArrow(load, "id long").write.format("noop").mode("overwrite").save()
    return time.time() - t


def with_position(df):
    """`df` with `pos`: each row's 0-based position in read order, computed in SQL (no Python per row)."""
    from pyspark.sql import functions as F

    pid_col, mid_col = (fresh(df, n) for n in ("_pid", "_mid"))
    df = df.withColumn(pid_col, F.spark_partition_id()).withColumn(mid_col, F.monotonically_increasing_id())
    sizes = dict(df.groupBy(pid_col).count().collect())
    base, offsets = 0, {}
    for pid in sorted(sizes):
        offsets[pid] = base
        base += sizes[pid]
    first = F.create_map(*[x for pid, off in offsets.items() for x in (F.lit(pid), F.lit(off))]) if offsets else None
    pos = (first[F.col(pid_col)] if first is not None else F.lit(0)) + (F.col(mid_col) - F.shiftleft(F.col(pid_col).cast("long"), 33))
    return df.withColumn("pos", pos).drop(pid_col, mid_col)


def fresh(df, name):
    """`name`, with more underscores in front until no column of `df` has it: a working column of our own."""
    while name.lower() in {c.lower() for c in df.columns}:
        name = "_" + name
    return name


class InputError(Exception):
    """The input cannot be read as asked (no puzzle column, no --order column): the message says why."""


def read_puzzles(spark, path, fmt, column, ours):
    """(DataFrame, puzzle column, renames): the input's columns, those named like one of `ours` renamed
    (`renames`: {input name: output name}), with `line` and `puzzle` for text input. Raises InputError, before any
    job over the data, when CSV or Parquet input has no puzzle column."""
    from pyspark.sql import functions as F

    if fmt in ("parquet", "csv"):
        df = spark.read.parquet(path) if fmt == "parquet" else spark.read.option("header", True).csv(path)
        try:
            col = puzzle_column(df.columns, lambda: [r.asDict() for r in df.limit(SAMPLE_ROWS).collect()], column)
        except ColumnError as e:
            raise InputError(f"{path}: {e}") from None
        renames = renamed_inputs(df.columns, ours)
        for old, new in renames.items():
            df = df.withColumnRenamed(old, new)
        return df, renames.get(col, col), renames
    # text: one record per line; the CLI's non-records (blank, `#` comment, `end`) are dropped after numbering.
    df = with_position(spark.read.text(path)).withColumn("line", F.col("pos") + 1).drop("pos")
    body = F.trim(F.regexp_replace(F.col("value"), r"^[\s\x{FEFF}]+|\s+$", ""))
    df = df.where((body != "") & ~body.startswith("#") & (body != "end"))
    return df.withColumnRenamed("value", "puzzle").select("line", "puzzle"), "puzzle", {}


def schema_plus(df, fields):
    """The DDL schema of `df` plus `fields` (a DDL fragment)."""
    return ", ".join([f"`{f.name}` {f.dataType.simpleString()}" for f in df.schema.fields] + [fields])


def solve(spark, args):
    df, col, _ = read_puzzles(spark, args.input, args.input_format, args.column, OURS["solve"])
    if args.partitions:
        df = df.repartition(args.partitions)  # rows keep their `line` (text input); Parquet keeps no order
    out = df.mapInArrow(solve_batches(col, args.count_limit),
                        schema_plus(df, "status string, solutions bigint, solution string"))
    out.write.mode(args.write_mode).parquet(args.output)


def classes(spark, path, args):
    """Canonical forms of one input, with `pos` (the order that decides which record of a class is first)."""
    from pyspark.sql import functions as F

    df, col, renames = read_puzzles(spark, path, args.input_format, args.column, OURS[args.recipe])
    if args.order:
        order = next((c for c in df.columns if c.lower() == renames.get(args.order, args.order).lower()), None)
        if order is None:
            raise InputError(f"{path}: no --order column {args.order!r}; the input's columns are: "
                             f"{', '.join(df.columns)}")
        df = df.withColumn("pos", F.col(order))
    elif args.input_format == "text":
        df = df.withColumn("pos", F.col("line"))
    else:
        df = with_position(df)
    return df.mapInArrow(canon_batches(col), schema_plus(df, "status string, canonical string")), col


def dedupe(spark, args):
    from pyspark.sql import functions as F

    df, _ = classes(spark, args.input, args)
    ok = df.where(F.col("canonical").isNotNull())
    # One row per class: the smallest position and the class size, then the first record joined back.
    firsts = ok.groupBy("canonical").agg(F.min("pos").alias("pos"), (F.count("*") - 1).alias("dropped"))
    kept = ok.join(firsts, ["canonical", "pos"]).select(*df.columns, "dropped")
    invalid = df.where(F.col("canonical").isNull()).withColumn("dropped", F.lit(0).cast("long"))
    kept.unionByName(invalid).orderBy("pos").write.mode(args.write_mode).parquet(args.output)


def overlap(spark, args):
    from pyspark.sql import functions as F

    train, _ = classes(spark, args.train, args)
    test, _ = classes(spark, args.test, args)
    firsts = (train.where(F.col("canonical").isNotNull()).groupBy("canonical")
              .agg(F.min("pos").alias("train_pos")))
    if args.input_format == "text":
        firsts = firsts.withColumnRenamed("train_pos", "train_line")
    leaks = test.where(F.col("canonical").isNotNull()).join(firsts, "canonical")
    leaks.withColumn("status", F.lit("leak")).orderBy("pos").write.mode(args.write_mode).parquet(args.output)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipe", choices=["solve", "dedupe", "overlap"])
    ap.add_argument("--input", help="puzzles (solve, dedupe)")
    ap.add_argument("--train", help="training split (overlap)")
    ap.add_argument("--test", help="test split (overlap)")
    ap.add_argument("--output", required=True, help="Parquet output directory; must not exist")
    ap.add_argument("--input-format", choices=["text", "csv", "parquet"], default="text")
    ap.add_argument("--column", help="puzzle column of CSV/Parquet input (default: found as the CLI finds it)")
    ap.add_argument("--order", help="dedupe/overlap: the column giving each record's original position")
    ap.add_argument("-k", "--count-limit", type=int, default=1, help="solve: count solutions up to this (2 = uniqueness)")
    ap.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    ap.add_argument("--batch", type=int, default=65536, help="rows per Arrow batch (default 65536)")
    ap.add_argument("--partitions", type=int, help="solve: repartition the input into N partitions (a small input "
                    "or one Parquet row group is otherwise one partition, one core)")
    ap.add_argument("--warm-up", action="store_true", help="start the Python workers before timing the job "
                    "(reported apart, as Spark start-up is)")
    ap.add_argument("--repeat", type=int, default=1, help="run the job N times in one session, each timed (the "
                    "first pays the JVM's warm-up; the output is overwritten)")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="a Spark setting (repeatable)")
    args = ap.parse_args(argv)
    if (args.recipe == "overlap") != (args.input is None) or (args.recipe == "overlap" and not (args.train and args.test)):
        ap.error("solve and dedupe take --input; overlap takes --train and --test")

    from pyspark.sql import SparkSession

    t0 = time.time()
    b = SparkSession.builder.appName(f"batchdoku-{args.recipe}").master(args.master)
    if args.master.startswith("local"):
        b = b.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
        b = b.config("spark.ui.enabled", "false")
    b = b.config("spark.sql.execution.arrow.maxRecordsPerBatch", str(args.batch))
    b = b.config("spark.ui.showConsoleProgress", "false")
    for kv in args.conf:
        k, v = kv.split("=", 1)
        b = b.config(k, v)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    startup = time.time() - t0
    try:
        warm = f", Python workers' warm-up {warm_up(spark):.2f} s" if args.warm_up else ""
        for run in range(args.repeat):
            args.write_mode = "error" if run == 0 else "overwrite"
            started = time.time()
            {"solve": solve, "dedupe": dedupe, "overlap": overlap}[args.recipe](spark, args)
            elapsed = time.time() - started
            rows = spark.read.parquet(args.output).count()
            print(f"spark_frames {args.recipe}: {rows} rows written, job {elapsed:.2f} s ({rows / elapsed:.0f} rows/s)"
                  f"{f' (run {run + 1})' if args.repeat > 1 else ''}, Spark start-up {startup:.2f} s{warm}",
                  file=sys.stderr)
    except InputError as e:
        print(f"spark_frames {args.recipe}: {e}", file=sys.stderr)
        sys.exit(2)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
