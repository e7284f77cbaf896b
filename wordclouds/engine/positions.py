"""The position database (SQLite): every placement with its boxes, and in ``meta`` all that
is needed to redraw each outline from the font alone."""

import json
import shutil
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

from .fonts import load_typeface
from .layout import Placement, WordShapes
from .outlines import placed_path

# The ``words`` table: each column's name and SQL type, in the table's order (the order of
# ``placement_row``'s tuples). The one list of its columns: readers name the ones they want.
WORDS_TABLE = (
    ("id", "INTEGER PRIMARY KEY"),
    ("name", "TEXT NOT NULL"),
    ("x", "REAL NOT NULL"),
    ("y", "REAL NOT NULL"),
    ("font_size", "REAL NOT NULL"),
    ("color", "TEXT NOT NULL"),
    ("orientation", "TEXT NOT NULL"),
    ("box_x", "INTEGER NOT NULL"),
    ("box_y", "INTEGER NOT NULL"),
    ("box_width", "INTEGER NOT NULL"),
    ("box_height", "INTEGER NOT NULL"),
    ("repetition", "INTEGER NOT NULL"),
    ("row", "INTEGER NOT NULL"),
    ("ink_x", "INTEGER NOT NULL"),
    ("ink_y", "INTEGER NOT NULL"),
    ("ink_width", "INTEGER NOT NULL"),
    ("ink_height", "INTEGER NOT NULL"),
    ("weight", "REAL NOT NULL"),
    ("group", "TEXT NOT NULL"),  # the name's group (GROUP_COL_INDEX); only in grouped files
)
WORD_COLUMNS = tuple(name for name, _ in WORDS_TABLE)
# A layout without groups writes the table without ``group`` (its files stay as they were;
# readers get "" for it: ADDED_LATER).
UNGROUPED_COLUMNS = WORD_COLUMNS[:-1]


