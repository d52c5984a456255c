"""Runs every ``python`` block of the README's Python section and of ``docs/python.md``, as a reader would, on
the small files in ``fixtures/`` (copied under the names the documents use), checks what the recipes computed
against the CLI, and runs ``mypy --strict`` on the blocks."""

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BIN = os.environ.get("BATCHDOKU_BIN", str(ROOT / "target" / "release" / "batchdoku"))


def python_blocks():
    """The ``python`` blocks of the README's "## Python" section, then those of ``docs/python.md``, in order, each
    with the place it comes from."""
    text = (ROOT / "README.md").read_text()
    start = text.index("\n## Python\n")
    end = text.find("\n## ", start + 1)
    sections = [("README.md", text[start : end if end >= 0 else len(text)]),
                ("docs/python.md", (ROOT / "docs" / "python.md").read_text())]
    return [(f"{name} python block {i}", code)
            for name, section in sections
            for i, code in enumerate(re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M))]


BLOCKS = [code for _, code in python_blocks()]
PLACES = [place for place, _ in python_blocks()]


def cli(*args):
    out = subprocess.run([BIN, *map(str, args), "-q"], capture_output=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return list(csv.DictReader(io.StringIO(out.stdout.decode())))


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A directory holding the files the documents name."""
    for name in ("sudoku.csv", "train.txt", "test.txt"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    (tmp_path / "corpus").mkdir()
    shutil.copy(FIXTURES / "sudoku.csv", tmp_path / "corpus" / "part-1.csv")
    shutil.copy(ROOT / "tests" / "fixtures" / "formats" / "kaggle.csv", tmp_path / "corpus" / "part-2.csv")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_documents_have_their_examples():
    assert PLACES[0].startswith("README.md") and sum(p.startswith("docs/python.md") for p in PLACES) >= 5


@pytest.mark.parametrize("index", range(len(BLOCKS)), ids=lambda i: f"block{i}")
def test_readme_block_runs(index, workdir):
    code = BLOCKS[index]
    # Outside CI a recipe whose library is not installed is skipped; scripts/ci/ci_python.sh sets CI_PYTHON_ALL=1,
    # so there every block runs.
    if os.environ.get("CI_PYTHON_ALL") != "1":
        for module in re.findall(r"^import (\w+)", code, flags=re.M):
            pytest.importorskip(module)
    namespace = {"__name__": f"readme_block{index}"}
    exec(compile(code, PLACES[index], "exec"), namespace)
    check = CHECKS.get(next((k for k in CHECKS if k in code), ""), None)
    if check:
        check(namespace, workdir)


def check_corpus(ns, workdir):
    """The corpus recipe equals the CLI's dedupe and overlap, malformed lines included."""
    kept = [int(row["index"]) - 1 for row in cli("dedupe", workdir / "train.txt")]
    assert ns["keep"] == kept
    leaks = [int(row["index"]) - 1 for row in cli("overlap", workdir / "train.txt", workdir / "test.txt")
             if row["status"] == "leak"]
    assert ns["leaks"] == leaks and leaks


def check_pandas(ns, workdir):
    """The pandas recipe kept the leading zeros and agrees with the CLI row by row."""
    df = ns["df"]
    rows = cli("solve", "-k", "2", workdir / "sudoku.csv")
    assert list(df["status"]) == [row["status"] for row in rows]
    assert list(df["solved"]) == [row["solution"] for row in rows]
    assert df["quizzes"][0].startswith("00")
    assert [isinstance(e, str) for e in df["error"]] == [row["error"] != "" for row in rows]


def check_parquet(ns, workdir):
    """What Dask or Ray wrote holds, for every puzzle of the corpus, the CLI's status and solution (in any
    order: the engines may reorder partitions)."""
    status = ns["batchdoku"].Status
    out = ns["out"]
    got = sorted((status(int(s)).name.lower(), str(t)) for s, t in zip(out["status"], out["solved"]))
    want = sorted(
        (row["status"], row["solution"])
        for path in sorted((workdir / "corpus").iterdir())
        for row in cli("solve", "-k", "2", path)
    )
    assert got == want
    assert {"invalid", "unique"} <= {s for s, _ in got}


def check_rate(ns, workdir):
    """The ratings recipe equals `batchdoku rate --invariant 4 --seed 1` row by row, and kept rated puzzles only."""
    r = ns["r"]
    rows = cli("rate", "--invariant", 4, "--seed", 1, workdir / "train.txt")
    status = ns["batchdoku"].Status
    assert [status(int(s)).name.lower() for s in r["status"]] == [row["status"] for row in rows]
    assert [f"{e:.1f}" if e == e else "" for e in r["er"]] == [row["er"] for row in rows]
    means = [float(row["mean_guesses"] or "nan") for row in rows]
    assert [float(m) for m in r["mean_guesses"]] == pytest.approx(means, nan_ok=True)
    assert len(ns["easy"]) == sum(1 for row in rows if row["er"] and float(row["er"]) <= 2.0)


def check_split_and_report(ns, workdir):
    """The split recipe's parts are the CLI's; its report's figures are the CLI's JSON, and the page was written."""
    rows = cli("split", "--ratios", "8,1,1", "--seed", 1, workdir / "sudoku.csv")
    assert ns["parts"]["split"] == [row["split"] or None for row in rows]
    # The same name as the recipe's, which the report's notes repeat.
    out = subprocess.run([BIN, "report", "-q", "--format", "json", "--classes", "sudoku.csv"],
                         capture_output=True, check=False, cwd=workdir)
    assert out.returncode in (0, 1), out.stderr  # 1: the file has invalid records
    want = json.loads(out.stdout)
    assert {k: v for k, v in ns["figures"].items() if k != "run"} == {k: v for k, v in want.items() if k != "run"}
    assert (workdir / "report.html").read_text().startswith("<!DOCTYPE html>")


def check_path(ns, workdir):
    """The path recipe's steps are the CLI's `rate --path`, step for step."""
    import json

    out = subprocess.run([BIN, "rate", "--path", "--format", "jsonl", "-q", workdir / "train.txt"],
                         capture_output=True, check=False)
    paths = [json.loads(line)["path"] for line in out.stdout.splitlines()]
    steps = ns["steps"]
    want = [(i, k, s["technique"], s["rating"], s["text"])
            for i, path in enumerate(paths) for k, s in enumerate(path or [])]
    got = list(zip(steps["index"], steps["step"], steps["technique"], steps["rating"], steps["text"]))
    assert got == want and len(ns["beyond"]) > 0


CHECKS = {
    "batchdoku.split(": check_split_and_report,
    "batchdoku.path_steps(": check_path,
    "batchdoku.rate(puzzles": check_rate,
    "batchdoku.dedupe(train)": check_corpus,
    'pd.read_csv("sudoku.csv"': check_pandas,
    "dd.read_csv(": check_parquet,
    "ray.data.read_csv(": check_parquet,
}


def test_readme_blocks_pass_mypy_strict(tmp_path):
    pytest.importorskip("mypy")
    files = []
    for i, code in enumerate(BLOCKS):
        path = tmp_path / f"readme_block{i}.py"
        path.write_text(code)
        files.append(str(path))
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "python" / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
