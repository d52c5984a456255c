"""The CLI's Parquet output as a pandas or pyarrow user reads it: the same rows as the CSV output (read with
``dtype=str``), integers as int64, text as strings, nulls exactly where the CSV cell is empty. Runs the binary
named by ``BATCHDOKU_BIN`` (scripts/ci/ci_python.sh sets it, and ``CI_PYTHON_ALL=1``, under which a missing
binary or library fails instead of skipping)."""

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
