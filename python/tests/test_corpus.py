"""generate, dedupe and overlap: the same rows as the CLI's commands on the same input."""

import csv
import io
import json
import random
import subprocess

import numpy as np
import pytest

import batchdoku
from batchdoku import Status

from common import BIN, FIXTURES, ROOT, STATUSES, TEST, TRAIN  # noqa: F401


def cli_text(*args):
    out = subprocess.run([BIN, *map(str, args), "-q"], capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return out.stdout.decode()


def cli(*args):
    return list(csv.DictReader(io.StringIO(cli_text(*args))))


def text(cells, blank="0"):
    """The CLI's text of each grid ("" for a NO_GRID row), blanks as ``blank``."""
    return [s.decode().replace("0", blank) for s in batchdoku.to_strings(cells)]


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({}, []),
        ({"clues": 26, "symmetry": "central"}, ["--clues", "26", "--symmetry", "central"]),
        ({"min_clues": 30, "start": 5}, ["--min-clues", "30", "--start", "5"]),
        ({"minimal": True, "symmetry": "mirror"}, ["--minimal", "--symmetry", "mirror"]),
    ],
    ids=["default", "clues-central", "min-clues-start", "minimal-mirror"],
)
def test_generate_makes_the_clis_puzzles(kwargs, flags):
    seed, n = 20260, 12
    r = batchdoku.generate(n, seed, threads=2, **kwargs)
    rows = [json.loads(line) for line in cli_text("generate", "-n", n, "--seed", seed, "--format", "jsonl", *flags).splitlines()]
    assert [int(i) for i in r["index"]] == [row["index"] for row in rows]
    assert [int(g) for g in r["givens"]] == [row["givens"] for row in rows]
    assert text(r["puzzle"], ".") == [row["puzzle"] for row in rows]
    assert text(r["solution"]) == [row["solution"] for row in rows]
    # And each puzzle has exactly that one solution.
    check = batchdoku.solve(r["puzzle"], count_limit=2)
    assert (check["status"] == Status.UNIQUE).all() and (check["solution"] == r["solution"]).all()


def test_generate_is_the_same_for_any_thread_count_and_start():
    one = batchdoku.generate(20, 7, threads=1)
    two = batchdoku.generate(20, 7, threads=2)
    later = batchdoku.generate(5, 7, start=16)  # counting from 1, as --start
    for key in one:
        assert np.array_equal(one[key], two[key]), key
        assert np.array_equal(one[key][15:], later[key]), key
    assert list(one["index"][:2]) == [1, 2]
    assert len(batchdoku.generate(0, 7)["puzzle"]) == 0


def test_generate_rejects_specs_as_the_cli_does():
    with pytest.raises(ValueError, match="17 to 81"):
        batchdoku.generate(1, 1, clues=16)
    with pytest.raises(ValueError, match="quarter symmetry cannot have exactly 26 givens"):
        batchdoku.generate(1, 1, clues=26, symmetry="quarter")
    with pytest.raises(ValueError, match="exclude each other"):
        batchdoku.generate(1, 1, clues=30, min_clues=30)
    with pytest.raises(ValueError, match="symmetry"):
        batchdoku.generate(1, 1, symmetry="spiral")
    with pytest.raises(ValueError, match="counts from 1"):
        batchdoku.generate(1, 1, start=0)
    with pytest.raises(ValueError, match="overflows"):
        batchdoku.generate(2, 1, start=2**64 - 1)
    with pytest.raises(OverflowError):
        batchdoku.generate(-1, 1)


def relabel(puzzle, rng):
    """An equivalent puzzle: digits relabelled, rows swapped within the first band, transposed."""
    digits = list("123456789")
    rng.shuffle(digits)
    cells = [digits[int(c) - 1] if c not in ".0" else "." for c in puzzle]
    rows = [cells[r * 9 : r * 9 + 9] for r in range(9)]
    rows[0], rows[1] = rows[1], rows[0]
    return "".join(rows[c][r] for r in range(9) for c in range(9))


@pytest.fixture
def corpus(tmp_path):
    """A file with equivalent copies, identical copies and malformed lines, in mixed order."""
    rng = random.Random(5)
    base = TRAIN.read_text().splitlines() + STATUSES.read_text().splitlines()
    lines = list(base)
    for line in base:
        if len(line) == 81 and "x" not in line and "?" not in line:
            lines.append(relabel(line, rng) if rng.random() < 0.6 else line)
    lines += lines[:5]
    rng.shuffle(lines)
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("exact", [False, True])
def test_dedupe_keeps_the_clis_rows(corpus, exact):
    rows = cli("dedupe", *(["--exact"] if exact else []), corpus)
    for puzzles in (corpus.read_text().splitlines(), batchdoku.read(corpus)["puzzles"]):
        r = batchdoku.dedupe(puzzles, exact=exact, threads=2)
        assert [int(i) + 1 for i in r["row"]] == [int(row["index"]) for row in rows]
        assert [Status(s).name.lower() for s in r["status"]] == [row["status"] for row in rows]
        assert text(r["puzzle"], ".") == [row["puzzle"] for row in rows]
        if exact:
            assert "canonical" not in r and "canonical" not in rows[0]
        else:
            assert text(r["canonical"]) == [row["canonical"] for row in rows]
        assert [str(d) if d >= 0 else "" for d in r["dropped"]] == [row["dropped"] for row in rows]
        assert [e is not None for e in r["error"]] == [row["error"] != "" for row in rows]
    assert len(rows) < len(corpus.read_text().splitlines())  # something was dropped


def test_dedupe_is_the_same_for_one_and_two_threads(corpus):
    puzzles = corpus.read_text().splitlines()
    one, two = batchdoku.dedupe(puzzles, threads=1), batchdoku.dedupe(puzzles, threads=2)
    for key in one:
        assert np.array_equal(np.asarray(one[key], dtype=object), np.asarray(two[key], dtype=object)), key


def test_overlap_finds_the_clis_leaks(corpus):
    for train, test in ((TRAIN, TEST), (corpus, TEST), (TEST, corpus)):
        rows = cli("overlap", train, test)
        r = batchdoku.overlap(train.read_text().splitlines(), batchdoku.read(test)["puzzles"])
        assert r["split"] == [row["split"] for row in rows]
        assert [int(i) + 1 for i in r["row"]] == [int(row["index"]) for row in rows]
        assert [Status(s).name.lower() for s in r["status"]] == [row["status"] for row in rows]
        # A file of one puzzle per line: its training line is its row plus one.
        assert [str(t + 1) if t >= 0 else "" for t in r["train_row"]] == [row["train_line"] for row in rows]
        assert text(r["canonical"]) == [row["canonical"] for row in rows]
        assert any(row["status"] == "leak" for row in rows)


def test_overlap_by_grid_is_the_clis(corpus):
    rows = cli("overlap", "--by", "grid", corpus, TEST)
    r = batchdoku.overlap(batchdoku.read(corpus)["puzzles"], batchdoku.read(TEST)["puzzles"], by="grid")
    assert r["split"] == [row["split"] for row in rows]
    assert [int(i) + 1 for i in r["row"]] == [int(row["index"]) for row in rows]
    assert [Status(s).name.lower() for s in r["status"]] == [row["status"] for row in rows]
    assert text(r["canonical"]) == [row["canonical"] for row in rows]
    with pytest.raises(ValueError, match="class key"):
        batchdoku.overlap(TRAIN.read_text().splitlines(), [], by="solution")
