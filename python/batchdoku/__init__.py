"""batchdoku: bulk 9x9 Sudoku solving, counting and scoring on NumPy arrays.

The same engine as the ``batchdoku`` command-line tool (a Rust library), called in-process with the GIL released.
Puzzles are what a data person holds: a list of 81-character strings (digits, blanks as ``.`` or ``0``; text after
the 81 cells is ignored), a NumPy string array (``<U81``, ``S81``) or object array, a pandas Series (``df[col]``),
or an integer array of any integer dtype shaped ``(n, 81)`` or ``(n, 9, 9)`` with 0 for blanks.

Results come back as a dict of NumPy arrays, one entry per puzzle, in input order. A malformed or contradictory
puzzle never raises: its ``status`` is ``Status.INVALID`` and ``error[i]`` says why (``error[i]`` is ``None``
for every other puzzle). A grid that is not there (a malformed record in :func:`read`, no solution, no canonical
form) is a row of :data:`NO_GRID` (255) values, and such a row passed on stays ``INVALID``. An argument of the
wrong type raises ``TypeError``; a wrong shape, a cell value outside 0..9 or a count below 1 raises
``ValueError``. Row numbers in messages count from 0 (``row 3 (0-based)``, as Python indexes); file lines count
from 1 (``path:5``), as the CLI's.

>>> import batchdoku
>>> r = batchdoku.solve(["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"], count_limit=2)
>>> batchdoku.Status(r["status"][0]).name, int(r["solutions"][0])
('UNIQUE', 1)
>>> batchdoku.to_strings(r["solution"])[0][:9]
b'417369825'
"""

import os
from enum import IntEnum
from typing import TYPE_CHECKING, Any, List, Optional, TypedDict

import numpy as np

from . import _batchdoku

if TYPE_CHECKING:  # pragma: no cover
    import numpy.typing as npt

__all__ = [
    "Status",
    "NO_GRID",
    "SolveResult",
    "ScoreResult",
    "CanonResult",
    "ReadResult",
    "solve",
    "score",
    "canon",
    "read",
    "to_strings",
    "__version__",
]
__version__ = _batchdoku.__version__

NO_GRID: int = _batchdoku.NO_GRID
"""The cell value (255) filling a row that holds no grid; functions take such a row as an invalid puzzle."""


class Status(IntEnum):
    """Codes of the ``status`` array: the library's statuses (the CLI's ``status`` column), in its order. Each
    member says which function returns it."""

    SOLVED = 0
    """A solution was found: :func:`solve` with ``count_limit=1`` (uniqueness not checked), or :func:`score`'s
    search ran to the end, so ``score`` is the proven best."""
    UNIQUE = 1
    """Exactly one solution: :func:`solve` with ``count_limit >= 2``."""
    MULTIPLE = 2
    """At least two solutions: :func:`solve` with ``count_limit >= 2`` (``solutions`` counts up to the limit,
    ``solution`` is the first found)."""
    UNSOLVABLE = 3
    """Consistent givens, no solution (:func:`solve`, :func:`score`, whose ``score`` is then -1)."""
    INVALID = 4
    """A malformed puzzle, a :data:`NO_GRID` row or contradictory givens (every function); see ``error``."""
    LIMIT = 5
    """:func:`score` stopped at ``node_limit``: ``score`` is the best found so far, not proven, or -1 when none
    was found."""
    OK = 6
    """:func:`canon`: the canonical form was computed (as the CLI's ``canon``; also the rows ``dedupe`` keeps)."""
    DUPLICATE = 7
    """The CLI's ``dedupe`` only (a copy of an earlier puzzle, counted, never written): no function here returns
    it."""
    LEAK = 8
    """The CLI's ``overlap`` only (a test puzzle equivalent to a training one): no function here returns it."""


assert [s.name.lower() for s in Status] == list(_batchdoku.STATUS_NAMES)


class SolveResult(TypedDict):
    """What :func:`solve` returns: one entry per puzzle, in input order."""

    status: "npt.NDArray[np.uint8]"
    solutions: "npt.NDArray[np.uint64]"
    solution: "npt.NDArray[np.uint8]"
    guesses: "npt.NDArray[np.uint64]"
    error: List[Optional[str]]


class _Counted(TypedDict, total=False):
    solutions: "npt.NDArray[np.uint64]"


class ScoreResult(_Counted):
    """What :func:`score` returns (``solutions`` only with ``count=True``)."""

    status: "npt.NDArray[np.uint8]"
    score: "npt.NDArray[np.int64]"
    solution: "npt.NDArray[np.uint8]"
    nodes: "npt.NDArray[np.uint64]"
    error: List[Optional[str]]


class CanonResult(TypedDict):
    """What :func:`canon` returns."""

    status: "npt.NDArray[np.uint8]"
    canonical: "npt.NDArray[np.uint8]"
    transform: List[Optional[str]]
    error: List[Optional[str]]


class _Expected(TypedDict, total=False):
    expected: "npt.NDArray[np.uint8]"


class ReadResult(_Expected):
    """What :func:`read` returns (``expected`` only for CSV files with a solution column)."""

    puzzles: "npt.NDArray[np.uint8]"
    line: "npt.NDArray[np.uint64]"
    valid: "npt.NDArray[np.bool_]"
    error: List[Optional[str]]


