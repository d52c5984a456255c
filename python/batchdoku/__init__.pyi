import os
from enum import IntEnum
from typing import Any, List, Literal, Optional, Protocol, Sequence, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str
NO_GRID: int

# What the functions take as puzzles: strings (a list, a NumPy string or object array, a pandas Series:
# anything with ``to_numpy()``), or integer cells shaped (n, 81) or (n, 9, 9).
class _ToNumpy(Protocol):
    def to_numpy(self) -> Any: ...

Puzzles = Union[
    Sequence[str],
    Sequence[bytes],
    Sequence[Optional[str]],
    npt.NDArray[np.str_],
    npt.NDArray[np.bytes_],
    npt.NDArray[np.object_],
    npt.NDArray[np.integer],
    _ToNumpy,
]
Weights = Union[
    Literal["target"],
    str,
    "os.PathLike[str]",
    Sequence[int],
    npt.NDArray[np.integer],
]

class Status(IntEnum):
    SOLVED = 0
    UNIQUE = 1
    MULTIPLE = 2
    UNSOLVABLE = 3
    INVALID = 4
    LIMIT = 5
    OK = 6
    DUPLICATE = 7
    LEAK = 8

class SolveResult(TypedDict):
    status: npt.NDArray[np.uint8]
    solutions: npt.NDArray[np.uint64]
    solution: npt.NDArray[np.uint8]
    guesses: npt.NDArray[np.uint64]
    error: List[Optional[str]]

class _Counted(TypedDict, total=False):
    solutions: npt.NDArray[np.uint64]

class ScoreResult(_Counted):
    status: npt.NDArray[np.uint8]
    score: npt.NDArray[np.int64]
    solution: npt.NDArray[np.uint8]
    nodes: npt.NDArray[np.uint64]
    error: List[Optional[str]]

class CanonResult(TypedDict):
    status: npt.NDArray[np.uint8]
    canonical: npt.NDArray[np.uint8]
    transform: List[Optional[str]]
    error: List[Optional[str]]

class _Expected(TypedDict, total=False):
    expected: npt.NDArray[np.uint8]

class ReadResult(_Expected):
    puzzles: npt.NDArray[np.uint8]
    line: npt.NDArray[np.uint64]
    valid: npt.NDArray[np.bool_]
    error: List[Optional[str]]

def solve(
    puzzles: Puzzles,
    count_limit: int = 1,
    threads: Optional[int] = None,
    solver: Literal["mrv", "dlx"] = "mrv",
) -> SolveResult: ...
def score(
    puzzles: Puzzles,
    weights: Weights = "target",
    node_limit: Optional[int] = None,
    threads: Optional[int] = None,
    count: bool = False,
) -> ScoreResult: ...
def canon(
    puzzles: Puzzles,
    threads: Optional[int] = None,
) -> CanonResult: ...
def read(
    path: Union[str, "os.PathLike[str]"],
    input_format: Literal["auto", "line", "csv", "block", "luogu", "poj"] = "auto",
    column: Optional[str] = None,
) -> ReadResult: ...
def to_strings(cells: npt.NDArray[np.integer]) -> npt.NDArray[np.bytes_]: ...
