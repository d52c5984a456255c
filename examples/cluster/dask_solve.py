#!/usr/bin/env python3
"""batchdoku on Dask: solve a CSV corpus partition by partition with dask.dataframe and the Python package.

    pip install ./python "dask[dataframe]" pyarrow
    python3 examples/cluster/dask_solve.py --input 'corpus/*.csv' --output solved/ [--column NAME] [-k 2]

Reads every CSV with `dtype=str` (pandas would otherwise read a puzzle such as `003070...` as an integer and drop
its zeros), solves each partition in one `batchdoku.solve` call (threads=1: Dask runs one task per core) through
`map_partitions` with `meta` (the output's columns and dtypes, so Dask need not run the function on a fake
partition to guess them), and writes Parquet with the input's columns plus `status` (the CLI's names),
`solutions` and `solution` (None when there is none).

The puzzle column is found as the CLI finds it (frame_columns.py: `--column`, else a column named quizzes, quiz,
puzzle, puzzles or question, else the one holding puzzles in the first rows), before any partition is solved; when
there is none the script exits with code 2 and a message naming the input's columns. Input columns are never
replaced: one named like ours (a Kaggle file's `solutions`) comes out unchanged as `input_solutions`, as with
`batchdoku solve --keep-columns`. `--scheduler processes` (default) uses one process per
core; on a cluster, connect a dask.distributed Client first and the same graph runs on its workers.
"""

import argparse
import sys
import time

import numpy as np
import pandas as pd

from frame_columns import SAMPLE_ROWS, ColumnError, puzzle_column, renamed_inputs

OURS = ("status", "solutions", "solution")


def solve_partition(pdf, column, count_limit):
    """One partition (a pandas DataFrame) solved in one call: the input's columns plus the results."""
    import batchdoku

    names = np.array([s.name.lower() for s in batchdoku.Status], dtype=object)
    r = batchdoku.solve(pdf[column].tolist(), count_limit=count_limit, threads=1)
    solved = r["solutions"] > 0
    text = (r["solution"] + ord("0")).view("S81").ravel().astype(str).astype(object)
    text[~solved] = None
    return pdf.assign(status=pd.array(names[r["status"]], dtype="string"), solutions=r["solutions"].astype("int64"),
                      solution=pd.array(text, dtype="string"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", required=True, help="CSV file(s) with a header (a glob works)")
    ap.add_argument("--output", required=True, help="Parquet output directory")
    ap.add_argument("--column", help="puzzle column (default: found as the CLI finds it)")
    ap.add_argument("-k", "--count-limit", type=int, default=1, help="count solutions up to this (2 = uniqueness)")
    ap.add_argument("--blocksize", default="16MB", help="bytes of CSV per partition (default 16MB)")
    ap.add_argument("--scheduler", default="processes", help="threads, processes or synchronous (default processes)")
    args = ap.parse_args(argv)

    import dask
    import dask.dataframe as dd

    started = time.time()
    ddf = dd.read_csv(args.input, dtype=str, blocksize=args.blocksize, keep_default_na=False)
    names = list(ddf.columns)
    try:
        column = puzzle_column(names, lambda: ddf.head(SAMPLE_ROWS, npartitions=1).to_dict("records"), args.column)
    except ColumnError as e:
        print(f"dask_solve: {args.input}: {e}", file=sys.stderr)
        sys.exit(2)
    renames = renamed_inputs(names, OURS)
    ddf = ddf.rename(columns=renames)
    column = renames.get(column, column)
    meta = ddf._meta.assign(status=pd.Series(dtype="string"), solutions=pd.Series(dtype="int64"),
                            solution=pd.Series(dtype="string"))
    out = ddf.map_partitions(solve_partition, column, args.count_limit, meta=meta)
    with dask.config.set(scheduler=args.scheduler):
        out.to_parquet(args.output, write_index=False)
    print(f"dask_solve: {args.input} -> {args.output}, {time.time() - started:.2f} s ({args.scheduler})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
