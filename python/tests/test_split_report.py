"""split and report: the CLI's parts and the CLI's report figures for the same input."""

import csv
import io
import json
import random
import subprocess

import pytest

import batchdoku
from batchdoku import Status

from common import BIN, FIXTURES, STATUSES, TRAIN


def cli_text(*args, codes=(0, 1)):
    out = subprocess.run([BIN, *map(str, args), "-q"], capture_output=True, check=False)
    assert out.returncode in codes, out.stderr
    return out.stdout.decode()


def cli_parts(*args):
    """The ``split`` column of the CLI's ``split`` rows (``None`` where empty: an invalid record)."""
    rows = csv.DictReader(io.StringIO(cli_text("split", *args)))
    return [row["split"] or None for row in rows]


def relabel(line, rng):
    """An equivalent puzzle: the digits relabelled."""
    digits = list("123456789")
    rng.shuffle(digits)
    return "".join(digits[int(c) - 1] if c.isdigit() and c != "0" else c for c in line)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A CSV of a few hundred records: generated puzzles (with `0` blanks), relabelled copies spread through it,
    malformed and contradictory records, and a skewed `rating` column."""
    rng = random.Random(11)
    r = batchdoku.generate(160, 42, threads=2)
    puzzles = [s.decode() for s in batchdoku.to_strings(r["puzzle"])]
    puzzles += [relabel(p, rng) for p in rng.sample(puzzles, 60)]
    puzzles += STATUSES.read_text().splitlines()
    rng.shuffle(puzzles)
    path = tmp_path_factory.mktemp("split") / "corpus.csv"
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["id", "quizzes", "rating"])
        for i, p in enumerate(puzzles):
            out.writerow([i, p, "hard" if rng.random() < 0.2 else "easy"])
    return path


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({}, []),
        ({"ratios": [2, 1], "seed": 7}, ["--ratios", "2,1", "--seed", "7"]),
        ({"ratios": [1, 1, 1, 1], "names": ["a", "b", "c", "d"]}, ["--ratios", "1,1,1,1", "--names", "a,b,c,d"]),
        ({"by": "grid", "seed": 3}, ["--by", "grid", "--seed", "3"]),
        ({"stratify": "guesses"}, ["--stratify", "guesses"]),
        ({"stratify": "rating", "seed": 5}, ["--stratify", "rating", "--seed", "5"]),
    ],
    ids=["default", "ratios-seed", "named", "by-grid", "guesses", "column"],
)
def test_split_of_a_file_gives_the_clis_parts(corpus, kwargs, flags):
    want = cli_parts(*flags, corpus)
    assert None in want and len(set(want)) > 2
    r = batchdoku.split(corpus, threads=2, **kwargs)
    assert r["split"] == want
    assert [s == Status.INVALID for s in r["status"]] == [p is None for p in want]
    assert [e is not None for e in r["error"]] == [p is None for p in want]
    assert len(set(r["split"]) - {None}) == len(kwargs.get("ratios", [1, 1, 1]))


def test_split_in_memory_gives_the_clis_parts(corpus):
    """The same records in memory (as read() gives them, or as a column's strings) and the rating column's values
    as strata: the CLI's parts, at any thread count."""
    records = batchdoku.read(corpus)
    with open(corpus, newline="") as f:
        rows = list(csv.DictReader(f))
    want = cli_parts("--stratify", "rating", "--seed", "5", corpus)
    for puzzles in (records["puzzles"], [row["quizzes"] for row in rows]):
        for threads in (1, 2):
            r = batchdoku.split(puzzles, stratify=[row["rating"] for row in rows], seed=5, threads=threads)
            assert r["split"] == want
    assert batchdoku.split(records["puzzles"], by="grid")["split"] == cli_parts("--by", "grid", corpus)
    # As a frame, with the CLI's column names.
    pd = pytest.importorskip("pandas")
    frame = batchdoku.to_pandas(batchdoku.split(records["puzzles"]))
    assert list(frame.columns) == ["split", "status", "error"]
    assert frame["split"].isna().tolist() == [p is None for p in cli_parts(corpus)]
    assert isinstance(frame, pd.DataFrame)


def test_split_keeps_classes_together_and_refuses_what_the_cli_refuses(corpus):
    r = batchdoku.split(corpus, ratios=[1, 1])
    forms = batchdoku.canon(batchdoku.read(corpus)["puzzles"])
    side = {}
    for part, form, status in zip(r["split"], batchdoku.to_strings(forms["canonical"]), r["status"]):
        if status != Status.INVALID:
            assert side.setdefault(bytes(form), part) == part, "a class on two sides"
    assert len(side) < sum(p is not None for p in r["split"])  # there were copies
    lines = TRAIN.read_text().splitlines()
    for kwargs in (
        {"ratios": [1]},
        {"ratios": [1, 0]},
        {"ratios": [1, 1, 1, 1]},  # four parts need names
        {"names": ["a", "a", "b"]},
        {"by": "solution"},
        {"stratify": "rating"},  # a column needs a file
        {"stratify": ["easy"]},  # one value per puzzle
    ):
        with pytest.raises(ValueError):
            batchdoku.split(lines, **kwargs)
    with pytest.raises(ValueError, match="no such input column"):
        batchdoku.split(corpus, stratify="nope")
    with pytest.raises(FileNotFoundError):
        batchdoku.split(FIXTURES / "missing.txt")


def without_provenance(report):
    """A report's figures: all but how the run went (time, date, command line, options, version)."""
    return {key: value for key, value in report.items() if key != "run"}


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({}, []),
        ({"classes": True, "score": "target"}, ["--classes", "--score", "target"]),
    ],
    ids=["default", "classes-score"],
)
def test_report_of_a_file_has_the_clis_figures(corpus, tmp_path, kwargs, flags):
    want = json.loads(cli_text("report", "--format", "json", *flags, corpus))
    got = batchdoku.report(corpus, threads=2, **kwargs)
    assert without_provenance(got) == without_provenance(want)
    assert got["run"]["inputs"] == want["run"]["inputs"]  # the same bytes and checksum
    assert got["run"]["threads"] == 2 and got["run"]["options"]["classes"] == bool(kwargs)
    # The audit of a solution column, the ER of an `er` column: as the CLI reads them.
    rated = tmp_path / "rated.csv"
    rated.write_text(cli_text("rate", FIXTURES / "sudoku.csv"))
    for path in (FIXTURES / "sudoku.csv", rated):
        want = json.loads(cli_text("report", "--format", "json", path))
        got = batchdoku.report(path)
        assert without_provenance(got) == without_provenance(want)
    assert got["ratings"] is not None and got["ratings"]["source"] == "columns"


