"""Tests of the Python package against the CLI and the engine's contracts."""

import csv
import io
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import batchdoku
from batchdoku import Status

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample.txt"
STATUSES = ROOT / "tests" / "fixtures" / "statuses.txt"
LUOGU = ROOT / "tests" / "fixtures" / "formats" / "luogu.txt"
KAGGLE = ROOT / "tests" / "fixtures" / "formats" / "kaggle.csv"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def cli(*args):
    """Runs the batchdoku binary and parses its CSV output."""
    binary = os.environ.get("BATCHDOKU_BIN", str(ROOT / "target" / "release" / "batchdoku"))
    out = subprocess.run([binary, *map(str, args), "-q"], capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return list(csv.DictReader(io.StringIO(out.stdout.decode())))


def grid_string(row):
    return "".join(str(int(d)) for d in row)


def is_solution(puzzle, solution):
    s = np.asarray(solution).reshape(9, 9)
    p = np.asarray(puzzle).reshape(9, 9)
    full = set(range(1, 10))
    boxes = [s[r : r + 3, c : c + 3].ravel() for r in (0, 3, 6) for c in (0, 3, 6)]
    return (
        all(set(row) == full for row in s)
        and all(set(col) == full for col in s.T)
        and all(set(b) == full for b in boxes)
        and bool(np.all((p == 0) | (p == s)))
    )


@pytest.mark.parametrize("k", [1, 2, 10])
def test_solve_matches_cli_on_the_sample(k):
    lines = SAMPLE.read_text().splitlines()
    rows = cli("solve", "-k", k, SAMPLE)
    r = batchdoku.solve(lines, count_limit=k)
    assert len(rows) == len(lines) == len(r["status"])
    for i, row in enumerate(rows):
        assert Status(r["status"][i]).name.lower() == row["status"]
        assert int(r["solutions"][i]) == int(row["solutions"])
        assert int(r["guesses"][i]) == int(row["guesses"])
        assert grid_string(r["solution"][i]) == row["solution"]


def test_statuses_invalid_and_contradictory():
    lines = STATUSES.read_text().splitlines()
    r = batchdoku.solve(lines, count_limit=2)
    assert [Status(s) for s in r["status"]] == [
        Status.UNIQUE,
        Status.UNSOLVABLE,
        Status.INVALID,
        Status.INVALID,
        Status.INVALID,
        Status.MULTIPLE,
        Status.MULTIPLE,
    ]
    assert r["error"][0] is None
    assert "expected 81 cells, found 79" in r["error"][2]
    assert "bad character 'x'" in r["error"][3]
    assert "contradictory givens" in r["error"][4]
    assert not r["solution"][2].any()
    # Same statuses as the CLI.
    assert [Status(s).name.lower() for s in r["status"]] == [row["status"] for row in cli("solve", "-k", 2, STATUSES)]


def test_numpy_input_and_values_out_of_range():
    puzzles = batchdoku.read(SAMPLE)["puzzles"]
    assert puzzles.dtype == np.uint8 and puzzles.shape == (211, 81)
    r = batchdoku.solve(puzzles)
    assert all(is_solution(p, s) for p, s in zip(puzzles, r["solution"]))
    bad = puzzles[:2].copy()
    bad[1, 5] = 12
    r = batchdoku.solve(bad)
    assert Status(r["status"][1]) == Status.INVALID
    assert "column 6" in r["error"][1]


@pytest.mark.parametrize(
    "value",
    [
        np.zeros((3, 80), dtype=np.uint8),
        np.zeros((3, 81), dtype=np.int64),
        np.zeros(81, dtype=np.uint8),
        HARD,
        [1, 2, 3],
    ],
)
def test_wrong_shapes_and_dtypes_raise(value):
    with pytest.raises(ValueError):
        batchdoku.solve(value)


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        batchdoku.solve([HARD], count_limit=0)
    with pytest.raises(ValueError):
        batchdoku.solve([HARD], solver="nope")
    with pytest.raises(ValueError):
        batchdoku.solve([HARD], threads=0)
    with pytest.raises(ValueError):
        batchdoku.score([HARD], weights=[1, 2, 3])


def test_threads_one_and_two_give_identical_arrays():
    lines = SAMPLE.read_text().splitlines() * 20
    one = batchdoku.solve(lines, count_limit=2, threads=1)
    two = batchdoku.solve(lines, count_limit=2, threads=2)
    for key in ("status", "solutions", "solution", "guesses"):
        assert np.array_equal(one[key], two[key]), key
    assert one["error"] == two["error"]


def test_dlx_agrees():
    lines = SAMPLE.read_text().splitlines()
    mrv = batchdoku.solve(lines, count_limit=2)
    dlx = batchdoku.solve(lines, count_limit=2, solver="dlx")
    assert np.array_equal(mrv["status"], dlx["status"])
    assert np.array_equal(mrv["solutions"], dlx["solutions"])


def test_score_noip_samples_and_cli():
    data = batchdoku.read(LUOGU)
    r = batchdoku.score(data["puzzles"])
    assert list(r["score"]) == [2829, 2852]
    assert [row["score"] for row in cli("score", LUOGU)] == ["2829", "2852"]
    counted = batchdoku.score(data["puzzles"], count=True)
    assert list(counted["score"]) == [2829, 2852]
    assert [int(x) for x in counted["solutions"]] == [int(row["solutions"]) for row in cli("score", "--count", LUOGU)]
    ones = batchdoku.score(data["puzzles"], weights=np.ones(81, dtype=np.int64))
    assert list(ones["score"]) == [405, 405]
    limited = batchdoku.score(["." * 81], node_limit=10)
    assert Status(limited["status"][0]) == Status.LIMIT


def test_read_every_format_with_expected_column():
    k = batchdoku.read(KAGGLE)
    assert k["puzzles"].shape == (4, 81)
    assert k["expected"].shape == (4, 81)
    assert list(k["line"]) == [2, 3, 4, 5]
    short = batchdoku.read(ROOT / "tests" / "fixtures" / "formats" / "luogu_short.txt")
    assert list(short["valid"]) == [True, False, False]
    assert "promised grids" in short["error"][2]
    with pytest.raises(OSError):
        batchdoku.read("/no/such/file.txt")


def test_pandas_column_in_one_call():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"puzzle": SAMPLE.read_text().splitlines()[:20]})
    r = batchdoku.solve(df["puzzle"].tolist(), count_limit=2)
    df["status"] = [Status(s).name.lower() for s in r["status"]]
    df["solution"] = ["".join(map(str, row)) for row in r["solution"]]
    assert (df["status"] == "unique").sum() == 20


