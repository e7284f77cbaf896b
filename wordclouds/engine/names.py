"""Reading the list of names from the first worksheet of an .xlsx file."""

import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

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
    """One cleaned name and the 1-based spreadsheet row it came from."""

    text: str
    row: int


def clean_cell(value) -> str:
    """Turn a cell value into name text: numbers without a needless ``.0``, trimmed,
    inner white space folded to one space, Unicode NFC."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return unicodedata.normalize("NFC", " ".join(str(value).split()))


def _check_archive(path: Path) -> None:
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (OSError, zipfile.BadZipFile, ValueError) as error:
        raise InputError(UNREADABLE) from error
    if unpacked > MAX_UNPACKED_BYTES:
        raise InputError(UNREADABLE)


def _open_workbook(path):
    import openpyxl  # imported here: a slow import that only reading names needs

    path = Path(path)
    _check_archive(path)
    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds on a damaged archive
        raise InputError(UNREADABLE) from error


def read_names(path, *, column: int, skip_rows: int) -> list[Name]:
    """Read the names in 0-based ``column`` of the first worksheet after ``skip_rows`` header
    rows; empty cells are skipped and duplicates kept.

    Raises :class:`InputError` when the file is not a readable xlsx (corrupt, another format
    renamed, zip bomb), when the column holds no names, or when the limits (100,000 names of
    at most 100 characters) are exceeded.
    """
    names = []
    workbook = _open_workbook(path)
    try:
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # some writers record wrong dimensions; read every row
        rows = sheet.iter_rows(
            min_row=skip_rows + 1, min_col=column + 1, max_col=column + 1, values_only=True
        )
        for number, (value,) in enumerate(rows, start=skip_rows + 1):
            if number > skip_rows + MAX_ROWS:
                raise InputError(f"name_list has more than {MAX_ROWS:,} rows")
            text = clean_cell(value)
            if not text:
                continue
            if len(text) > MAX_NAME_LENGTH:
                raise InputError(
                    f"name_list row {number} has a name longer than {MAX_NAME_LENGTH} characters"
                )
            if len(names) == MAX_NAMES:
                raise InputError(f"name_list has more than {MAX_NAMES:,} names")
            names.append(Name(text, number))
    except InputError:
        raise
    except Exception as error:
        raise InputError(UNREADABLE) from error
    finally:
        workbook.close()
    if not names:
        raise InputError(f"name_list has no names in column {column}")
    return names


def first_rows(path, *, rows: int, columns: int) -> list[list[str]]:
    """The first ``rows`` rows of the first worksheet, at most ``columns`` cells wide (empty
    columns at the right left out), each cell cleaned as a name is and cut to MAX_NAME_LENGTH
    characters: what a person looks at to choose DATA_COL_INDEX and SKIP_ROWS. Raises :class:`InputError` when the file is not a readable
    xlsx."""
    workbook = _open_workbook(path)
    try:
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()
        table = [
            [clean_cell(value)[:MAX_NAME_LENGTH] for value in row]
            for row in sheet.iter_rows(max_row=rows, max_col=columns, values_only=True)
        ]
    except Exception as error:
        raise InputError(UNREADABLE) from error
    finally:
        workbook.close()
    width = max((index + 1 for row in table for index, text in enumerate(row) if text), default=0)
    return [(row + [""] * width)[:width] for row in table]
