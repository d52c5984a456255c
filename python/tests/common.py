"""Paths the package's tests share: the repository, its fixtures and the CLI binary they compare with."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
STATUSES = ROOT / "tests" / "fixtures" / "statuses.txt"
TRAIN = FIXTURES / "train.txt"
TEST = FIXTURES / "test.txt"
BIN = os.environ.get("BATCHDOKU_BIN", str(ROOT / "target" / "release" / "batchdoku"))
