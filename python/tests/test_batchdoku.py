"""Tests of the Python package against the CLI and the engine's contracts."""

import csv
import importlib.metadata
import io
import json
import multiprocessing
import os
import re
import subprocess
import sys
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


@pytest.mark.parametrize("threads", [1, 2])
def test_rate_matches_cli_on_the_sample(threads):
    lines = SAMPLE.read_text().splitlines()
    # A budget that stops the sample's hardest nested chains within a second (the default spends about 20 s).
    rows = cli("rate", "--invariant", 3, "--seed", 5, "--limit", 5_000_000, SAMPLE)
    r = batchdoku.rate(lines, limit=5_000_000, invariant=3, seed=5, threads=threads)
    assert len(rows) == len(lines) == len(r["status"]) == len(r["techniques"])
    for i, row in enumerate(rows):
        assert Status(r["status"][i]).name.lower() == row["status"], i
        for name in ("er", "ep", "ed"):
            assert (row[name] == "") == bool(np.isnan(r[name][i])), (i, name)
            if row[name]:
                assert f"{r[name][i]:.1f}" == row[name], (i, name)
        assert (r["hardest"][i] or "") == row["hardest"]
        assert (r["techniques"][i] or "") == row["techniques"]
        assert (str(r["steps"][i]) if r["steps"][i] >= 0 else "") == row["steps"]
        for name in ("mean_guesses", "mean_backtracks"):
            assert r[name][i] == pytest.approx(float(row[name]), abs=1e-3), (i, name)
    # The sample has rated puzzles and others; a rated one has all its columns.
    rated = r["status"] == Status.RATED
    assert rated.any() and not rated.all()
    assert np.all(r["ed"][rated] <= r["ep"][rated]) and np.all(r["ep"][rated] <= r["er"][rated])
    assert all(r["hardest"][i] is not None for i in np.flatnonzero(rated))
    # Without invariant there are no means; an invalid puzzle is a row, never an exception.
    plain = batchdoku.rate(["x" * 81, lines[0]], limit=10)
    assert "mean_guesses" not in plain
    assert Status(plain["status"][0]) == Status.INVALID and "row 0" in plain["error"][0]
    with pytest.raises(ValueError):
        batchdoku.rate(lines, limit=0)


def test_a_complete_grid_is_rated_with_no_step_as_the_cli_rates_it(tmp_path):
    solved = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
    path = tmp_path / "solved.txt"
    path.write_text(solved + "\n")
    (row,) = cli("rate", path)
    assert (row["hardest"], row["techniques"], row["steps"]) == ("", "", "0")
    r = batchdoku.rate([solved])
    assert Status(r["status"][0]) == Status.RATED
    assert (r["er"][0], r["ep"][0], r["ed"][0]) == (0.0, 0.0, 0.0)
    assert r["hardest"][0] is None and r["techniques"][0] is None
    assert int(r["steps"][0]) == 0


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
    assert (r["solution"][2] == batchdoku.NO_GRID).all()
    # Same statuses as the CLI.
    assert [Status(s).name.lower() for s in r["status"]] == [row["status"] for row in cli("solve", "-k", 2, STATUSES)]


def test_numpy_input_and_values_out_of_range():
    puzzles = batchdoku.read(SAMPLE)["puzzles"]
    assert puzzles.dtype == np.uint8 and puzzles.shape == (211, 81)
    r = batchdoku.solve(puzzles)
    assert all(is_solution(p, s) for p, s in zip(puzzles, r["solution"]))
    for dtype in (np.uint8, np.int8, np.int64, np.uint32):
        bad = puzzles[:3].astype(dtype)
        bad[2, 5] = 12 if dtype != np.int8 else -1
        with pytest.raises(ValueError, match=r"row 2 \(0-based\).* cell 5 \(0-based\)"):
            batchdoku.solve(bad)