def test_report_writes_the_page_and_counts_puzzles_in_memory(corpus, tmp_path):
    figures = batchdoku.report(corpus)
    for name, start in (("r.html", "<!DOCTYPE html>"), ("r.md", "# "), ("r.json", "{")):
        again = batchdoku.report(corpus, output=tmp_path / name)
        assert without_provenance(again) == without_provenance(figures)
        assert (tmp_path / name).read_text().startswith(start), name
    batchdoku.report(corpus, output=tmp_path / "page", format="markdown")
    assert (tmp_path / "page").read_text().startswith("# ")
    with pytest.raises(ValueError, match="extension"):
        batchdoku.report(corpus, output=tmp_path / "r.pdf")
    # In memory: the same counts (no file, so no inputs and no audit; an invalid record is named by its row).
    memory = batchdoku.report(batchdoku.read(corpus)["puzzles"], threads=1)
    for key in ("givens", "guesses", "backtracks", "singles"):
        assert memory[key] == figures[key], key
    errors = [(e["record"], e["input"]) for e in memory["totals"].pop("errors")]
    assert errors == [(e["record"], "puzzles") for e in figures["totals"].pop("errors")]
    assert memory["totals"] == figures["totals"]
    assert memory["run"]["inputs"] == []
    assert len(batchdoku.read(corpus)["valid"]) == figures["totals"]["records"]
