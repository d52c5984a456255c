"""batchdoku: bulk 9x9 Sudoku solving, counting and scoring on NumPy arrays.

The same engine as the ``batchdoku`` command-line tool (a Rust library), called in-process with the GIL released.
Puzzles are what a data person holds: a list of 81-character strings (digits, blanks as ``.`` or ``0``; text after
the 81 cells is ignored), a NumPy string array (``<U81``, ``S81``) or object array, a pandas Series (``df[col]``),
a pyarrow ``Array`` or ``ChunkedArray`` of text (read in place; a null is an invalid row), or an integer array of
any integer dtype and byte order shaped ``(n, 81)`` or ``(n, 9, 9)`` with 0 for blanks (or a ``memoryview`` of
one, read as the array it views). Numbers where text belongs (a CSV column read without ``dtype=str``) raise an
error that says so.

Results come back as a dict of NumPy arrays, one entry per puzzle, in input order; :func:`to_pandas` and
:func:`to_arrow` make a DataFrame or an Arrow table of any of them, with the CLI's column names. The corpus tools
:func:`generate`, :func:`dedupe`, :func:`overlap`, :func:`split` and :func:`report` are the CLI's commands (the
last two also read a file, as the CLI does, given its path). A malformed or contradictory
puzzle never raises: its ``status`` is ``Status.INVALID`` and ``error[i]`` says why (``error[i]`` is ``None``
for every other puzzle). A grid that is not there (a malformed record in :func:`read`, no solution, no canonical
form) is a row of :data:`NO_GRID` (255) values, and such a row passed on stays ``INVALID``. An argument of the
wrong type raises ``TypeError``; a wrong shape, a cell value outside 0..9, a count below 1 or ``threads`` above
1024 raises ``ValueError``; a missing file ``FileNotFoundError``. Ctrl-C during a long call raises
``KeyboardInterrupt`` within about a second. Row numbers in messages count from 0 (``row 3 (0-based)``, as Python indexes); file lines count
from 1 (``path:5``), as the CLI's.

>>> import batchdoku
>>> r = batchdoku.solve(["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"], count_limit=2)
>>> batchdoku.Status(r["status"][0]).name, int(r["solutions"][0])
('UNIQUE', 1)
>>> batchdoku.to_strings(r["solution"])[0][:9]
b'417369825'
"""

# dir(batchdoku) is the API (__all__) and private names: NumPy is `_np` at run time, and what only the class and
# function definitions below need (IntEnum, TypedDict and the typing names) is deleted at the end of the module.
# `np`, `npt`, `pandas` and `pyarrow` exist for the type checker only (the string annotations).
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, TypedDict

import numpy as _np