def test_every_input_form_gives_the_same_results():
    """Strings as list, tuple, <U81, S81, object array, pandas Series; cells as any integer dtype, (n, 81) or
    (n, 9, 9), contiguous or not: all give the list of strings' results."""
    lines = SAMPLE.read_text().splitlines()[:30] + ["bad", ""]
    want = batchdoku.solve(lines, count_limit=2)
    text_forms = [
        tuple(lines),
        np.array(lines),
        np.array(lines).astype("S"),
        np.array(lines, dtype=object),
        [s.encode() for s in lines],
    ]
    pd = pytest.importorskip("pandas")
    text_forms += [pd.Series(lines), pd.Series(lines, dtype="string"), pd.Series(lines).astype(str)]
    for form in text_forms:
        got = batchdoku.solve(form, count_limit=2)
        assert np.array_equal(got["status"], want["status"]), type(form)
        assert np.array_equal(got["solution"], want["solution"]), type(form)
        assert got["error"] == want["error"], type(form)
    cells = batchdoku.read(SAMPLE)["puzzles"][:30]
    grids = batchdoku.solve(cells, count_limit=2)
    assert np.array_equal(grids["solution"], want["solution"][:30])
    for dtype in (np.uint8, np.int8, np.uint16, np.int16, np.int32, np.uint32, np.int64, np.uint64):
        for form in (cells.astype(dtype), cells.astype(dtype).reshape(30, 9, 9), np.asfortranarray(cells.astype(dtype))):
            got = batchdoku.solve(form, count_limit=2)
            assert np.array_equal(got["solution"], grids["solution"]), (dtype, form.shape)
            assert np.array_equal(got["status"], grids["status"]), dtype


def test_missing_values_are_invalid_rows():
    pd = pytest.importorskip("pandas")
    s = pd.Series([HARD, None, float("nan"), pd.NA], dtype=object)
    r = batchdoku.solve(s)
    assert [Status(x) for x in r["status"]] == [Status.SOLVED] + [Status.INVALID] * 3
    assert r["error"][1] == "row 1 (0-based): empty record"


@pytest.mark.parametrize(
    "value",
    [
        np.zeros((3, 80), dtype=np.uint8),
        np.zeros(81, dtype=np.uint8),
        np.zeros((3, 9, 8), dtype=np.int16),
        np.array([[HARD, HARD]]),
    ],
)
def test_wrong_shapes_raise_value_error(value):
    with pytest.raises(ValueError):
        batchdoku.solve(value)


@pytest.mark.parametrize(
    "value",
    [
        HARD,
        HARD.encode(),
        [1, 2, 3],
        {HARD: 1},
        {"puzzles": np.zeros((1, 81), dtype=np.uint8)},
        np.zeros((3, 81), dtype=np.float64),
        np.zeros((3, 81), dtype=bool),
        42,
        None,
    ],
)
def test_other_types_raise_type_error(value):
    with pytest.raises(TypeError):
        batchdoku.solve(value)


def test_a_dataframe_is_not_one_column():
    pd = pytest.importorskip("pandas")
    with pytest.raises((TypeError, ValueError)):
        batchdoku.solve(pd.DataFrame({"a": [HARD], "b": [HARD]}))


def test_bad_arguments_raise():
    for k in (0, -1, -(2**70)):
        with pytest.raises(ValueError, match="count_limit must be at least 1"):
            batchdoku.solve([HARD], count_limit=k)
    with pytest.raises(ValueError):
        batchdoku.score([HARD], node_limit=0)
    with pytest.raises(TypeError):
        batchdoku.solve([HARD], count_limit=1.5)
    # Past 2**64 - 1 is refused, as the CLI's -k refuses it (issue 39); the largest count is taken.
    with pytest.raises(ValueError, match="count_limit must be at most 18446744073709551615"):
        batchdoku.solve([HARD], count_limit=2**70)
    assert batchdoku.solve([HARD], count_limit=2**64 - 1)["solutions"][0] == 1
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