def solve(puzzles: Any, count_limit: int = 1, threads: Optional[int] = None, solver: str = "mrv") -> SolveResult:
    """Solve every puzzle, or count its solutions up to ``count_limit`` (2 = uniqueness check).

    Returns a dict with ``status`` (uint8, see :class:`Status`), ``solutions`` (uint64, at most
    ``count_limit``), ``solution`` (uint8, shape (n, 81), a :data:`NO_GRID` row when none), ``guesses`` (uint64,
    branch points of the search) and ``error`` (a list: ``None`` or a message). ``threads`` defaults to all cores;
    ``solver`` is ``"mrv"`` (bitmask) or ``"dlx"`` (dancing links).
    """
    return _batchdoku.solve(puzzles, count_limit, threads, solver)  # type: ignore[no-any-return]


def score(
    puzzles: Any,
    weights: Any = "target",
    node_limit: Optional[int] = None,
    threads: Optional[int] = None,
    count: bool = False,
) -> ScoreResult:
    """Best ``sum(weight * digit)`` over all solutions of every puzzle (branch-and-bound).

    ``weights`` is what the CLI's ``--weights`` takes: ``"target"`` (NOIP 2009: 6 on the outer ring up to 10 in
    the centre), or the path of a weights file (81 integers, whitespace or commas), or 81 integers as a ``(9, 9)``
    or ``(81,)`` integer array or a sequence (negative allowed). Returns ``status``, ``score`` (int64, -1 when
    there is no solution or none was found before the limit), ``solution`` (uint8, (n, 81)), ``nodes`` (uint64),
    ``error``, and with ``count=True`` also ``solutions`` (full enumeration, no pruning: slower). ``node_limit``
    stops a puzzle's search early with status ``Status.LIMIT``.
    """
    return _batchdoku.score(puzzles, weights, node_limit, threads, count)  # type: ignore[no-any-return]


def canon(puzzles: Any, threads: Optional[int] = None) -> CanonResult:
    """Exact canonical ("minlex") form of every puzzle, to find equivalent copies (deduplication, leak checks).

    Two puzzles are equivalent when one becomes the other by permuting the bands, the rows inside a band, the
    stacks, the columns inside a stack, transposing, and relabelling the digits. The canonical form is the
    lexicographically smallest 81-digit string (blanks as 0, so blanks sort first) over all of them: equivalent
    puzzles have equal canonical forms, and only they do. Exact for every puzzle (several solutions, none,
    complete grids), computed by the library's pruned search, never a heuristic.

    Returns ``status`` (uint8: ``Status.OK`` when canonicalised (as the CLI's ``canon``), ``Status.INVALID`` for
    a malformed puzzle, a :data:`NO_GRID` row or contradictory givens, as in :func:`solve`), ``canonical``
    (uint8, (n, 81), a :data:`NO_GRID` row when invalid), ``transform`` and ``error`` (lists: ``None`` or a
    string per puzzle). ``transform[i]`` maps puzzle ``i`` to its canonical form, in the library's text form
    (``batchdoku::canon::Transform``): ``"T;rows=...;cols=...;digits=..."``, where the first field is ``T``
    (transpose first) or ``N``, ``rows``/``cols`` give the source row/column (of the possibly transposed grid) of
    output row/column 0..8, and ``digits`` the new label of digits 1..9; so ``canonical[r][c]`` is the new label
    of ``src[rows[r]][cols[c]]``, and blanks stay blank.
    """
    return _batchdoku.canon(puzzles, threads)  # type: ignore[no-any-return]


def read(path: Any, input_format: str = "auto", column: Optional[str] = None) -> ReadResult:
    """Read a puzzle file in any format the CLI reads (line, csv, block, luogu, poj; .gz/.zst too).

    ``input_format`` and ``column`` are the CLI's ``--input-format`` and ``--column`` (the puzzle column of a
    CSV file, by its header name, case-insensitive; it implies CSV). Returns ``puzzles`` (uint8, (n, 81), a
    :data:`NO_GRID` row for each malformed record, so it stays invalid when passed on), ``line`` (uint64, the
    1-based line where each record starts), ``valid`` (bool), ``error`` (list of ``None`` or message) and, for
    CSV files with a solution column, ``expected`` (uint8, (n, 81)). Raises ``OSError`` when the file cannot be
    read, ``ValueError`` when the options do not fit it (no such column).
    """
    return _batchdoku.read(os.fspath(path), input_format, column)  # type: ignore[no-any-return]


def to_strings(cells: Any) -> "npt.NDArray[np.bytes_]":
    """The 81-digit strings of a ``(n, 81)`` (or ``(n, 9, 9)``) digit array, as a NumPy ``S81`` array.

    Blanks become ``0``, as in the CLI's output; a :data:`NO_GRID` row becomes ``b""``. One vectorised pass
    (hundreds of times faster than ``"".join(map(str, row))`` per row); ``.astype(str)`` gives ``str`` values
    for a pandas text column (still about 40x faster than the join).
    """
    digits = np.asarray(cells)
    if digits.ndim == 3 and digits.shape[1:] == (9, 9):
        digits = digits.reshape(len(digits), 81)
    if digits.ndim != 2 or digits.shape[1] != 81:
        raise ValueError(f"to_strings: expected shape (n, 81) or (n, 9, 9), got {digits.shape}")
    if digits.dtype.kind not in "iu":
        raise TypeError(f"to_strings: expected an integer array, got dtype {digits.dtype}")
    # Two row reductions, then one copy: the checks cost less than the conversion.
    low, high = digits.min(axis=1), digits.max(axis=1)
    missing = (low == NO_GRID) & (high == NO_GRID)
    bad = ((low < 0) | (high > 9)) & ~missing
    if bad.any():
        raise ValueError(f"to_strings: row {int(np.argmax(bad))} (0-based) has a value outside 0..9")
    text = digits.astype(np.uint8)  # a copy, even of a uint8 array
    text += ord("0")
    if missing.any():
        text[missing] = 0
    return text.view("S81").reshape(len(text))