# The native module (python/src/lib.rs): the functions and constants, re-exported as they are. Their types are in
# _batchdoku.pyi, their docstrings are its Rust doc comments (help(batchdoku.solve) shows them).
from . import _batchdoku
from ._batchdoku import (
    NO_GRID,
    STATUS_NAMES,
    __version__,
    canon,
    dedupe,
    generate,
    overlap,
    rate,
    read,
    report,
    score,
    solve,
    split,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import numpy.typing as npt
    import pandas
    import pyarrow

__all__ = [
    "Status",
    "NO_GRID",
    "STATUS_NAMES",
    "SolveResult",
    "ScoreResult",
    "RateResult",
    "PathStep",
    "CanonResult",
    "ReadResult",
    "GenerateResult",
    "DedupeResult",
    "OverlapResult",
    "SplitResult",
    "solve",
    "score",
    "rate",
    "canon",
    "read",
    "generate",
    "dedupe",
    "overlap",
    "split",
    "report",
    "to_strings",
    "to_pandas",
    "to_arrow",
    "path_steps",
    "__version__",
]


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
    """Consistent givens, no solution (:func:`solve`, :func:`score`, whose ``score`` is then -1, as the CLI's)."""
    INVALID = 4
    """A malformed puzzle, a :data:`NO_GRID` row or contradictory givens (every function); see ``error``."""
    LIMIT = 5
    """:func:`score` stopped at ``node_limit``: ``score`` is the best found so far, not proven, or masked
    (missing) when none was found; a count (``count=True``) is masked too, since it was cut short."""
    OK = 6
    """:func:`canon`: the canonical form was computed (as the CLI's ``canon``; also the rows ``dedupe`` keeps)."""
    DUPLICATE = 7
    """A copy of an earlier puzzle (``dedupe``): counted, never written, so no function here returns it."""
    LEAK = 8
    """:func:`overlap`: a test puzzle equivalent to a training one."""
    RATED = 9
    """:func:`rate`: exactly one solution, rated by human techniques (``er``, ``ep``, ``ed`` and the rest are
    set)."""
    ABOVE = 10
    """The CLI's ``rate --max-er X``: ER above X, the rating stopped as soon as that was known (no rating)."""
    BELOW = 11
    """The CLI's ``rate --min-ed X`` or ``--min-ep X``: ED or EP below X, the rating stopped there (no
    rating)."""


assert [s.name.lower() for s in Status] == STATUS_NAMES, "Status differs from the library's statuses"


class SolveResult(TypedDict):
    """What :func:`solve` returns: one entry per puzzle, in input order."""

    status: "npt.NDArray[np.uint8]"
    solutions: "npt.NDArray[np.uint64]"
    solution: "npt.NDArray[np.uint8]"
    guesses: "npt.NDArray[np.uint64]"
    error: List[Optional[str]]


class _Counted(TypedDict, total=False):
    solutions: "np.ma.MaskedArray[Any, np.dtype[np.uint64]]"


class ScoreResult(_Counted):
    """What :func:`score` returns (``solutions`` only with ``count=True``; ``score`` and ``solutions`` are masked
    arrays, masked where the value is missing)."""

    status: "npt.NDArray[np.uint8]"
    score: "np.ma.MaskedArray[Any, np.dtype[np.int64]]"
    solution: "npt.NDArray[np.uint8]"
    nodes: "npt.NDArray[np.uint64]"
    error: List[Optional[str]]


class _Means(TypedDict, total=False):
    mean_guesses: "npt.NDArray[np.float64]"
    mean_backtracks: "npt.NDArray[np.float64]"


class PathStep(TypedDict):
    """One step of a solution path (:func:`rate` with ``path=True``): the technique (the names ``techniques``
    uses), its rating (one decimal), the digit it places and the candidates it removes in the players' notation
    (``"r4c6=7"``, ``"r5c4<>3"``; rows and columns from 1, cell order then digit order) and a sentence naming
    the cells and units of its pattern."""

    technique: str
    rating: float
    placements: List[str]
    eliminations: List[str]
    text: str


class _Path(TypedDict, total=False):
    path: List[Optional[List[PathStep]]]


class RateResult(_Means, _Path):
    """What :func:`rate` returns (``mean_guesses`` and ``mean_backtracks`` only with ``invariant`` > 0, ``path``
    only with ``path=True``: for each puzzle its steps, or ``None`` when it is not rated)."""

    status: "npt.NDArray[np.uint8]"
    er: "npt.NDArray[np.float64]"
    ep: "npt.NDArray[np.float64]"
    ed: "npt.NDArray[np.float64]"
    hardest: List[Optional[str]]
    steps: "np.ma.MaskedArray[Any, np.dtype[np.int64]]"
    techniques: List[Optional[str]]
    error: List[Optional[str]]


class CanonResult(TypedDict):
    """What :func:`canon` returns."""

    status: "npt.NDArray[np.uint8]"
    canonical: "npt.NDArray[np.uint8]"
    transform: List[Optional[str]]
    error: List[Optional[str]]


class _Expected(TypedDict, total=False):
    expected_solution: "npt.NDArray[np.uint8]"


class ReadResult(_Expected):
    """What :func:`read` returns (``expected_solution`` only for CSV files with a solution column: its grids)."""

    puzzles: "npt.NDArray[np.uint8]"
    line: "npt.NDArray[np.uint64]"
    valid: "npt.NDArray[np.bool_]"
    error: List[Optional[str]]


class GenerateResult(TypedDict):
    """What :func:`generate` returns: one entry per puzzle, in index order."""

    index: "npt.NDArray[np.uint64]"
    givens: "npt.NDArray[np.uint8]"
    puzzle: "npt.NDArray[np.uint8]"
    solution: "npt.NDArray[np.uint8]"


class _Canonical(TypedDict, total=False):
    canonical: "npt.NDArray[np.uint8]"


class DedupeResult(_Canonical):
    """What :func:`dedupe` returns: one entry per kept row (the CLI's ``dedupe`` rows), in input order
    (``canonical`` not with ``exact=True``, as the CLI's ``dedupe --exact``)."""

    row: "npt.NDArray[np.uint64]"
    puzzle: "npt.NDArray[np.uint8]"
    status: "npt.NDArray[np.uint8]"
    dropped: "np.ma.MaskedArray[Any, np.dtype[np.int64]]"
    error: List[Optional[str]]


class OverlapResult(TypedDict):
    """What :func:`overlap` returns: one entry per leaking test puzzle and per invalid puzzle of either input (the
    CLI's ``overlap`` rows), training rows first."""

    split: List[str]
    row: "npt.NDArray[np.uint64]"
    puzzle: "npt.NDArray[np.uint8]"
    status: "npt.NDArray[np.uint8]"
    train_row: "np.ma.MaskedArray[Any, np.dtype[np.int64]]"
    canonical: "npt.NDArray[np.uint8]"
    error: List[Optional[str]]


class SplitResult(TypedDict):
    """What :func:`split` returns: one entry per record, in input order (the CLI's ``split`` rows' ``split``,
    ``status`` and ``error``)."""

    split: List[Optional[str]]
    status: "npt.NDArray[np.uint8]"
    error: List[Optional[str]]


def to_strings(cells: Any) -> "npt.NDArray[np.bytes_]":
    """The 81-digit strings of a ``(n, 81)`` (or ``(n, 9, 9)``) digit array, as a NumPy ``S81`` array.

    Blanks become ``0``, as in the CLI's output; a :data:`NO_GRID` row becomes ``b""``. One vectorised pass
    (hundreds of times faster than ``"".join(map(str, row))`` per row); ``.astype(str)`` gives ``str`` values
    for a pandas text column (still about 40x faster than the join).
    """
    digits = _np.asarray(cells)
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
        raise ValueError(f"to_strings: row {int(_np.argmax(bad))} (0-based) has a value outside 0..9")
    text = digits.astype(_np.uint8)  # a copy, even of a uint8 array
    text += ord("0")
    if missing.any():
        text[missing] = 0
    return text.view("S81").reshape(len(text))


# The columns of to_pandas/to_arrow, in the CLI's order (`batchdoku solve --help` and docs/solve.md's "Columns
# of solve"): a result's keys under the CLI's names (read()'s ``puzzles`` is the CLI's ``puzzle``); keys no command
# writes keep their names, in this order, and any other key comes last.
_ORDER = [
    "split", "row", "index", "line", "givens", "puzzle", "status", "er", "ep", "ed", "hardest", "steps",
    "techniques", "solutions", "score", "solution", "guesses", "nodes", "train_row", "canonical", "transform",
    "dropped", "valid", "expected_solution", "error", "mean_guesses", "mean_backtracks", "path",
]
_RENAMED = {"puzzles": "puzzle"}


def _columns(result: Mapping[str, Any]) -> Dict[str, Any]:
    """The result's entries under their CLI names, in the CLI's order."""
    named = {_RENAMED.get(key, key): value for key, value in result.items()}
    rank = {name: i for i, name in enumerate(_ORDER)}
    lengths = {name: len(value) for name, value in named.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"not one result: its entries have different lengths {lengths}")
    return dict(sorted(named.items(), key=lambda item: rank.get(item[0], len(_ORDER))))


def _is_grid(value: Any) -> bool:
    return isinstance(value, _np.ndarray) and value.ndim == 2 and value.shape[1] == 81


def _grid_text(name: str, cells: Any) -> "npt.NDArray[np.bytes_]":
    """The CLI's text of a grid column: :func:`to_strings`, with ``.`` for blanks in ``puzzle`` (as the CLI writes
    puzzles; solutions and canonical forms keep ``0``)."""
    text = to_strings(cells)
    if name == "puzzle":
        chars = text.view(_np.uint8)
        chars[chars == ord("0")] = ord(".")
    return text


_INT64_MAX = _np.iinfo(_np.int64).max


def _int64(values: "npt.NDArray[Any]", mask: "Optional[npt.NDArray[np.bool_]]" = None) -> "npt.NDArray[Any]":
    """An integer column as the CLI's Parquet types it: int64 (the result dicts hold counts and positions as
    uint64). Masked entries become 0 (their values mean nothing); a value beyond int64 (only :func:`generate`'s
    ``index`` with a ``start`` past 2**63-1, which no CLI output holds) keeps the column unsigned rather than
    wrap. Anything but integers is returned as it is."""
    if values.dtype.kind not in "iu" or values.dtype == _np.int64:
        return values
    if mask is not None and mask.any():
        values = _np.where(mask, 0, values)
    if values.dtype.kind == "u" and values.dtype.itemsize == 8 and len(values) and values.max() > _INT64_MAX:
        return values
    return values.astype(_np.int64)


def _need(module: str, function: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"batchdoku.{function} needs {module}: pip install {module}") from e


def to_arrow(result: Mapping[str, Any]) -> "pyarrow.Table":
    """Any result of this package (:func:`solve`, :func:`score`, :func:`rate`, :func:`canon`, :func:`read`,
    :func:`generate`, :func:`dedupe`, :func:`overlap`, :func:`split`) as a ``pyarrow.Table``, in one vectorised
    call.

    Columns are named and ordered as the CLI's CSV columns (``puzzles`` becomes ``puzzle``); ``status`` is a
    dictionary (categorical) column of the CLI's status names (``solved``, ``unique``, ... ``leak``); each
    ``(n, 81)`` grid becomes an 81-character string as the CLI writes it (blanks ``.`` in ``puzzle``, ``0`` in
    the others), null where there is no grid (a
    :data:`NO_GRID` row); ``error``, ``transform``, ``split``, ``hardest`` and ``techniques`` are strings (null
    for ``None``); every integer column is ``int64``, as in the CLI's Parquet (the result's unsigned counts and
    positions included), floats are ``double``, and a missing number is null where the CLI leaves the field empty
    (a masked entry of ``score``, ``solutions``, ``steps``, ``dropped`` or ``train_row``; a NaN of ``er``, ``ep``,
    ``ed`` or the means), as in the CLI's Parquet output. Needs ``pyarrow``."""
    pa = _need("pyarrow", "to_arrow")
    arrays = {}
    for name, value in _columns(result).items():
        if name == "status":
            codes = _np.asarray(value, dtype=_np.int8)
            arrays[name] = pa.DictionaryArray.from_arrays(codes, pa.array(_batchdoku.STATUS_NAMES, pa.string()))
        elif _is_grid(value):
            text = _grid_text(name, value)  # one buffer of n * 81 characters (zeros where there is no grid)
            n = len(text)
            valid = text != b""
            offsets = _np.arange(0, 81 * n + 1, 81, dtype=_np.int32)
            bitmap = None if valid.all() else pa.array(valid).buffers()[1]
            arrays[name] = pa.StringArray.from_buffers(
                n, pa.py_buffer(offsets), pa.py_buffer(text), bitmap, int(n - valid.sum())
            )
        elif isinstance(value, _np.ma.MaskedArray):
            # Missing (masked) is null, as in the CLI's Parquet.
            mask = _np.ma.getmaskarray(value)
            arrays[name] = pa.array(_int64(_np.ma.getdata(value), mask), mask=mask)
        elif isinstance(value, _np.ndarray):
            # A float's NaN is a missing value (no rating, no mean): null.
            arrays[name] = pa.array(_int64(value), from_pandas=value.dtype.kind == "f")
        elif name == "path":
            arrays[name] = pa.array(list(value), _path_type(pa))
        else:
            arrays[name] = pa.array(list(value), pa.string())
    return pa.table(arrays)


def to_pandas(result: Mapping[str, Any]) -> "pandas.DataFrame":
    """Any result of this package as a ``pandas.DataFrame``, in one vectorised call (no pyarrow needed).

    The columns of :func:`to_arrow`: named and ordered as the CLI's CSV columns; ``status`` a categorical of the
    CLI's status names (every status as a category, so frames concatenate); each ``(n, 81)`` grid an 81-character
    string, missing (``NaN``/``None``) where there is no grid, as ``pd.read_csv`` reads the CLI's empty field;
    ``error``, ``transform`` and ``split`` strings or missing; every integer column is ``int64``, the type
    ``pd.read_parquet`` gives the CLI's Parquet columns (``solutions``, ``guesses``, ``nodes``, ``line``,
    ``row``, ``index``, ``givens``; only a :func:`generate` ``index`` past 2**63-1, which no CLI output holds,
    stays ``uint64`` rather than wrap), and a column that can lack a number is a nullable one
    with ``<NA>`` where the CLI leaves the field empty: ``Int64`` for a masked array (``score``, ``solutions``
    of :func:`score`, ``steps``, ``dropped``, ``train_row``; what ``pd.read_parquet(...,
    dtype_backend="numpy_nullable")`` gives the CLI's nullable columns), ``Float64`` for the float columns
    (``er``, ``ep``, ``ed``, the means), never a made-up ``-1`` or ``0``. The frame's index is the row's
    position in the result. Needs ``pandas``."""
    pd = _need("pandas", "to_pandas")
    columns: Dict[str, Any] = {}
    for name, value in _columns(result).items():
        if name == "status":
            columns[name] = pd.Categorical.from_codes(_np.asarray(value, dtype=_np.int8), _batchdoku.STATUS_NAMES)
        elif _is_grid(value):
            text = _grid_text(name, value)
            strings = text.astype("U81").astype(object)  # one str per row
            strings[text == b""] = None
            columns[name] = pd.Series(strings, dtype=_text_dtype(pd))
        elif isinstance(value, _np.ma.MaskedArray):
            # Missing (masked) is <NA> in a nullable integer column (Int64).
            mask = _np.ma.getmaskarray(value).copy()
            columns[name] = pd.arrays.IntegerArray(_int64(_np.ma.getdata(value), mask), mask)
        elif isinstance(value, _np.ndarray) and value.dtype.kind == "f":
            # A float's NaN is a missing value (no rating, no mean): <NA> in a Float64 column.
            columns[name] = pd.array(value, dtype="Float64")
        elif isinstance(value, _np.ndarray):
            columns[name] = _int64(value)
        elif name == "path":
            # Each cell a list of step dicts, or None when not rated (path_steps makes a row per step).
            columns[name] = pd.Series(list(value), dtype=object)
        else:
            columns[name] = pd.Series(list(value), dtype=_text_dtype(pd))
    frame: "pandas.DataFrame" = pd.DataFrame(columns)
    return frame


def _path_type(pa: Any) -> Any:
    """The Arrow type of a path as pyarrow reads the CLI's Parquet ``path``: a list of step structs, every field
    required but the list itself (null when not rated)."""
    moves = pa.list_(pa.field("element", pa.string(), nullable=False))
    step = pa.struct(
        [
            pa.field("technique", pa.string(), nullable=False),
            pa.field("rating", pa.float64(), nullable=False),
            pa.field("placements", moves, nullable=False),
            pa.field("eliminations", moves, nullable=False),
            pa.field("text", pa.string(), nullable=False),
        ]
    )
    return pa.list_(pa.field("element", step, nullable=False))


def path_steps(result: Mapping[str, Any]) -> "pandas.DataFrame":
    """The solution paths of a :func:`rate` result made with ``path=True`` as one ``pandas.DataFrame`` row per
    step, puzzles in order, each path in order: ``index`` (the puzzle's position in the result, from 0: the row
    of :func:`to_pandas`'s frame), ``step`` (the step's position in its path, from 0: step 0's rating is
    ``ed``), ``technique``, ``rating`` (float64), ``placements`` and ``eliminations`` (lists of strings such as
    ``"r4c6=7"`` and ``"r5c4<>3"``) and ``text``. A puzzle that is not rated has no row. Needs ``pandas``."""
    pd = _need("pandas", "path_steps")
    if "path" not in result:
        raise ValueError("path_steps: the result has no path (call rate(..., path=True))")
    index: List[int] = []
    step: List[int] = []
    technique: List[str] = []
    rating: List[float] = []
    placements: List[List[str]] = []
    eliminations: List[List[str]] = []
    text: List[str] = []
    for i, path in enumerate(result["path"]):
        for k, s in enumerate(path or ()):
            index.append(i)
            step.append(k)
            technique.append(s["technique"])
            rating.append(s["rating"])
            placements.append(s["placements"])
            eliminations.append(s["eliminations"])
            text.append(s["text"])
    frame: "pandas.DataFrame" = pd.DataFrame(
        {
            "index": _np.asarray(index, dtype=_np.int64),
            "step": _np.asarray(step, dtype=_np.int64),
            "technique": pd.Series(technique, dtype=_text_dtype(pd)),
            "rating": _np.asarray(rating, dtype=_np.float64),
            "placements": pd.Series(placements, dtype=object),
            "eliminations": pd.Series(eliminations, dtype=object),
            "text": pd.Series(text, dtype=_text_dtype(pd)),
        }
    )
    return frame


def _text_dtype(pd: Any) -> Any:
    """pandas' text dtype: ``str`` from pandas 3, ``object`` before."""
    return "str" if int(pd.__version__.split(".")[0]) >= 3 else object


# Only the API and private names stay in the module (dir(batchdoku)): these were needed to define it.
del IntEnum, TYPE_CHECKING, Any, Dict, List, Mapping, Optional, TypedDict