def test_each_function_returns_the_statuses_status_says():
    """What the docstrings of ``Status`` say: SOLVED from solve(count_limit=1) and a complete score search, never
    from canon; UNIQUE and MULTIPLE from solve(count_limit >= 2) only; LIMIT from score, with the best score found
    or -1; OK from canon only; DUPLICATE and LEAK from no function."""
    lines = STATUSES.read_text().splitlines()

    def statuses(result):
        return [Status(s) for s in result["status"]]

    assert set(statuses(batchdoku.solve(lines))) == {Status.SOLVED, Status.UNSOLVABLE, Status.INVALID}
    assert set(statuses(batchdoku.solve(lines, count_limit=2))) == {
        Status.UNIQUE,
        Status.MULTIPLE,
        Status.UNSOLVABLE,
        Status.INVALID,
    }
    scored = batchdoku.score(lines)
    assert set(statuses(scored)) == {Status.SOLVED, Status.UNSOLVABLE, Status.INVALID}
    # As the CLI writes: -1 for no solution; missing (masked) for an invalid row or none before the limit.
    assert [s for s, score in zip(statuses(scored), scored["score"].filled(0)) if score == -1] == [Status.UNSOLVABLE]
    assert [s for s, missing in zip(statuses(scored), scored["score"].mask) if missing] == [Status.INVALID] * 3
    limited = batchdoku.score(["." * 81] * 2, node_limit=1)
    assert statuses(limited) == [Status.LIMIT] * 2 and list(limited["score"].mask) == [True, True]
    limited = batchdoku.score(["." * 81], node_limit=80)
    assert statuses(limited) == [Status.LIMIT] and limited["score"][0] > 0
    assert set(statuses(batchdoku.canon(lines))) == {Status.OK, Status.INVALID}
    assert set(statuses(batchdoku.rate(lines))) <= {
        Status.RATED,
        Status.LIMIT,
        Status.MULTIPLE,
        Status.UNSOLVABLE,
        Status.INVALID,
    }


def test_read_every_format_with_expected_column():
    k = batchdoku.read(KAGGLE)
    assert k["puzzles"].shape == (4, 81)
    assert k["expected_solution"].shape == (4, 81)
    assert list(k["line"]) == [2, 3, 4, 5]
    short = batchdoku.read(ROOT / "tests" / "fixtures" / "formats" / "luogu_short.txt")
    assert list(short["valid"]) == [True, False, False]
    assert "promised grids" in short["error"][2]
    assert short["error"][2].startswith("row 2 (0-based): ")
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
            # As the CLI's canon: contradictory givens still have a form, a malformed puzzle none.
            contradictory = "contradictory" in r["error"][i]
            assert (r["canonical"][i] == batchdoku.NO_GRID).all() != contradictory
            assert r["error"][i] == solved["error"][i]
    assert "contradictory givens" in r["error"][6]
    bad = np.zeros((2, 81), dtype=np.uint8)
    bad[1, 3] = 10
    with pytest.raises(ValueError, match=r"row 1 \(0-based\)"):
        batchdoku.canon(bad)
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


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_malformed_records_stay_invalid_when_passed_on():
    """read() marks a malformed record with a NO_GRID row; solve, score and canon keep it invalid, with a message
    naming the row, and their own grids of invalid rows are NO_GRID rows too."""
    data = batchdoku.read(FIXTURES / "train.txt")
    bad = [i for i, v in enumerate(data["valid"]) if not v]
    assert bad == [3, 6]
    assert (data["puzzles"][bad] == batchdoku.NO_GRID).all()
    assert data["error"][3] == f"row 3 (0-based): {FIXTURES / 'train.txt'}:4: expected 81 cells, found 79"
    for result in (batchdoku.solve(data["puzzles"]), batchdoku.score(data["puzzles"]), batchdoku.canon(data["puzzles"])):
        invalid = [i for i, s in enumerate(result["status"]) if s == Status.INVALID]
        assert invalid == bad
        assert result["error"][3].startswith("row 3 (0-based): no grid")
        grids = result["canonical"] if "canonical" in result else result["solution"]
        assert (grids[bad] == batchdoku.NO_GRID).all()
    # A result's missing grids stay missing: the canonical forms, passed on, keep the invalid rows invalid.
    again = batchdoku.canon(batchdoku.canon(data["puzzles"])["canonical"])
    assert [i for i, s in enumerate(again["status"]) if s == Status.INVALID] == bad
    # ... and so do their strings.
    text = batchdoku.to_strings(batchdoku.canon(data["puzzles"])["canonical"])
    assert text[3] == b"" and text[6] == b""
    assert [i for i, s in enumerate(batchdoku.solve(text)["status"]) if s == Status.INVALID] == bad


