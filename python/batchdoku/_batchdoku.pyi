# The native module (python/src/lib.rs), which the package re-exports: its functions' and constants' types, and
# nothing else. The result types and Status are declared in __init__.py; the functions' docstrings are their Rust
# doc comments. python/tests/test_typing.py checks this stub against the built module (mypy's stubtest).
import os
from typing import Any, Dict, Final, List, Literal, Optional, Protocol, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import (
    CanonResult,
    DedupeResult,
    GenerateResult,
    OverlapResult,
    RateResult,
    ReadResult,
    ScoreResult,
    SolveResult,
    SplitResult,
)

__all__ = [
    "solve", "score", "rate", "canon", "read", "generate", "dedupe", "overlap", "split", "report", "STATUS_NAMES",
    "NO_GRID", "__version__"
]

__version__: Final[str]
# The cell value filling a row that holds no grid; every function takes such a row as an invalid puzzle.
NO_GRID: Final = 255
# The library's status names, in the order of their codes (Status checks itself against them).
STATUS_NAMES: Final[List[str]]

class _ToNumpy(Protocol):
    def to_numpy(self) -> Any: ...

# What the functions take as puzzles: strings (a list, a NumPy string or object array, a pandas Series: anything
# with ``to_numpy()``; a pyarrow Array or ChunkedArray of text, read in place), or integer cells shaped (n, 81) or
# (n, 9, 9) (any byte order, or a memoryview of them).
_Puzzles = Union[
    Sequence[str],
    Sequence[bytes],
    Sequence[Optional[str]],
    npt.NDArray[np.str_],
    npt.NDArray[np.bytes_],
    npt.NDArray[np.object_],
    npt.NDArray[np.integer],
    memoryview,
    _ToNumpy,
]
# What score() takes as weights: the CLI's ``--weights`` (a name or a file's path) or 81 integers.
_Weights = Union[
    Literal["target"],
    str,
    "os.PathLike[str]",
    Sequence[int],
    npt.NDArray[np.integer],
]

def solve(
    puzzles: _Puzzles,
    count_limit: int = 1,
    threads: Optional[int] = None,
    solver: Literal["mrv", "dlx"] = "mrv",
) -> SolveResult: ...
def score(
    puzzles: _Puzzles,
    weights: _Weights = "target",
    node_limit: Optional[int] = None,
    threads: Optional[int] = None,
    count: bool = False,
) -> ScoreResult: ...
def rate(
    puzzles: _Puzzles,
    limit: Optional[int] = None,
    invariant: int = 0,
    seed: int = 0,
    threads: Optional[int] = None,
    path: bool = False,
    max_er: Optional[float] = None,
    min_ed: Optional[float] = None,
    min_ep: Optional[float] = None,
) -> RateResult: ...
def canon(puzzles: _Puzzles, threads: Optional[int] = None) -> CanonResult: ...
def read(
    path: Union[str, "os.PathLike[str]"],
    input_format: Literal["auto", "line", "csv", "block", "luogu", "poj"] = "auto",
    column: Optional[str] = None,
) -> ReadResult: ...
def generate(
    count: int,
    seed: int,
    clues: Optional[int] = None,
    min_clues: Optional[int] = None,
    minimal: bool = False,
    symmetry: Literal["none", "central", "quarter", "mirror", "diagonal"] = "none",
    start: int = 1,
    threads: Optional[int] = None,
) -> GenerateResult: ...
def dedupe(puzzles: _Puzzles, exact: bool = False, threads: Optional[int] = None) -> DedupeResult: ...
def overlap(
    train: _Puzzles, test: _Puzzles, threads: Optional[int] = None, by: str = "puzzle"
) -> OverlapResult: ...
# What split() and report() take: puzzles, or the path of a file read as the CLI reads it.
_Data = Union[_Puzzles, str, "os.PathLike[str]"]
_InputFormat = Literal["auto", "line", "csv", "jsonl", "block", "luogu", "poj"]

def split(
    data: _Data,
    ratios: Optional[Sequence[float]] = None,
    names: Optional[Sequence[str]] = None,
    seed: int = 0,
    by: Literal["puzzle", "grid"] = "puzzle",
    stratify: Union[None, str, Sequence[Any], _ToNumpy] = None,
    threads: Optional[int] = None,
    input_format: _InputFormat = "auto",
    column: Optional[str] = None,
) -> SplitResult: ...
def report(
    data: _Data,
    classes: bool = False,
    score: Optional[_Weights] = None,
    rate: bool = False,
    limit: Optional[int] = None,
    threads: Optional[int] = None,
    output: Union[None, str, "os.PathLike[str]"] = None,
    format: Optional[Literal["html", "json", "markdown"]] = None,
    input_format: _InputFormat = "auto",
    column: Optional[str] = None,
) -> Dict[str, Any]: ...
