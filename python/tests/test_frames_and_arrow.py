"""Results as pandas DataFrames and Arrow tables (the CLI's columns), and Arrow arrays as puzzles."""

import io
import subprocess

import numpy as np
import pytest

import batchdoku
from batchdoku import Status

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

from common import BIN, FIXTURES, ROOT, STATUSES, TEST, TRAIN  # noqa: F401


def cli_frame(*args):
    """The CLI's CSV output, as pandas reads it (text as text: empty fields are missing)."""
    out = subprocess.run([BIN, *map(str, args), "-q"], capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return pd.read_csv(io.BytesIO(out.stdout), dtype=str, keep_default_na=False, na_values=[""])


def lines(path):
    return path.read_text().splitlines()


def same_column(ours, theirs):
    """Equal values, missing where the CLI's field is empty; numbers compared as the CLI writes them."""
    ours = [None if pd.isna(v) else str(v) for v in ours]
    theirs = [None if pd.isna(v) else str(v) for v in theirs]
    assert ours == theirs


@pytest.mark.parametrize(
    "call, command",
    [
        (lambda p: batchdoku.solve(p, count_limit=2), ["solve", "-k", "2"]),
        (lambda p: batchdoku.score(p), ["score"]),
        (lambda p: batchdoku.canon(p), ["canon"]),
        (lambda p: batchdoku.dedupe(p), ["dedupe"]),
        (lambda p: batchdoku.rate(p), ["rate"]),
    ],
    ids=["solve", "score", "canon", "dedupe", "rate"],
)
@pytest.mark.parametrize("path", [STATUSES, TRAIN], ids=["statuses", "train"])
def test_to_pandas_has_the_cli_columns_and_values(call, command, path):
    result = call(lines(path))
    frame = batchdoku.to_pandas(result)
    theirs = cli_frame(*command, path)
    # Every column is the CLI's, in its order; only positions (row, not index/line) are Python's own.
    assert [c for c in frame.columns if c != "row"] == [c for c in theirs.columns if c in frame.columns]
    for name in frame.columns:
        if name == "row":
            same_column(frame[name] + 1, theirs["index"])
        elif name == "error":
            # Ours name the row (0-based), the CLI's the file and line: the message after them is the same.
            assert list(frame[name].isna()) == list(theirs[name].isna())
            for o, t in zip(frame[name].dropna(), theirs[name].dropna()):
                assert o.split(": ", 1)[1] == t.split(": ", 1)[1]
        elif name in ("dropped", "score"):
            # Numbers stay numbers: -1 where the CLI leaves the field of an invalid row empty.
            valid = frame["status"] != "invalid"
            same_column(frame[name].astype(object).where(valid), theirs[name])
        elif name == "steps":
            # -1 where the CLI leaves the field of a puzzle without a rating empty.
            same_column(frame[name].astype(object).where(frame["status"] == "rated"), theirs[name])
        else:
            same_column(frame[name], theirs[name])
    assert frame["status"].dtype == "category"
    assert list(frame["status"].cat.categories) == batchdoku.STATUS_NAMES


def test_to_arrow_is_to_pandas_in_arrow():
    for result in (
        batchdoku.solve(lines(STATUSES), count_limit=2),
        batchdoku.score(lines(TRAIN), count=True),  # (the empty grid of STATUSES has 6.7e21 to count)
        batchdoku.canon(lines(TRAIN)),
        batchdoku.rate(lines(STATUSES), invariant=2),
        batchdoku.read(ROOT / "tests" / "fixtures" / "formats" / "kaggle.csv"),
        batchdoku.generate(3, 1),
        batchdoku.dedupe(lines(TRAIN), exact=True),
        batchdoku.overlap(lines(TRAIN), lines(TEST)),
    ):
        table = batchdoku.to_arrow(result)
        table.validate(full=True)
        frame = batchdoku.to_pandas(result)
        assert table.column_names == list(frame.columns)
        assert pa.types.is_dictionary(table.schema.field("status").type) if "status" in frame else True
        for name in frame.columns:
            same_column(table.column(name).to_pylist(), frame[name])


def test_grids_are_strings_and_missing_grids_are_null():
    r = batchdoku.read(ROOT / "tests" / "fixtures" / "formats" / "luogu_short.txt")
    frame = batchdoku.to_pandas(r)
    assert list(frame.columns[:2]) == ["line", "puzzle"]  # read()'s puzzles is the CLI's puzzle
    assert frame["puzzle"].isna().tolist() == [False, True, True]
    assert len(frame["puzzle"][0]) == 81
    assert batchdoku.to_arrow(r).column("puzzle").null_count == 2
    s = batchdoku.solve(["." * 81, "1" * 81])
    table = batchdoku.to_arrow(s)
    assert table.column("solution").to_pylist()[1] is None
    assert table.column("status").to_pylist() == ["solved", "invalid"]
    assert batchdoku.to_pandas(batchdoku.generate(1, 3))["puzzle"][0].count(".") > 40  # blanks as the CLI's


def test_empty_results_and_mixed_results():
    assert len(batchdoku.to_pandas(batchdoku.solve([]))) == 0
    assert batchdoku.to_arrow(batchdoku.canon([])).num_rows == 0
    with pytest.raises(ValueError, match="different lengths"):
        batchdoku.to_pandas({"status": np.zeros(2, np.uint8), "error": [None]})


def test_a_missing_library_is_named(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name.split(".")[0] in ("pandas", "pyarrow"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    import importlib

    monkeypatch.setattr(importlib, "import_module", lambda name: no_pandas(name))
    with pytest.raises(ImportError, match="to_pandas needs pandas: pip install pandas"):
        batchdoku.to_pandas(batchdoku.solve([]))
    with pytest.raises(ImportError, match="to_arrow needs pyarrow: pip install pyarrow"):
        batchdoku.to_arrow(batchdoku.solve([]))


def arrow_forms(strings):
    """The same strings as every Arrow text type and layout."""
    base = pa.array(strings, pa.string())
    forms = {
        "string": base,
        "large_string": base.cast(pa.large_string()),
        "binary": base.cast(pa.binary()),
        "large_binary": base.cast(pa.large_binary()),
        "dictionary": base.dictionary_encode(),
        "chunked": pa.chunked_array([base[:2], base[2:2], base[2:]]),
        "sliced": pa.concat_arrays([pa.array(["x", None], pa.string()), base])[2:],
    }
    for name in ("string_view", "binary_view"):
        if hasattr(pa, name):
            forms[name] = base.cast(getattr(pa, name)())
    return forms


def test_every_arrow_text_type_reads_as_the_list():
    strings = lines(STATUSES) + [None, lines(TRAIN)[0]]
    want = batchdoku.solve(strings, count_limit=2)
    for name, array in arrow_forms(strings).items():
        for call in (lambda p: batchdoku.solve(p, count_limit=2), batchdoku.canon, batchdoku.score):
            got = call(array)
            expected = call(strings)
            assert np.array_equal(got["status"], expected["status"]), name
        got = batchdoku.solve(array, count_limit=2)
        assert np.array_equal(got["solution"], want["solution"]), name
        assert got["error"][:-2] == want["error"][:-2], name
        assert Status(got["status"][-2]) == Status.INVALID and "missing value" in got["error"][-2], name
    # A pandas Series backed by Arrow reads alike.
    series = pd.Series(strings, dtype=pd.ArrowDtype(pa.string()))
    assert np.array_equal(batchdoku.solve(series, count_limit=2)["status"], want["status"])


def test_numbers_in_arrow_get_the_dtype_str_hint():
    for array in (pa.array([3070040, 4]), pa.array([1.5, None]), pa.chunked_array([pa.array([1])])):
        with pytest.raises(TypeError, match=r"read the CSV with dtype=str"):
            batchdoku.solve(array)


def test_fixed_size_and_null_arrow_arrays():
    hard = lines(TRAIN)[0]
    fixed = pa.array([hard.encode(), None], pa.binary(81))
    r = batchdoku.solve(fixed)
    assert [Status(s) for s in r["status"]] == [Status.SOLVED, Status.INVALID]
    nulls = batchdoku.canon(pa.nulls(3))
    assert (nulls["status"] == Status.INVALID).all() and all("missing value" in e for e in nulls["error"])
    assert len(batchdoku.solve(pa.chunked_array([], pa.string()))["status"]) == 0


# A puzzle with 17 givens and thousands of solutions, and no solution within one node.
MANY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"[:40] + "." * 41


def test_missing_numbers_are_null_not_made_up():
    """A number the CLI leaves empty (null in its Parquet) is missing here too, in every result and column: never
    ``score -1`` ("no solution") for a search cut short, ``solutions 0`` for an unfinished count, ``steps -1``."""
    pd = pytest.importorskip("pandas")
    limited = batchdoku.score([MANY, "1" * 81], node_limit=1, count=True)
    assert [batchdoku.Status(s) for s in limited["status"]] == [batchdoku.Status.LIMIT, batchdoku.Status.INVALID]
    assert limited["score"].mask.tolist() == [True, True] and limited["solutions"].mask.tolist() == [True, False]
    frame = batchdoku.to_pandas(limited)
    assert frame["score"].isna().all() and str(frame["score"].dtype) == "Int64"
    assert frame["solutions"].isna().tolist() == [True, False]  # an invalid row's count is the CLI's 0
    table = batchdoku.to_arrow(limited)
    assert table.column("score").to_pylist() == [None, None]
    assert table.column("solutions").to_pylist() == [None, 0]
    rated = batchdoku.rate([MANY, HARD_ONE, "1" * 81], limit=1, invariant=1)
    frame = batchdoku.to_pandas(rated)
    for name in ("er", "ep", "ed", "steps"):
        assert frame[name].isna().all(), name
    assert str(frame["steps"].dtype) == "Int64" and str(frame["er"].dtype) == "Float64"
    assert frame["mean_guesses"].isna().tolist() == [False, False, True]
    table = batchdoku.to_arrow(rated)
    assert table.column("steps").null_count == 3 and table.column("er").null_count == 3
    assert table.column("mean_guesses").null_count == 1
    deduped = batchdoku.to_arrow(batchdoku.dedupe([HARD_ONE, "1" * 81, HARD_ONE]))
    assert deduped.column("dropped").to_pylist() == [1, None]
    leaks = batchdoku.to_arrow(batchdoku.overlap([HARD_ONE, "x"], [HARD_ONE]))
    assert leaks.column("train_row").to_pylist() == [None, 0]
    assert isinstance(pd.DataFrame(), pd.DataFrame)


HARD_ONE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_missing_numbers_are_the_cli_parquet_nulls(tmp_path):
    """Every column of score, rate, dedupe and overlap: null exactly where the CLI's Parquet has null."""
    import os
    import subprocess

    import pyarrow.parquet as pq

    from common import BIN

    if not os.path.isfile(BIN):
        pytest.skip(f"no batchdoku binary at {BIN}")
    path = tmp_path / "p.txt"
    path.write_text("\n".join([MANY, HARD_ONE, "1" * 81, "." * 81]) + "\n")
    puzzles = path.read_text().split()
    for args, result in (
        (["score", "--node-limit", "1", "--count"], batchdoku.score(puzzles, node_limit=1, count=True)),
        (["score", "--node-limit", "100000"], batchdoku.score(puzzles, node_limit=100000)),
        (["rate", "--limit", "1000"], batchdoku.rate(puzzles, limit=1000)),
        (["rate", "--invariant", "2"], batchdoku.rate(puzzles[1:3], invariant=2)),
    ):
        out = tmp_path / "out.parquet"
        source = path
        if args[-1] == "2":
            source = tmp_path / "q.txt"
            source.write_text("\n".join(puzzles[1:3]) + "\n")
        done = subprocess.run([BIN, *args, str(source), "-q", "-o", str(out)], capture_output=True)
        assert done.returncode in (0, 1), done.stderr
        theirs = pq.read_table(out)
        ours = batchdoku.to_arrow(result)
        for name in ours.column_names:
            if name in theirs.column_names and name not in ("error",):
                want = [v is None for v in theirs.column(name).to_pylist()]
                got = [v is None for v in ours.column(name).to_pylist()]
                assert got == want, (args, name)


# The CLI's names of Python's own columns (0-based positions where the CLI writes 1-based ones).
CLI_NAMES = {"row": "index", "train_row": "train_line"}


def dtype_cases(tmp_path):
    """Each function of the package, its result and the CLI command that writes the same columns (as many missing
    numbers as the CLI can have: a search cut short, invalid rows, unrated puzzles)."""
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("\n".join([MANY, HARD_ONE, "1" * 81, "." * 81]) + "\n")
    kaggle = ROOT / "tests" / "fixtures" / "formats" / "kaggle.csv"
    return [
        ("solve", batchdoku.solve(lines(STATUSES), count_limit=2), ["solve", "-k", "2", STATUSES]),
        (
            "score",
            batchdoku.score(lines(mixed), node_limit=1, count=True),
            ["score", "--node-limit", "1", "--count", mixed],
        ),
        ("rate", batchdoku.rate(lines(mixed), limit=1000), ["rate", "--limit", "1000", mixed]),
        ("rate", batchdoku.rate(lines(STATUSES), path=True), ["rate", "--path", STATUSES]),
        ("canon", batchdoku.canon(lines(STATUSES)), ["canon", STATUSES]),
        ("dedupe", batchdoku.dedupe(lines(STATUSES)), ["dedupe", STATUSES]),
        ("overlap", batchdoku.overlap(lines(STATUSES), lines(TRAIN)), ["overlap", STATUSES, TRAIN]),
        ("generate", batchdoku.generate(4, 7), ["generate", "-n", "4", "--seed", "7"]),
        # read() has no command of its own: its line, puzzle and error are every command's.
        ("read", batchdoku.read(kaggle), ["solve", kaggle]),
    ]


def test_every_column_has_the_type_of_the_cli_parquet(tmp_path):
    """to_pandas and to_arrow type each column as the CLI's Parquet does, for every function: int64 for integers
    (never uint64), nullable Int64/Float64 where a number can be missing (what ``pd.read_parquet(...,
    dtype_backend="numpy_nullable")`` gives for the CLI's nullable columns), text as text; ``status`` alone is
    categorical (the CLI's is text)."""
    import json
    import os

    import pyarrow.parquet as pq

    if not os.path.isfile(BIN):
        pytest.skip(f"no batchdoku binary at {BIN}")
    for function, result, args in dtype_cases(tmp_path):
        out = tmp_path / f"{function}.parquet"
        done = subprocess.run([BIN, *map(str, args), "-q", "-o", str(out)], capture_output=True, check=False)
        assert done.returncode in (0, 1), done.stderr
        schema = pq.read_schema(out)
        plain = pd.read_parquet(out)
        nullable = pd.read_parquet(out, dtype_backend="numpy_nullable")
        if function == "generate":
            # Its Parquet holds the grids; index and givens are in its JSONL (`--format jsonl`), and `givens` is
            # also an INT64 column of `solve --difficulty`'s Parquet.
            jsonl = subprocess.run([BIN, *map(str, args), "-q", "--format", "jsonl"], capture_output=True, check=True)
            numbers = pd.read_json(io.BytesIO(jsonl.stdout), lines=True, dtype=False)[["index", "givens"]]
            assert [json.loads(line)["index"] for line in jsonl.stdout.splitlines()] == [1, 2, 3, 4]
            plain, nullable = pd.concat([numbers, plain], axis=1), pd.concat([numbers, nullable], axis=1)
        frame, table = batchdoku.to_pandas(result), batchdoku.to_arrow(result)
        compared = []
        for name in frame.columns:
            theirs = CLI_NAMES.get(name, name)
            if theirs not in plain.columns:
                continue
            compared.append(name)
            if name == "status":
                assert frame[name].dtype == "category"
                continue
            # A column that can lack a number is nullable in both (whether or not this file lacks one).
            can_miss = str(frame[name].dtype) in ("Int64", "Float64")
            want = (nullable if can_miss else plain)[theirs].dtype
            assert frame[name].dtype == want, (function, name, frame[name].dtype, want)
            if theirs in schema.names:
                assert schema.field(theirs).nullable or not can_miss, (function, name)
                assert table.schema.field(name).type == schema.field(theirs).type, (function, name)
        # Every column is compared but read()'s own two (the CLI's `expected` is a verdict, not the grid).
        missing = set(frame.columns) - set(compared)
        assert missing == ({"valid", "expected_solution"} if function == "read" else set()), (function, missing)
        # And no integer column anywhere is unsigned or narrower than int64.
        for name in frame.columns:
            if frame[name].dtype.kind in "iu":
                assert str(frame[name].dtype) in ("int64", "Int64"), (function, name, frame[name].dtype)
                assert table.schema.field(name).type == pa.int64(), (function, name)


def test_integers_beyond_int64_are_kept_not_wrapped():
    """generate's ``index`` past 2**63-1 (a ``start`` no CLI output reaches) keeps its column unsigned rather than
    wrap to a negative number; every other result's integers are int64."""
    last = batchdoku.generate(1, 7, start=2**64 - 2)  # the last start with a puzzle
    assert batchdoku.to_pandas(last)["index"].tolist() == [2**64 - 2]
    assert batchdoku.to_arrow(last).column("index").to_pylist() == [2**64 - 2]
    assert batchdoku.to_pandas(batchdoku.generate(1, 7, start=2**63 - 1))["index"].dtype == "int64"
    # Masked entries' values mean nothing and never widen a column.
    masked = {"dropped": np.ma.MaskedArray(np.array([2**64 - 1, 3], np.uint64), mask=[True, False])}
    assert str(batchdoku.to_pandas(masked)["dropped"].dtype) == "Int64"
    assert batchdoku.to_arrow(masked).column("dropped").to_pylist() == [None, 3]