def test_read_with_a_column_like_the_cli():
    path = FIXTURES / "sudoku.csv"
    by_name = batchdoku.read(path, column="SOLUTIONS")
    assert "expected_solution" not in by_name
    cli_rows = cli("solve", "--column", "solutions", path)
    assert [bool(v) for v in by_name["valid"]] == [row["puzzle"] != "" for row in cli_rows]
    assert list(batchdoku.to_strings(by_name["puzzles"]).astype(str)) == [
        row["puzzle"].replace(".", "0") for row in cli_rows
    ]
    plain = batchdoku.read(path)
    assert "expected_solution" in plain and list(plain["valid"]).count(False) == 2
    with pytest.raises(ValueError, match="nope"):
        batchdoku.read(path, column="nope")


def test_score_weights_like_the_cli(tmp_path):
    data = batchdoku.read(LUOGU)
    rng = np.random.default_rng(3)
    w = rng.integers(-9, 20, size=81)
    path = tmp_path / "w.txt"
    path.write_text("\n".join(", ".join(str(v) for v in w[r * 9 : r * 9 + 9]) for r in range(9)) + "\n")
    want = [int(row["score"]) for row in cli("score", "--weights", path, LUOGU)]
    for weights in (w, w.reshape(9, 9), w.astype(np.int16), list(map(int, w)), str(path), path):
        assert list(batchdoku.score(data["puzzles"], weights=weights)["score"]) == want
    with pytest.raises(ValueError):
        batchdoku.score(data["puzzles"], weights=w[:80])
    with pytest.raises(ValueError):
        batchdoku.score(data["puzzles"], weights=w.reshape(3, 27))
    with pytest.raises(OSError):
        batchdoku.score(data["puzzles"], weights=tmp_path / "missing.txt")
    (tmp_path / "short.txt").write_text("1 2 3\n")
    with pytest.raises(ValueError, match="expected 81 integers, found 3"):
        batchdoku.score(data["puzzles"], weights=tmp_path / "short.txt")
    with pytest.raises(TypeError):
        batchdoku.score(data["puzzles"], weights=np.ones(81))


def test_to_strings_matches_join_and_round_trips():
    r = batchdoku.solve(SAMPLE.read_text().splitlines() + ["bad"])
    text = batchdoku.to_strings(r["solution"])
    assert text.dtype == np.dtype("S81") and text.shape == (212,)
    assert [t.decode() for t in text[:-1]] == ["".join(map(str, row)) for row in r["solution"][:-1]]
    assert text[-1] == b""
    puzzles = batchdoku.read(SAMPLE)["puzzles"]
    assert np.array_equal(batchdoku.read(SAMPLE)["puzzles"], batchdoku.solve(batchdoku.to_strings(puzzles))["solution"] * 0 + puzzles)
    assert list(batchdoku.to_strings(puzzles.reshape(-1, 9, 9).astype(np.int64))) == list(batchdoku.to_strings(puzzles))
    with pytest.raises(ValueError):
        batchdoku.to_strings(np.full((1, 81), 10))


def test_version_is_the_crates():
    """One version: the workspace's in the root Cargo.toml, inherited by the crate and the binding, and the
    wheel's (pyproject.toml takes it from Cargo)."""

    def table(path, name):
        text = "\n" + path.read_text()
        start = text.index(f"\n[{name}]\n")
        end = text.find("\n[", start + 1)
        return text[start : end if end >= 0 else len(text)]

    version = re.search(r'^version = "(.+)"$', table(ROOT / "Cargo.toml", "workspace.package"), flags=re.M)
    assert version, "the root Cargo.toml has no [workspace.package] version"
    for manifest in (ROOT / "Cargo.toml", ROOT / "python" / "Cargo.toml"):
        assert re.search(r"^version\.workspace = true$", table(manifest, "package"), flags=re.M), manifest
    assert batchdoku.__version__ == version[1]
    assert importlib.metadata.version("batchdoku") == version[1]
    # And the CLI's, built from the same workspace.
    binary = os.environ.get("BATCHDOKU_BIN", str(ROOT / "target" / "release" / "batchdoku"))
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.split()[:2] == ["batchdoku", batchdoku.__version__]  # then the commit