def random_equivalent(puzzle, rng):
    """A random validity-preserving transformation of a puzzle: transpose, bands, rows in bands, stacks, columns
    in stacks, digit relabelling."""
    g = np.asarray(puzzle, dtype=np.uint8).reshape(9, 9)
    if rng.random() < 0.5:
        g = g.T

    def line_perm():
        return np.concatenate([3 * band + rng.permutation(3) for band in rng.permutation(3)])

    g = g[line_perm()][:, line_perm()]
    labels = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.uint8)
    return labels[g].ravel()


def apply_transform(text, puzzle):
    """Applies a transformation in the library's text form, `T|N;rows=...;cols=...;digits=...`."""
    flag, rows, cols, digits = text.split(";")
    g = np.asarray(puzzle).reshape(9, 9)
    if flag == "T":
        g = g.T
    rows = [int(c) for c in rows[len("rows=") :]]
    cols = [int(c) for c in cols[len("cols=") :]]
    labels = np.array([0] + [int(c) for c in digits[len("digits=") :]], dtype=np.uint8)
    return labels[g[np.ix_(rows, cols)]].ravel()


def greedy_relabel(cells):
    """The first digit met becomes 1, the next new one 2, ...: the smallest relabelling of a fixed layout."""
    labels = {}
    return [0 if v == 0 else labels.setdefault(int(v), len(labels) + 1) for v in cells]


def test_canon_is_invariant_reported_idempotent_and_minimal():
    rng = np.random.default_rng(11)
    puzzles = batchdoku.read(SAMPLE)["puzzles"][:40]
    moved = np.array([random_equivalent(p, rng) for p in puzzles])
    r = batchdoku.canon(puzzles)
    m = batchdoku.canon(moved)
    assert list(r["status"]) == [Status.OK] * 40
    assert r["error"] == [None] * 40
    # Equivalent puzzles, equal canonical forms.
    assert np.array_equal(r["canonical"], m["canonical"])
    for p, q, c, t, u in zip(puzzles, moved, r["canonical"], r["transform"], m["transform"]):
        # The reported transformation maps each puzzle onto its canonical form.
        assert np.array_equal(apply_transform(t, p), c), t
        assert np.array_equal(apply_transform(u, q), c), u
        # No other layout of the puzzle gives a smaller string.
        for _ in range(5):
            assert [int(x) for x in c] <= greedy_relabel(random_equivalent(p, rng))
    # Canonicalising twice changes nothing.
    again = batchdoku.canon(r["canonical"])
    assert np.array_equal(again["canonical"], r["canonical"])
    # Different puzzles of the sample are not all made equal.
    assert len({grid_string(c) for c in r["canonical"]}) > 1


def test_canon_edge_cases_and_invalid_puzzles():
    one_given = "." * 40 + "7" + "." * 40
    lines = ["." * 81, one_given] + STATUSES.read_text().splitlines()
    r = batchdoku.canon(lines)
    # Blanks sort first: the empty grid stays empty, a single given goes last and becomes 1.
    assert grid_string(r["canonical"][0]) == "0" * 81
    assert grid_string(r["canonical"][1]) == "0" * 80 + "1"
    # The same statuses as solve: malformed and contradictory puzzles are invalid, the rest canonicalised.
    solved = batchdoku.solve(lines, count_limit=2)
    for i, s in enumerate(r["status"]):
        invalid = solved["status"][i] == Status.INVALID
        assert Status(s) == (Status.INVALID if invalid else Status.OK)
        assert (r["error"][i] is None) != invalid
        assert (r["transform"][i] is None) == invalid
        if invalid:
            assert not r["canonical"][i].any()
            assert r["error"][i] == solved["error"][i]
    assert "contradictory givens" in r["error"][6]
    bad = np.zeros((2, 81), dtype=np.uint8)
    bad[1, 3] = 10
    r = batchdoku.canon(bad)
    assert [Status(s) for s in r["status"]] == [Status.OK, Status.INVALID]
    assert "column 4" in r["error"][1]
    with pytest.raises(ValueError):
        batchdoku.canon(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(ValueError):
        batchdoku.canon([HARD], threads=0)


def test_canon_threads_one_and_two_give_identical_arrays():
    lines = SAMPLE.read_text().splitlines() * 5
    one = batchdoku.canon(lines, threads=1)
    two = batchdoku.canon(lines, threads=2)
    assert np.array_equal(one["status"], two["status"])
    assert np.array_equal(one["canonical"], two["canonical"])
    assert one["transform"] == two["transform"]