def _schema(count: int) -> str:
    """The database's tables, ``words`` with the first ``count`` columns of WORDS_TABLE."""
    columns = ",\n".join(f'    "{name}" {kind}' for name, kind in WORDS_TABLE[:count])
    if count == len(UNGROUPED_COLUMNS):  # as files were written before groups: unquoted
        columns = ",\n".join(f"    {name} {kind}" for name, kind in WORDS_TABLE[:count])
    return f"""
CREATE TABLE words (
{columns}
);
CREATE INDEX words_name ON words (name);
CREATE INDEX words_name_lower ON words (lower(name));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def placement_row(number: int, p: Placement, color: str) -> tuple:
    """The ``words`` row of placement ``p`` with id ``number``."""
    return (
        number,
        p.name.text,
        p.box[0] + p.box[2] / 2,
        p.box[1] + p.box[3] / 2,
        p.font_size,
        color,
        "vertical" if p.vertical else "horizontal",
        *p.box,
        p.repetition,
        p.name.row,
        *p.ink_box,
        p.name.weight,
        p.name.group,
    )


def write_positions(path: Path, placements: list[Placement], colors: list[str], meta: dict) -> None:
    """Write the position database to ``path`` (which must not exist): placement N gets
    id N; ``meta`` values are stored as text (non-strings as JSON). The ``group`` column
    is written when some placement has a group."""
    count = len(WORD_COLUMNS) if any(p.name.group for p in placements) else len(UNGROUPED_COLUMNS)
    rows = (
        placement_row(number, p, color)[:count]
        for number, (p, color) in enumerate(zip(placements, colors), start=1)
    )
    write_rows(path, rows, meta, count)


def _insert(count: int) -> str:
    return f"INSERT INTO words VALUES ({', '.join('?' * count)})"


def _meta_rows(meta: dict):
    return (
        (key, value if isinstance(value, str) else json.dumps(value)) for key, value in meta.items()
    )


def write_rows(path: Path, rows, meta: dict, count: int = len(UNGROUPED_COLUMNS)) -> None:
    """Write a position database of ``words`` rows (tuples of the first ``count`` columns,
    in the table's order) and ``meta`` to ``path`` (which must not exist)."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript(_schema(count))
        connection.executemany(_insert(count), rows)
        connection.executemany("INSERT INTO meta VALUES (?, ?)", _meta_rows(meta))
        connection.commit()
    finally:
        connection.close()


def write_revised_rows(parent_db: Path, path: Path, gone, rows, meta: dict) -> None:
    """Write to ``path`` (which must not exist) the position database ``parent_db`` with the
    ``words`` rows of the ids ``gone`` deleted, ``rows`` added and ``meta`` values set: the
    parent's file copied and changed where the revision changed it, so the rows that stay
    are the parent's, untouched (rather than 50,000 rows and their indexes written again).
    ``rows`` are cut to the parent's columns (a file written before weights or groups)."""
    shutil.copyfile(parent_db, path)
    connection = sqlite3.connect(path)
    try:
        count = len(connection.execute("PRAGMA table_info(words)").fetchall())
        connection.executemany("DELETE FROM words WHERE id = ?", ((i,) for i in sorted(gone)))
        connection.executemany(_insert(count), (row[:count] for row in rows))
        connection.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", _meta_rows(meta))
        connection.commit()
    finally:
        connection.close()


def read_meta(db_path) -> dict:
    """The ``meta`` table as a dict of strings."""
    with closing(_read_only(db_path)) as connection:
        return dict(connection.execute("SELECT key, value FROM meta"))


def placement_outlines(db_path, font_path=None):
    """Yield ``(row, path_d)`` for each row of ``words`` in id order: the row as a dict and
    the word's outline in canvas coordinates, identical to its path in wordcloud.svg.

    ``font_path`` is the font file the job used (default: the bundled default font); the
    face and vertical style come from ``meta``; the fallback chain is the engine's own.
    """
    meta = read_meta(db_path)
    typeface = load_typeface(font_path, int(meta["font_face"]))
    # A database written before LOCALE existed was drawn in Simplified Chinese forms.
    shapes = WordShapes(typeface, meta["vertical_style"], meta.get("locale", "zh-Hans"))
    connection = _read_only(db_path)
    connection.row_factory = sqlite3.Row
    try:
        for record in connection.execute("SELECT * FROM words ORDER BY id"):
            row = dict(record)
            outline, _ = shapes.get(row["name"], row["orientation"] == "vertical")
            yield row, placed_path(outline, row["font_size"], row["ink_x"], row["ink_y"])
    finally:
        connection.close()


# ---- reading by column name: what the rest of the service asks of a position database ------
# No module but this one opens the file or writes SQL against it (CONTRIBUTING.md, "One owner
# per file format"): the services name the columns they want.

# A word as the service's answers show it (GET /api/jobs/<id>/words, the lookups' matches):
# the table's columns from its id to its box, without the engine's own bookkeeping
# (repetition, row, ink box) and the weight.
PLACED_COLUMNS = WORD_COLUMNS[: WORD_COLUMNS.index("box_height") + 1]
# Columns a file written before they existed does not have, with the value its words read as:
# a name had no weight before WEIGHT_COL_INDEX, so each weighed 1; a layout without groups
# has no group column, its names in no group ("").
ADDED_LATER = {"weight": 1.0, "group": ""}


def _read_only(db_path) -> sqlite3.Connection:
    """A connection that can neither write the file nor create it (`mode=ro`)."""
    return sqlite3.connect(f"{Path(db_path).resolve().as_uri()}?mode=ro", uri=True)


def read_word_rows(db_path, columns: Sequence[str]) -> list[tuple]:
    """Every word's values of ``columns`` (names of WORD_COLUMNS), a tuple each in that order,
    in id order. A column the file predates (ADDED_LATER) reads as the value it stands for."""
    unknown = [column for column in columns if column not in WORD_COLUMNS]
    if unknown:
        raise ValueError(f"the words table has no column {unknown[0]!r}")
    with closing(_read_only(db_path)) as connection:
        present = {row[1] for row in connection.execute("PRAGMA table_info(words)")}
        selected = ", ".join(
            f'"{column}"' if column in present else f'{ADDED_LATER[column]!r} AS "{column}"'
            for column in columns
        )
        return connection.execute(f"SELECT {selected} FROM words ORDER BY id").fetchall()


def read_words(db_path, columns: Sequence[str]) -> list[dict]:
    """Every word as a dict of ``columns`` (names of WORD_COLUMNS), in id order."""
    return [dict(zip(columns, row)) for row in read_word_rows(db_path, columns)]


def read_canvas(db_path) -> tuple[float, float]:
    """The canvas's width and height, px, as ``meta`` holds them."""
    meta = read_meta(db_path)
    return float(meta["canvas_width"]), float(meta["canvas_height"])