def test_all_lists_the_api():
    public = {name for name in dir(batchdoku) if not name.startswith("_")}
    assert public <= set(batchdoku.__all__), public - set(batchdoku.__all__)
    assert set(batchdoku.__all__) <= set(dir(batchdoku))
    assert set(batchdoku._batchdoku.__all__) <= set(batchdoku.__all__)
    for name in ("to_pandas", "to_arrow", "generate", "dedupe", "overlap", "read", "Status", "__version__"):
        assert name in batchdoku.__all__


def test_dir_shows_only_the_api():
    """dir(batchdoku) of a fresh interpreter, after the calls that import pandas and pyarrow, is ``__all__`` and
    private names: no ``np``, ``typing``, ``Dict``, ``Any``, ``IntEnum``, nor a submodule the user did not import
    (the package has none to expose; ``_batchdoku`` is the native module)."""
    script = """import json, batchdoku
r = batchdoku.solve(["." * 81])
for convert in (batchdoku.to_pandas, batchdoku.to_arrow):
    try:
        convert(r)
    except ImportError:
        pass
print(json.dumps([dir(batchdoku), batchdoku.__all__]))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    names, exported = json.loads(out.stdout)
    public = [name for name in names if not name.startswith("_")]
    assert set(public) == set(exported) - {"__version__"}, sorted(set(public) ^ (set(exported) - {"__version__"}))
    assert len(exported) == len(set(exported)) and set(exported) <= set(names)
    for name in ("np", "npt", "typing", "Any", "Dict", "List", "Optional", "Mapping", "TypedDict", "IntEnum"):
        assert name not in names, name


def test_missing_files_raise_file_not_found(tmp_path):
    missing = tmp_path / "no-such.txt"
    with pytest.raises(FileNotFoundError) as e:
        batchdoku.read(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError, match="no-such.txt"):
        batchdoku.score([HARD], weights=missing)
    with pytest.raises(IsADirectoryError):
        batchdoku.read(tmp_path)


def test_numbers_where_text_belongs_say_to_read_with_dtype_str():
    pd = pytest.importorskip("pandas")
    # Kaggle's puzzles read as numbers: their leading zeros are gone (81 digits overflow int64, so pandas holds
    # Python ints in an object column).
    numbers = pd.read_csv(KAGGLE)
    assert isinstance(numbers["quizzes"][0], int)
    for value, error in (
        (numbers["quizzes"], TypeError),
        (pd.Series([3070040, 5]), ValueError),  # int64: a wrong shape for cells, and the hint
        (numbers["quizzes"].astype(float), TypeError),
        (pd.Series([4.0, float("nan")]), TypeError),
        (np.array([1, 2], dtype=np.int64), ValueError),
        ([3070040, 5], TypeError),
        ([HARD, 5.0], TypeError),
    ):
        for call in (batchdoku.solve, batchdoku.score, batchdoku.canon, batchdoku.dedupe):
            with pytest.raises(error, match=r"read the CSV with dtype=str"):
                call(value)
    # Read as text, the same column solves.
    text = pd.read_csv(KAGGLE, dtype=str)
    assert (batchdoku.solve(text["quizzes"])["status"] == Status.SOLVED).all()


def threads(named=""):
    """The ids of this process's threads whose name starts with ``named`` (Linux keeps its first 15 bytes)."""
    ids = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            if task.joinpath("comm").read_text().startswith(named):
                ids.add(task.name)
        except FileNotFoundError:  # a thread that just ended
            pass
    return ids


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc/self/task")
def test_calls_reuse_one_pool_per_thread_count():
    batchdoku.solve([HARD], threads=3)
    # Every thread there is now, the pool's workers among them (a worker names itself once it runs).
    before = threads()
    batchdoku.solve([HARD] * 100, threads=3)
    batchdoku.score([HARD], threads=3)
    batchdoku.canon([HARD], threads=3)
    workers = threads("batchdoku-worke")
    # No call started a worker: they are the first call's pool, still there.
    assert workers <= before
    assert len(workers) >= 3


