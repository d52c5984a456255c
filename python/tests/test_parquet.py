"""The CLI's Parquet output as a pandas or pyarrow user reads it: the same rows as the CSV output (read with
``dtype=str``), integers as int64, text as strings, nulls exactly where the CSV cell is empty. Runs the binary
named by ``BATCHDOKU_BIN`` (scripts/ci/ci_python.sh sets it, and ``CI_PYTHON_ALL=1``, under which a missing
binary or library fails instead of skipping)."""

import datetime
import io
import os
import subprocess
from pathlib import Path

import pytest

from common import BIN, ROOT, STATUSES

ALL = os.environ.get("CI_PYTHON_ALL") == "1"
SAMPLE = ROOT / "data" / "sample.txt"
KAGGLE = ROOT / "tests" / "fixtures" / "formats" / "kaggle.csv"

if not ALL:
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402


@pytest.fixture(scope="module")
def binary():
    if not Path(BIN).is_file():
        message = f"no batchdoku binary at {BIN} (cargo build --release, or set BATCHDOKU_BIN)"
        if ALL:
            pytest.fail(message)
        pytest.skip(message)
    return BIN


def run(binary, args, out):
    done = subprocess.run([binary, *map(str, args), "-q", "-o", str(out)], capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.returncode


def as_csv_text(value):
    """A cell as the CSV writes it: empty for null, ``true``/``false``, integers in decimal."""
    if value is pd.NA or value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return str(value)


COMMANDS = [
    ("solve", "-k", "2", STATUSES),
    ("solve", "--difficulty", STATUSES, SAMPLE),
    ("solve", "--keep-columns", KAGGLE),
    ("score", STATUSES),
    ("canon", STATUSES),
    ("dedupe", STATUSES, STATUSES),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(str(x).split("/")[-1] for x in a))
def test_parquet_reads_back_equal_to_the_csv(binary, args, tmp_path):
    csv_path, parquet_path = tmp_path / "out.csv", tmp_path / "out.parquet"
    assert run(binary, args, csv_path) == run(binary, args, parquet_path)
    expected = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    got = pd.read_parquet(parquet_path, dtype_backend="numpy_nullable")
    assert list(got.columns) == list(expected.columns)
    assert len(got) == len(expected) > 0
    for column in expected.columns:
        assert [as_csv_text(v) for v in got[column]] == list(expected[column]), column


def test_parquet_types_are_what_pandas_users_expect(binary, tmp_path):
    out = tmp_path / "out.parquet"
    assert run(binary, ["solve", "-k", "2", "--difficulty", STATUSES], out) == 1
    schema = pq.read_schema(out)
    types = {name: schema.field(name).type for name in schema.names}
    nullable = {name: schema.field(name).nullable for name in schema.names}
    assert types["index"] == pa.int64() and not nullable["index"]
    assert types["solutions"] == pa.int64() and nullable["solutions"]
    assert types["status"] == pa.string() and not nullable["status"]
    assert types["puzzle"] == pa.string() and nullable["puzzle"]
    assert types["singles"] == pa.bool_()
    df = pd.read_parquet(out)
    assert df["index"].dtype == "int64"
    assert df["index"].tolist() == list(range(1, len(df) + 1))
    invalid = df[df["status"] == "invalid"]
    assert len(invalid) > 0
    # Malformed records have no puzzle; contradictory givens keep theirs.
    assert invalid["puzzle"].isna().any() and invalid["error"].notna().all()
    solved = df[df["status"] == "unique"]
    assert solved["solution"].str.len().eq(81).all() and solved["error"].isna().all()


def kaggle_frame():
    """The Kaggle layout as pandas users hold it: ``quizzes`` and ``solutions`` as strings with ``0`` for blanks
    (the fixture's rows, its own corrupted answer in the third), plus an integer id and a float with a NaN; the
    first row's answer corrupted here too."""
    frame = pd.read_csv(KAGGLE, dtype=str)
    first = frame.at[0, "solutions"]
    frame.at[0, "solutions"] = ("2" if first[0] == "1" else "1") + first[1:]
    frame.insert(0, "id", np.arange(100, 100 + len(frame), dtype=np.int64))
    frame["score"] = [0.5 if i % 2 == 0 else np.nan for i in range(len(frame))]
    return frame


@pytest.mark.parametrize("compression", ["snappy", "gzip", None])
def test_parquet_written_by_pandas_is_read_as_input(binary, compression, tmp_path):
    frame = kaggle_frame()
    data = tmp_path / "kaggle.parquet"
    frame.to_parquet(data, compression=compression)
    assert data.read_bytes()[:4] == b"PAR1"
    out = tmp_path / "out.csv"
    done = subprocess.run(
        [binary, "solve", "-q", "--keep-columns", "-o", str(out), str(data)], capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    got = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(got["status"]) == ["solved"] * len(frame)
    assert list(got["line"]) == [str(i + 1) for i in range(len(frame))]  # row numbers
    assert list(got["expected"]).count("mismatch") == 2
    assert got.at[0, "expected"] == "mismatch" and got.at[2, "expected"] == "mismatch"
    assert list(got["id"]) == [str(i) for i in frame["id"]]
    assert list(got["score"])[:2] == ["0.5", ""]
    # The same rows as the same frame written as CSV.
    csv_data = tmp_path / "kaggle.csv"
    frame.to_csv(csv_data, index=False)
    out_csv = tmp_path / "out_csv.csv"
    done = subprocess.run([binary, "solve", "-q", "-o", str(out_csv), str(csv_data)], capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    from_csv = pd.read_csv(out_csv, dtype=str, keep_default_na=False)
    plain = subprocess.run([binary, "solve", "-q", str(data)], capture_output=True, check=True)
    from_parquet = pd.read_csv(io.BytesIO(plain.stdout), dtype=str, keep_default_na=False)
    for column in ("puzzle", "status", "solution", "expected"):
        assert list(from_parquet[column]) == list(from_csv[column]), column


def test_pyarrow_table_with_other_types_is_read(binary, tmp_path):
    """A pyarrow table with the puzzle column named ``--column``, and columns of types the CLI does not write
    (dates, int32, large strings): the puzzles read, the other columns kept as text."""
    frame = kaggle_frame()
    table = pa.table(
        {
            "day": pa.array([datetime.date(2024, 1, i + 1) for i in range(len(frame))]),
            "n": pa.array(range(len(frame)), pa.int32()),
            "grid": pa.array(list(frame["quizzes"]), pa.large_string()),
        }
    )
    data = tmp_path / "t.parquet"
    pq.write_table(table, data)
    done = subprocess.run(
        [binary, "solve", "-q", "--column", "grid", "--keep-columns", str(data)], capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    got = pd.read_csv(io.BytesIO(done.stdout), dtype=str, keep_default_na=False)
    assert list(got["status"]) == ["solved"] * len(frame)
    assert list(got["n"]) == [str(i) for i in range(len(frame))]
    assert got.at[0, "day"].startswith("2024-01-01")


def test_parquet_in_a_codec_not_read_is_one_error(binary, tmp_path):
    data = tmp_path / "z.parquet"
    kaggle_frame().to_parquet(data, compression="zstd")
    done = subprocess.run([binary, "solve", "-q", str(data)], capture_output=True, check=False)
    assert done.returncode == 2
    assert b"compressed with zstd" in done.stderr and not done.stdout
