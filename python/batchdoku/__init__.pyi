from enum import IntEnum
from os import PathLike
from typing import Dict, List, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Puzzles = Union[Sequence[str], npt.NDArray[np.uint8]]
Result = Dict[str, Union[npt.NDArray[np.generic], List[Optional[str]]]]

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

def solve(
    puzzles: Puzzles,
    count_limit: int = 1,
    threads: Optional[int] = None,
    solver: Literal["mrv", "dlx"] = "mrv",
) -> Result: ...
def score(
    puzzles: Puzzles,
    weights: Union[Literal["target"], Sequence[int], npt.NDArray[np.integer]] = "target",
    node_limit: Optional[int] = None,
    threads: Optional[int] = None,
    count: bool = False,
) -> Result: ...
def canon(
    puzzles: Puzzles,
    threads: Optional[int] = None,
) -> Result: ...
def read(
    path: Union[str, "PathLike[str]"],
    input_format: Literal["auto", "line", "csv", "block", "luogu", "poj"] = "auto",
) -> Result: ...