def solve_in_child():
    r = batchdoku.solve([HARD], threads=2)
    raise SystemExit(0 if r["status"][0] == Status.SOLVED else 1)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning")
def test_a_forked_child_builds_its_own_pool():
    """A child forked after a call (multiprocessing's default on Linux, PySpark's workers) has the parent's pool
    but none of its threads: it must build its own, not wait forever on workers that are not there."""
    batchdoku.solve([HARD], threads=2)
    child = multiprocessing.get_context("fork").Process(target=solve_in_child)
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail("the forked child hung in solve()")
    assert child.exitcode == 0


# --- issue 27: byte order, malformed strings, memoryviews, threads, Ctrl-C ---


def test_any_byte_order_reads_alike():
    """Big-endian integer and string arrays give the native arrays' results."""
    lines = SAMPLE.read_text().splitlines()[:20] + ["bad"]
    want = batchdoku.solve(lines, count_limit=2)
    for dtype in (">U81", ">U90", "<U81", "=U81"):
        got = batchdoku.solve(np.array(lines).astype(dtype), count_limit=2)
        assert np.array_equal(got["status"], want["status"]), dtype
        assert np.array_equal(got["solution"], want["solution"]), dtype
    cells = batchdoku.read(SAMPLE)["puzzles"][:20]
    grids = batchdoku.solve(cells, count_limit=2)
    for dtype in (">u2", ">i2", ">u4", ">i4", ">u8", ">i8", "<i8", ">u1"):
        for form in (cells.astype(dtype), cells.astype(dtype).reshape(20, 9, 9)):
            got = batchdoku.solve(form, count_limit=2)
            assert np.array_equal(got["status"], grids["status"]), dtype
            assert np.array_equal(got["solution"], grids["solution"]), dtype
    bad = cells[:2].astype(">i8")
    bad[1, 4] = 10
    with pytest.raises(ValueError, match=r"row 1 \(0-based\).* value 10 in cell 4"):
        batchdoku.solve(bad)


def test_a_lone_surrogate_is_an_invalid_row_never_an_exception():
    broken = "\ud800" + HARD[1:]
    forms = [[HARD, broken], (HARD, broken), np.array([HARD, broken], dtype=object), np.array([HARD, broken])]
    pd = pytest.importorskip("pandas")
    forms.append(pd.Series([HARD, broken], dtype=object))  # pandas' arrow strings refuse a surrogate
    for form in forms:
        for call in (batchdoku.solve, batchdoku.score, batchdoku.canon):
            r = call(form)
            assert Status(r["status"][1]) == Status.INVALID, (call, type(form))
            assert r["error"][1].startswith("row 1 (0-based): "), r["error"][1]
            assert r["error"][0] is None
            assert Status(r["status"][0]) != Status.INVALID


def test_a_memoryview_is_read_as_the_array_it_views():
    cells = batchdoku.read(SAMPLE)["puzzles"][:10]
    want = batchdoku.solve(cells)
    for form in (cells, cells.astype(np.int32), cells.astype(">u2"), cells.reshape(10, 9, 9)):
        got = batchdoku.solve(memoryview(form))
        assert np.array_equal(got["solution"], want["solution"]), form.dtype
        assert np.array_equal(got["status"], want["status"])
    # A flat buffer has the wrong shape: a ValueError that says so.
    with pytest.raises(ValueError, match="shape"):
        batchdoku.solve(memoryview(bytes(81)))
    # A buffer NumPy cannot read as numbers: a TypeError naming what is taken.
    with pytest.raises(TypeError, match="expected a list of 81-character strings"):
        batchdoku.solve(memoryview(np.zeros((2, 81), dtype=np.float32)))


