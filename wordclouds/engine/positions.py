"""The position database (SQLite): every placement with its boxes, and in ``meta`` all that
is needed to redraw each outline from the font alone."""

import json
import re
import shutil
import sqlite3
from pathlib import Path

from .fonts import load_typeface
from .layout import Placement, WordShapes
from .outlines import placed_path

SCHEMA = """
CREATE TABLE words (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    x REAL NOT NULL,
    y REAL NOT NULL,
    font_size REAL NOT NULL,
    color TEXT NOT NULL,
    orientation TEXT NOT NULL,
    box_x INTEGER NOT NULL,
    box_y INTEGER NOT NULL,
    box_width INTEGER NOT NULL,
    box_height INTEGER NOT NULL,
    repetition INTEGER NOT NULL,
    row INTEGER NOT NULL,
    ink_x INTEGER NOT NULL,
    ink_y INTEGER NOT NULL,
    ink_width INTEGER NOT NULL,
    ink_height INTEGER NOT NULL,
    weight REAL NOT NULL
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
    )


def write_positions(path: Path, placements: list[Placement], colors: list[str], meta: dict) -> None:
    """Write the position database to ``path`` (which must not exist): placement N gets
    id N; ``meta`` values are stored as text (non-strings as JSON)."""
    rows = (
        placement_row(number, p, color)
        for number, (p, color) in enumerate(zip(placements, colors), start=1)
    )
    write_rows(path, rows, meta)


WORDS_INSERT = "INSERT INTO words VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


def _meta_rows(meta: dict):
    return (
        (key, value if isinstance(value, str) else json.dumps(value)) for key, value in meta.items()
    )


def write_rows(path: Path, rows, meta: dict) -> None:
    """Write a position database of ``words`` rows (tuples in the table's column order) and
    ``meta`` to ``path`` (which must not exist)."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript(SCHEMA)
        connection.executemany(WORDS_INSERT, rows)
        connection.executemany("INSERT INTO meta VALUES (?, ?)", _meta_rows(meta))
        connection.commit()
    finally:
        connection.close()


def write_revised_rows(parent_db: Path, path: Path, gone, rows, meta: dict) -> None:
    """Write to ``path`` (which must not exist) the position database ``parent_db`` with the
    ``words`` rows of the ids ``gone`` deleted, ``rows`` added and ``meta`` values set: the
    parent's file copied and changed where the revision changed it, so the rows that stay
    are the parent's, untouched (rather than 50,000 rows and their indexes written again)."""
    shutil.copyfile(parent_db, path)
    connection = sqlite3.connect(path)
    try:
        connection.executemany("DELETE FROM words WHERE id = ?", ((i,) for i in sorted(gone)))
        connection.executemany(WORDS_INSERT, rows)
        connection.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", _meta_rows(meta))
        connection.commit()
    finally:
        connection.close()


def read_meta(db_path) -> dict:
    """The ``meta`` table as a dict of strings."""
    connection = sqlite3.connect(f"file:{Path(db_path)}?mode=ro", uri=True)
    try:
        return dict(connection.execute("SELECT key, value FROM meta"))
    finally:
        connection.close()


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
    connection = sqlite3.connect(f"file:{Path(db_path)}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    try:
        for record in connection.execute("SELECT * FROM words ORDER BY id"):
            row = dict(record)
            outline, _ = shapes.get(row["name"], row["orientation"] == "vertical")
            yield row, placed_path(outline, row["font_size"], row["ink_x"], row["ink_y"])
    finally:
        connection.close()


# --- Reading words by column ----------------------------------------------------------------
# The one list of the ``words`` columns, in the table's order: read from SCHEMA itself.
WORD_COLUMNS = tuple(
    re.findall(r"^    (\w+) ", SCHEMA.split("CREATE TABLE words (")[1].split(");")[0], re.M)
)


def read_words(path, columns=WORD_COLUMNS) -> list[tuple]:
    """Every row of ``words`` in the position database at ``path``, in id order, as a tuple
    of the ``columns`` named (of :data:`WORD_COLUMNS`; all of them by default)."""
    unknown = [column for column in columns if column not in WORD_COLUMNS]
    if unknown:
        raise ValueError(f"positions.db has no column {unknown[0]!r}")
    connection = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)
    try:
        return connection.execute(f"SELECT {', '.join(columns)} FROM words ORDER BY id").fetchall()
    finally:
        connection.close()
