"""``rate(..., path=True)`` and ``path_steps``: the CLI's ``rate --path``, step for step, in Python."""

import json
import subprocess
from collections import Counter

import numpy as np
import pytest

import batchdoku
from batchdoku import Status

from common import BIN, ROOT, STATUSES

SAMPLE = ROOT / "data" / "sample.txt"
EXAMPLES = ROOT / "data" / "examples" / "rate.txt"
# A budget that stops the sample's hardest nested chains within a second.
LIMIT = 5_000_000


def cli_paths(*args):
    """The ``path`` of each row of ``batchdoku rate --path --format jsonl``."""
    out = subprocess.run([BIN, "rate", "--path", "--format", "jsonl", "-q", *map(str, args)], capture_output=True,
                         check=False)
    assert out.returncode in (0, 1), out.stderr
    return [json.loads(line)["path"] for line in out.stdout.splitlines()]


@pytest.mark.parametrize("threads", [1, 2])
def test_rate_paths_are_the_clis(threads, tmp_path):
    lines = EXAMPLES.read_text().splitlines()[:5] + SAMPLE.read_text().splitlines()[:40] + ["x" * 81]
    source = tmp_path / "puzzles.txt"
    source.write_text("\n".join(lines) + "\n")
    r = batchdoku.rate(lines, limit=LIMIT, threads=threads, path=True)
    assert r["path"] == cli_paths("--limit", LIMIT, source)
    rated = np.flatnonzero(r["status"] == Status.RATED)
    assert len(rated) > 30 and r["path"][-1] is None
    for i in rated:
        path = r["path"][i]
        assert len(path) == int(r["steps"][i])
        assert path[0]["rating"] == r["ed"][i] and max(s["rating"] for s in path) == r["er"][i]
        counts = Counter(s["technique"] for s in path)
        assert r["techniques"][i] == ";".join(f"{t}:{counts[t]}" for t in dict.fromkeys(
            name.split(":")[0] for name in r["techniques"][i].split(";")))
        assert all(set(s) == {"technique", "rating", "placements", "eliminations", "text"} for s in path)
    # Without path=True there is no path, and path_steps says so.
    plain = batchdoku.rate(lines[:2])
    assert "path" not in plain
    with pytest.raises(ValueError, match="path=True"):
        batchdoku.path_steps(plain)


def test_path_steps_make_one_row_per_step():
    lines = EXAMPLES.read_text().splitlines()[:5] + ["x" * 81]
    r = batchdoku.rate(lines, path=True)
    steps = batchdoku.path_steps(r)
    assert list(steps.columns) == ["index", "step", "technique", "rating", "placements", "eliminations", "text"]
    assert str(steps["index"].dtype) == "int64" and str(steps["step"].dtype) == "int64"
    assert str(steps["rating"].dtype) == "float64"
    assert len(steps) == int(r["steps"][:5].sum())
    assert 5 not in set(steps["index"])  # the invalid puzzle has no step
    first = steps[steps["step"] == 0].set_index("index")
    assert list(first["rating"]) == list(r["ed"][:5])
    assert list(steps.groupby("index")["rating"].max()) == list(r["er"][:5])
    row = steps.iloc[0]
    assert row["placements"] == r["path"][0][0]["placements"] and row["text"] == r["path"][0][0]["text"]
    # to_pandas keeps the paths as they are, to_arrow types them as the CLI's Parquet.
    assert batchdoku.to_pandas(r)["path"][0] == r["path"][0]
    assert batchdoku.to_arrow(r).column("path").to_pylist() == r["path"]


def test_the_complete_grid_has_an_empty_path():
    solved = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
    r = batchdoku.rate([solved, STATUSES.read_text().splitlines()[0]], path=True)
    assert r["path"][0] == [] and len(r["path"][1]) == int(r["steps"][1])
    assert list(batchdoku.path_steps(r)["index"].unique()) == [1]


def test_bounds_stop_ratings_as_the_cli_does():
    lines = EXAMPLES.read_text().splitlines()[:5]
    full = batchdoku.rate(lines)
    r = batchdoku.rate(lines, max_er=7.0)
    above = full["er"] > 7.0
    assert above.any() and not above.all()
    assert list(r["status"] == Status.ABOVE) == list(above)
    assert np.isnan(r["er"][above]).all() and list(r["er"][~above]) == list(full["er"][~above])
    low = batchdoku.rate(lines, min_ep=2.0, path=True)
    below = full["ep"] < 2.0
    assert list(low["status"] == Status.BELOW) == list(below)
    assert all(low["path"][i] is None for i in np.flatnonzero(below))
    assert [s.name.lower() for s in Status][-2:] == ["above", "below"]
    with pytest.raises(ValueError, match="one decimal"):
        batchdoku.rate(lines, max_er=7.05)