def test_threads_are_capped_like_the_cli():
    for call in (batchdoku.solve, batchdoku.score, batchdoku.canon):
        for n in (1025, 100_000, 2**70):
            with pytest.raises(ValueError, match="threads must be at most 1024"):
                call([HARD], threads=n)
    assert Status(batchdoku.solve([HARD], threads=3)["status"][0]) == Status.SOLVED


CTRL_C_CHILD = """
import sys, time
import batchdoku
name = sys.argv[1]
puzzles = [sys.argv[2]] * 3_000_000
calls = {
    "overlap": lambda: batchdoku.overlap(puzzles, puzzles, threads=2),
    "generate": lambda: batchdoku.generate(10_000_000, 1, threads=2),
    "read": lambda: batchdoku.read(sys.argv[3]),
}
print("start", flush=True)
try:
    calls.get(name, lambda: getattr(batchdoku, name)(puzzles, threads=2))()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
sys.exit(3)
"""


def endless_pipe(path):
    """A named pipe that a thread keeps writing puzzles to until its reader goes away: a read that never ends."""
    import threading
    import time

    os.mkfifo(path)

    def write():
        try:
            with open(path, "w") as pipe:
                while True:
                    pipe.write((HARD + "\n") * 100)
                    pipe.flush()
                    time.sleep(0.01)
        except OSError:  # the reader went away (BrokenPipeError)
            pass

    threading.Thread(target=write, daemon=True).start()


@pytest.mark.parametrize("function", ["solve", "score", "rate", "canon", "dedupe", "overlap", "generate", "read"])
def test_ctrl_c_stops_a_long_call_with_keyboard_interrupt(function, tmp_path):
    import signal
    import sys
    import time

    pipe = tmp_path / "endless.txt"
    if function == "read":
        endless_pipe(pipe)
    child = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_CHILD, function, HARD, str(pipe)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "start"
        time.sleep(1.0)  # well inside the call (minutes of work)
        assert child.poll() is None, child.communicate()
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    assert out.strip() == "interrupted", (out, err)
    assert child.returncode == 0, err
    # About 0.1 s on an idle machine; CI runs other work beside it (3.08 s seen once under a load of 6).
    assert took < 4.0, took


def test_numeric_arguments_are_refused_as_the_cli_refuses_its_flags():
    """One range per option, the library's, for the CLI's flag and the Python argument, with the same message."""
    cases = [
        (lambda: batchdoku.rate([HARD], invariant=1_000_001), "invariant must be at most 1000000, got 1000001",
         ["rate", "--invariant", "1000001"]),
        (lambda: batchdoku.rate([HARD], limit=2**64), "limit must be at most 18446744073709551615",
         ["rate", "--limit", str(2**64)]),
        (lambda: batchdoku.rate([HARD], limit=0), "limit must be at least 1, got 0", ["rate", "--limit", "0"]),
        (lambda: batchdoku.rate([HARD], seed=-1), "seed must be at least 0, got -1", ["rate", "--seed=-1"]),
        (lambda: batchdoku.score([HARD], node_limit=2**64), "node_limit must be at most", ["score", "--node-limit", str(2**64)]),
        (lambda: batchdoku.solve([HARD], count_limit=2**70), "count_limit must be at most", ["solve", "-k", str(2**70)]),
        (lambda: batchdoku.solve([HARD], threads=1025), "threads must be at most 1024, got 1025", ["solve", "-j", "1025"]),
        (lambda: batchdoku.solve([HARD], threads=0), "threads must be at least 1, got 0", ["solve", "-j", "0"]),
    ]
    binary = os.environ.get("BATCHDOKU_BIN", str(ROOT / "target" / "release" / "batchdoku"))
    for call, message, args in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            call()
        if Path(binary).is_file():
            done = subprocess.run([binary, *args, str(SAMPLE)], capture_output=True, text=True)
            assert done.returncode == 2, args
            assert message.split(" ", 1)[1] in done.stderr, (args, done.stderr)
    assert batchdoku.rate([HARD], invariant=1_000_000 // 10**5, limit=2**64 - 1)["status"][0] == Status.RATED
    with pytest.raises(TypeError):
        batchdoku.rate([HARD], invariant=1.5)
