#!/usr/bin/env python3
"""Solve a puzzle file on Apache Spark, with batchdoku as an RDD.pipe filter.

Each partition's lines stream through `batchdoku solve` (stdin -> stdout, one output line per input line, in
order). The binary is shipped to the executors with SparkContext.addFile and run by absolute path (pipe starts
the command with an empty environment, so a bare name would not be found), with checkCode=True so a failing
binary fails the Spark task instead of silently returning short output. Line counts are checked per partition.

Local mode, no cluster needed:

    python3 scripts/spark_solve.py --binary target/release/batchdoku \
        --input data/sample.txt --output /tmp/solved --master 'local[2]' -- solve -k 2 --format line

Everything after `--` is passed to batchdoku (default: `solve --format csv`); `--no-header` and `-q` are added
so that every output line is a result row.
"""

import argparse
import os
import shlex
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="path to the batchdoku binary on the driver")
    ap.add_argument("--input", required=True, help="text file of puzzles, one per line (any path Spark reads)")
    ap.add_argument("--output", required=True, help="output directory (saveAsTextFile); must not exist")
    ap.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    ap.add_argument("--partitions", type=int, default=None, help="minimum input partitions")
    ap.add_argument("batchdoku_args", nargs="*", help="batchdoku arguments after --")
    args = ap.parse_args(argv)

    from pyspark import SparkConf, SparkContext, SparkFiles

    tool_args = args.batchdoku_args or ["solve", "--format", "csv"]
    # One output line per input line: no header (a no-op for jsonl and line), no summary on stderr,
    # one thread per task (Spark already runs one task per core).
    extra = ["--no-header", "-q", "-j", "1"]
    binary = os.path.abspath(args.binary)
    name = os.path.basename(binary)

    conf = SparkConf().setAppName("batchdoku").setMaster(args.master)
    if args.master.startswith("local"):
        # Local mode needs no network: keep the driver on loopback.
        conf.set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
        conf.set("spark.ui.enabled", "false")
    sc = SparkContext(conf=conf)
    sc.setLogLevel("WARN")
    try:
        started = time.time()
        sc.addFile(binary)
        # SparkFiles.get resolves the shipped copy; in local mode driver and executors share it. On a cluster,
        # executors place added files under the same SparkFiles root, which this path points into.
        shipped = SparkFiles.get(name)
        os.chmod(shipped, 0o755)
        command = [shipped] + tool_args + extra
        lines = sc.textFile(args.input, minPartitions=args.partitions) if args.partitions else sc.textFile(args.input)
        lines.cache()
        results = lines.pipe(" ".join(shlex.quote(c) for c in command), checkCode=True)
        results.cache()

        def count(index, it):
            yield index, sum(1 for _ in it)

        counts_in = dict(lines.mapPartitionsWithIndex(count).collect())
        counts_out = dict(results.mapPartitionsWithIndex(count).collect())
        if counts_in != counts_out:
            raise SystemExit(f"line counts differ per partition: input {counts_in}, output {counts_out}")
        results.saveAsTextFile(args.output)
        total = sum(counts_in.values())
        elapsed = time.time() - started
        print(f"spark_solve: {total} puzzles in {len(counts_in)} partitions, {elapsed:.2f} s, "
              f"{total / elapsed:.0f} puzzles/s", file=sys.stderr)
    finally:
        sc.stop()


if __name__ == "__main__":
    main()
