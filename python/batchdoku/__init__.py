"""batchdoku: bulk 9x9 Sudoku solving, counting and scoring on NumPy arrays.

The same engine as the ``batchdoku`` command-line tool (a Rust library), called in-process with the GIL released.
Puzzles are either a list of 81-character strings (digits, blanks as ``.`` or ``0``; text after the 81 cells is
ignored) or a NumPy ``uint8`` array of shape ``(n, 81)`` with 0 for blanks.

Results come back as a dict of NumPy arrays, one entry per puzzle, in input order. A malformed or contradictory
puzzle never raises: its ``status`` is ``Status.INVALID`` and ``error[i]`` says why (``error[i]`` is ``None``
for every other puzzle). A wrong shape, dtype or argument raises ``ValueError``.

>>> import batchdoku
>>> r = batchdoku.solve(["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"], count_limit=2)
>>> batchdoku.Status(r["status"][0]).name, int(r["solutions"][0])
('UNIQUE', 1)
"""

import os
from enum import IntEnum

from . import _batchdoku

__all__ = ["Status", "solve", "score", "canon", "read", "__version__"]
__version__ = _batchdoku.__version__


class Status(IntEnum):
    """Codes of the ``status`` array (the CLI's ``status`` column)."""

    SOLVED = 0
    """A solution was found (count_limit=1), the scored search completed, or (``canon``) the canonical form was
    computed."""
    UNIQUE = 1
    """Exactly one solution (count_limit >= 2)."""
    MULTIPLE = 2
    """At least two solutions (count_limit >= 2)."""
    UNSOLVABLE = 3
    """Consistent givens, no solution."""
    INVALID = 4
    """Malformed puzzle or contradictory givens; see ``error``."""
    LIMIT = 5
    """``score`` stopped at ``node_limit``: the score is the best found so far, not proven."""
    OK = 6
    """Processed without solving (canonical forms)."""
    DUPLICATE = 7
    """A copy of an earlier puzzle (the CLI's ``dedupe``)."""
    LEAK = 8
    """A test puzzle equivalent to a training one (the CLI's ``overlap``)."""


assert [s.name.lower() for s in Status] == list(_batchdoku.STATUS_NAMES)


def solve(puzzles, count_limit=1, threads=None, solver="mrv"):
    """Solve every puzzle, or count its solutions up to ``count_limit`` (2 = uniqueness check).

    Returns a dict with ``status`` (uint8, see :class:`Status`), ``solutions`` (uint64, at most
    ``count_limit``), ``solution`` (uint8, shape (n, 81), zeros when none), ``guesses`` (uint64, branch points of
    the search) and ``error`` (a list: ``None`` or a message). ``threads`` defaults to all cores; ``solver`` is
    ``"mrv"`` (bitmask) or ``"dlx"`` (dancing links).
    """
    return _batchdoku.solve(puzzles, count_limit, threads, solver)


def score(puzzles, weights="target", node_limit=None, threads=None, count=False):
    """Best ``sum(weight * digit)`` over all solutions of every puzzle (branch-and-bound).

    ``weights`` is ``"target"`` (NOIP 2009: 6 on the outer ring up to 10 in the centre) or 81 integers (negative
    allowed). Returns ``status``, ``score`` (int64, -1 when there is no solution or none was found before the
    limit), ``solution`` (uint8, (n, 81)), ``nodes`` (uint64), ``error``, and with ``count=True`` also
    ``solutions`` (full enumeration, no pruning: slower). ``node_limit`` stops a puzzle's search early with status
    ``Status.LIMIT``.
    """
    return _batchdoku.score(puzzles, weights, node_limit, threads, count)


def canon(puzzles, threads=None):
    """Exact canonical ("minlex") form of every puzzle, to find equivalent copies (deduplication, leak checks).

    Two puzzles are equivalent when one becomes the other by permuting the bands, the rows inside a band, the
    stacks, the columns inside a stack, transposing, and relabelling the digits. The canonical form is the
    lexicographically smallest 81-digit string (blanks as 0, so blanks sort first) over all of them: equivalent
    puzzles have equal canonical forms, and only they do. Exact for every puzzle (several solutions, none,
    complete grids), computed by the library's pruned search, never a heuristic.

    Returns ``status`` (uint8: ``Status.OK`` when canonicalised (as the CLI's ``canon``), ``Status.INVALID`` for a malformed puzzle or
    contradictory givens, as in :func:`solve`), ``canonical`` (uint8, (n, 81), zeros when invalid), ``transform``
    and ``error`` (lists: ``None`` or a string per puzzle). ``transform[i]`` maps puzzle ``i`` to its canonical
    form, in the library's text form (``batchdoku::canon::Transform``): ``"T;rows=...;cols=...;digits=..."``,
    where the first field is ``T`` (transpose first) or ``N``, ``rows``/``cols`` give the source row/column (of
    the possibly transposed grid) of output row/column 0..8, and ``digits`` the new label of digits 1..9; so
    ``canonical[r][c]`` is the new label of ``src[rows[r]][cols[c]]``, and blanks stay blank.
    """
    return _batchdoku.canon(puzzles, threads)


def read(path, input_format="auto"):
    """Read a puzzle file in any format the CLI reads (line, csv, block, luogu, poj; .gz/.zst too).

    Returns ``puzzles`` (uint8, (n, 81), zeros for malformed records), ``line`` (uint64, where each record
    starts), ``valid`` (bool), ``error`` (list of ``None`` or message) and, for CSV files with a solution
    column, ``expected`` (uint8, (n, 81)). Raises ``OSError`` when the file cannot be read.
    """
    return _batchdoku.read(os.fspath(path), input_format)
