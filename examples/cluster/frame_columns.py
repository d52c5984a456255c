"""Column rules shared by the DataFrame recipes (dask_solve.py, spark_frames.py), run on the driver before any job.

* **The puzzle column is found as the CLI finds it**: `--column NAME` when given (case-insensitive), else the first
  column named quizzes, quiz, puzzle, puzzles or question (case-insensitive), else the column holding the most
  puzzles (81 cells with blanks; then the most grids; then the leftmost) in the first rows. When none is found the
  error names the columns the input has, before any cluster job starts.
* **Input columns are never replaced**: the output keeps every input column with its values, and our columns keep
  their names (`status`, `solutions`, `solution`, ...), as `batchdoku solve --keep-columns` does: an input column
  whose name is one of ours (ignoring case, as Spark does) is renamed `input_NAME` (`input_input_NAME` should
  that be taken too).
"""

PUZZLE_NAMES = ("quizzes", "quiz", "puzzle", "puzzles", "question")
SAMPLE_ROWS = 64
CELLS = 81
DIGITS = frozenset("0123456789")
BLANKS = frozenset(".-_*")
SEPARATORS = frozenset(" \t,;#|\r")


class ColumnError(ValueError):
    """The input has no column the recipe can use; the message names the columns it has."""


def grid_kind(value):
    """'puzzle' (a grid with blanks), 'complete' (a grid without) or None, as the CLI's line parser reads a field:
    81 cell characters (digits, 0 or . - _ * for a blank), then nothing or a separator."""
    if value is None:
        return None
    text = str(value).strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    head = text[:CELLS]
    if len(head) < CELLS or (len(text) > CELLS and text[CELLS] not in SEPARATORS):
        return None
    if not all(c in DIGITS or c in BLANKS for c in head):
        return None
    return "complete" if all(c in DIGITS and c != "0" for c in head) else "puzzle"


def listed(names):
    return ", ".join(names) if names else "(none)"


def puzzle_column(names, sample, wanted=None):
    """The input column holding the puzzles. `names`: the input's column names; `sample`: a function returning its
    first rows (dicts by column name), called only when no name decides; `wanted`: the user's `--column`."""
    names = list(names)
    if wanted is not None:
        for n in names:
            if n.lower() == wanted.lower():
                return n
        raise ColumnError(f"no column named {wanted!r}; the input's columns are: {listed(names)}")
    for known in PUZZLE_NAMES:
        for n in names:
            if n.lower() == known:
                return n
    rows = sample()
    best, best_key = None, None
    for i, n in enumerate(names):
        kinds = [grid_kind(r.get(n)) for r in rows]
        grids = sum(k is not None for k in kinds)
        puzzles = sum(k == "puzzle" for k in kinds)
        key = (puzzles, grids, -i)
        if grids > 0 and (best_key is None or key > best_key):
            best, best_key = n, key
    if best is None:
        raise ColumnError(f"no puzzle column: the input's columns are {listed(names)}; none is named "
                          f"{', '.join(PUZZLE_NAMES)} (case-insensitive) and none holds an 81-cell grid in its "
                          f"first {len(rows)} rows; name it with --column")
    return best


def renamed_inputs(names, ours):
    """{input name: new name} for the input columns whose names are among `ours` (ignoring case): `input_NAME`,
    prefixed again until it is free."""
    taken = {n.lower() for n in names} | {o.lower() for o in ours}
    mine = {o.lower() for o in ours}
    renames = {}
    for n in names:
        if n.lower() in mine:
            new = f"input_{n}"
            while new.lower() in taken:
                new = f"input_{new}"
            taken.add(new.lower())
            renames[n] = new
    return renames
