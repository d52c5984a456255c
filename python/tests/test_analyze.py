"""batchdoku.analyze against the CLI's ``analyze``: the same statuses and measures, the columns asked for, the
caps, missing values where the CLI leaves the field empty, and the frames and tables of the result."""

import csv
import io
import subprocess

import numpy as np
import pytest

import batchdoku
from batchdoku import Status

from common import BIN, ROOT, STATUSES

SAMPLE = ROOT / "data" / "sample.txt"
MEASURES = ["minimal", "redundant", "symmetry", "automorphisms", "te", "backdoor"]


def cli(*args):
    out = subprocess.run([BIN, "analyze", "-q", *map(str, args)], capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return list(csv.DictReader(io.StringIO(out.stdout.decode())))


def as_cli(result, name, i):
    """Measure ``name`` of puzzle ``i`` as the CLI writes it."""
    value = result[name][i]
    if value is None or value is np.ma.masked:
        return ""
    if name == "minimal":
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize("caps", [[], ["--max-te", "2", "--max-backdoor", "3"]])
def test_analyze_matches_the_cli(caps):
    lines = STATUSES.read_text().splitlines() + SAMPLE.read_text().splitlines()
    rows = cli(*caps, STATUSES, SAMPLE)
    kwargs = {"max_te": 2, "max_backdoor": 3} if caps else {}
    r = batchdoku.analyze(lines, **kwargs)
    assert list(r) == ["status", *MEASURES, "error"]
    assert len(rows) == len(lines) == len(r["status"])
    for i, row in enumerate(rows):
        assert Status(r["status"][i]).name.lower() == row["status"]
        for name in MEASURES:
            assert as_cli(r, name, i) == row[name], (i, name)
        assert (r["error"][i] is None) == (row["error"] == "")


def test_columns_choose_the_measures_in_the_order_given():
    r = batchdoku.analyze([STATUSES.read_text().splitlines()[0]], columns=["te", "minimal", "te"])
    assert list(r) == ["status", "te", "minimal", "error"]
    assert list(batchdoku.analyze([], columns="symmetry,backdoor")) == ["status", "symmetry", "backdoor", "error"]
    assert list(batchdoku.to_pandas(r).columns) == ["status", "te", "minimal", "error"]  # as the CLI writes them
    with pytest.raises(ValueError, match="minimal, redundant"):
        batchdoku.analyze([], columns=["depth"])
    with pytest.raises(TypeError):
        batchdoku.analyze([], columns=3)
    for name, bad in [("max_te", 3), ("max_backdoor", 4), ("max_te", -1)]:
        with pytest.raises(ValueError, match=name):
            batchdoku.analyze([], **{name: bad})
    with pytest.raises(TypeError):
        batchdoku.analyze([], max_te="2")


def test_missing_measures_are_masked_and_frames_keep_them_missing():
    lines = STATUSES.read_text().splitlines()
    r = batchdoku.analyze(lines)
    unique = r["status"] == Status.UNIQUE
    for name in ["minimal", "redundant", "automorphisms", "te", "backdoor"]:
        assert isinstance(r[name], np.ma.MaskedArray)
        assert (np.ma.getmaskarray(r[name]) == ~unique).all(), name
    assert r["minimal"].dtype == np.bool_ and r["te"].dtype == np.int64
    assert [s is None for s in r["symmetry"]] == list(~unique)
    frame = batchdoku.to_pandas(r)
    assert list(frame.columns) == ["status", *MEASURES, "error"]
    assert str(frame["minimal"].dtype) == "boolean" and str(frame["te"].dtype) == "Int64"
    assert frame["te"].isna().tolist() == list(~unique)
    pa = pytest.importorskip("pyarrow")
    table = batchdoku.to_arrow(r)
    assert table.schema.field("minimal").type == pa.bool_()
    assert table.schema.field("automorphisms").type == pa.int64()
    assert table.column("symmetry").null_count == int((~unique).sum())
