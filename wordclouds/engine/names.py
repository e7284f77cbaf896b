"""Reading the list of names (and their weights) from the first worksheet of an .xlsx
file."""

import math
import unicodedata
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass

from .errors import InputError
from .xlsx import worksheet_rows

MAX_NAMES = 100_000
MAX_NAME_LENGTH = 100
# Rows read at most, blank ones included: a small file can hold millions of empty rows
# (minutes of reading) while staying far under MAX_UNPACKED_BYTES.
MAX_ROWS = 2 * MAX_NAMES
# A real name list of 100,000 names unpacks to tens of megabytes; more than this is a zip bomb.
MAX_UNPACKED_BYTES = 256 * 1024 * 1024
UNREADABLE = "name_list is not a readable xlsx file"


@dataclass(frozen=True)
class Name:
    """One cleaned name, the 1-based spreadsheet row it came from, its weight (1 unless
    a weight column gives another) and its group ("" without a group column)."""

    text: str
    row: int
    weight: float = 1.0
    group: str = ""


def clean_cell(value) -> str:
    """Turn a cell value into name text: numbers without a needless ``.0``, trimmed,
    inner white space folded to one space, Unicode NFC."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return unicodedata.normalize("NFC", " ".join(str(value).split()))


@contextmanager
def _first_worksheet(path, columns: range):
    """The first worksheet's rows (:func:`worksheet_rows`), the archive's size checked first
    and closed after. Raises :class:`InputError` for a file that is not a readable xlsx (a
    damaged archive or part, another format renamed, a zip bomb)."""
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile, ValueError) as error:
        raise InputError(UNREADABLE) from error
    with archive:
        if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED_BYTES:
            raise InputError(UNREADABLE)
        try:
            yield worksheet_rows(archive, columns)
        except InputError:
            raise
        except Exception as error:  # a damaged part raises many kinds
            raise InputError(UNREADABLE) from error


def read_names(
    path,
    *,
    column: int,
    skip_rows: int,
    weight_column: int | None = None,
    group_column: int | None = None,
) -> list[Name]:
    """Read the names in 0-based ``column`` of the first worksheet after ``skip_rows`` header
    rows; empty cells are skipped.

    Without ``weight_column`` duplicates are kept (each is placed: a repetition). With it,
    each name's weight is that column's number (an empty cell is 1), and equal names are one
    name whose weight is the sum of theirs, at the row of the first.

    Raises :class:`InputError` when the file is not a readable xlsx (corrupt, another format
    renamed, zip bomb), when the column holds no names, when a weight is not a number of at
    least 0 (naming its row), or when the limits (100,000 names of at most 100 characters)
    are exceeded. With ``group_column`` each name's group is that column's cell (cleaned as
    a name); an empty one is an :class:`InputError` naming its row, and equal names are
    merged only within a group.
    """
    names = []
    columns = tuple(c for c in (column, weight_column, group_column) if c is not None)
    with _first_worksheet(path, range(min(columns), max(columns) + 1)) as rows:
        for number, cells in rows:
            if number <= skip_rows:
                continue
            if number > skip_rows + MAX_ROWS:
                raise InputError(f"name_list has more than {MAX_ROWS:,} rows")
            text = clean_cell(cells.get(column))
            if not text:
                continue
            if len(text) > MAX_NAME_LENGTH:
                raise InputError(
                    f"name_list row {number} has a name longer than {MAX_NAME_LENGTH} characters"
                )
            if len(names) == MAX_NAMES:
                raise InputError(f"name_list has more than {MAX_NAMES:,} names")
            weight = 1.0 if weight_column is None else _weight(cells.get(weight_column), number)
            names.append(Name(text, number, weight, _group(cells, group_column, number)))
    if not names:
        raise InputError(f"name_list has no names in column {column}")
    return names if weight_column is None else _merged(names)


def _weight(value, row: int) -> float:
    """A weight cell as a number: empty is 1; a number (or text that reads as one) of at
    least 0; anything else an :class:`InputError` naming the row."""
    if value is None or isinstance(value, str) and not value.strip():
        return 1.0
    try:
        weight = None if isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        weight = None
    if weight is None or not math.isfinite(weight) or weight < 0:
        shown = clean_cell(value)[:20]
        raise InputError(
            f'name_list row {row} has a weight that is not a number of at least 0: "{shown}"'
        )
    return weight


def _group(cells, column: int | None, row: int) -> str:
    """A name's group: the cell of ``column`` cleaned, "" without a group column."""
    if column is None:
        return ""
    group = clean_cell(cells.get(column))[:MAX_NAME_LENGTH]
    if not group:
        raise InputError(f"name_list row {row} has no group in column {column}")
    return group


def _merged(names: list[Name]) -> list[Name]:
    """Equal names of one group as one, weights added, at the first one's row (in first-row
    order)."""
    totals = {}
    for name in names:
        key = (name.text, name.group)
        found = totals.get(key)
        totals[key] = (
            name
            if found is None
            else Name(found.text, found.row, found.weight + name.weight, found.group)
        )
    return list(totals.values())


def first_rows(path, *, rows: int, columns: int) -> list[list[str]]:
    """The first ``rows`` rows of the first worksheet, at most ``columns`` cells wide (empty
    columns at the right left out), each cell cleaned as a name is and cut to MAX_NAME_LENGTH
    characters: what a person looks at to choose DATA_COL_INDEX and SKIP_ROWS. Raises :class:`InputError` when the file is not a readable
    xlsx."""
    table = []
    with _first_worksheet(path, range(columns)) as sheet:
        for number, cells in sheet:
            if number > rows:  # the rows up to ``rows`` that the sheet goes past are shown empty
                table.extend([] for _ in range(rows - len(table)))
                break
            table.extend([] for _ in range(number - 1 - len(table)))
            table.append(
                [clean_cell(cells.get(index))[:MAX_NAME_LENGTH] for index in range(columns)]
            )
    width = max((index + 1 for row in table for index, text in enumerate(row) if text), default=0)
    return [(row + [""] * width)[:width] for row in table]
