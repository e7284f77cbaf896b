"""Reads of a finished job's position database: name lookups and the occupancy mask.

The database is the engine's positions.db (table `words`, table `meta`, an index on name),
opened read-only so a lookup can never change a finished job."""

import io
import math
import re
import sqlite3
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image

from core.errors import InvalidInput
from wordclouds.selectors import canvas_size, positions_db, positions_db_path

MATCH_COLUMNS = (
    "id",
    "name",
    "x",
    "y",
    "font_size",
    "color",
    "orientation",
    "box_x",
    "box_y",
    "box_width",
    "box_height",
    "weight",
)
MODES = ("exact", "contains")
ID_CHUNK = 900  # ids per `IN (...)`, under SQLite's limit of bound parameters


def _normalized(text: str) -> str:
    """A query cleaned like the engine cleans names: trimmed, inner white space folded to
    one space, Unicode NFC."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def locations_find(*, job_id: str, name: str = "", mode: str = "exact") -> dict:
    """The Location result of the spec: placements whose name equals `name` (exact) or holds
    it case-insensitively (contains; `%`, `_` and `\\` are plain characters), by id; all
    placements when `name` is empty. 400 `mode must be exact or contains`."""
    if mode not in MODES:
        raise InvalidInput("mode must be exact or contains")
    query = _normalized(name)
    db_path = positions_db_path(job_id)
    with positions_db(db_path) as connection:
        columns = _match_columns(connection)
        if not query:
            sql, args = f"SELECT {columns} FROM words ORDER BY id", ()
        else:
            sql, args = f"SELECT {columns} FROM words WHERE name = ? ORDER BY id", (query,)
        width, height = canvas_size(connection)
        if query and mode == "contains":
            matches = _containing(connection, db_path, query.lower())
        else:
            matches = [dict(row) for row in connection.execute(sql, args)]
    return {
        "job_id": job_id,
        "query": name,
        "mode": mode,
        "total": len(matches),
        "canvas_width": width,
        "canvas_height": height,
        "matches": matches,
    }


def _match_columns(connection: sqlite3.Connection) -> str:
    """The select list of a match record. A positions.db written before names had weights
    has no `weight` column: every name there weighs 1."""
    present = {row[1] for row in connection.execute("PRAGMA table_info(words)")}
    return ", ".join(
        column if column in present else f"1.0 AS {column}" for column in MATCH_COLUMNS
    )


def _containing(connection: sqlite3.Connection, path: Path, lowered: str) -> list[dict]:
    """Rows whose lower-cased name holds `lowered`, by id. The search runs over the job's
    names lower-cased once and kept (a finished positions.db never changes): a substring
    search in one string instead of a Python call per row, which held the GIL for 100 ms
    per request on 100,000 names."""
    stat = path.stat()
    text, starts, ids = _lowered_names(str(path), stat.st_mtime_ns, stat.st_size)
    found = np.array(
        [match.start() for match in re.finditer(re.escape(lowered), text)], dtype=np.int64
    )
    hits = np.unique(np.searchsorted(starts, found, side="right") - 1)
    wanted = ids[hits].tolist()
    columns = _match_columns(connection)
    rows = []
    for first in range(0, len(wanted), ID_CHUNK):
        chunk = wanted[first : first + ID_CHUNK]
        rows += connection.execute(
            f"SELECT {columns} FROM words WHERE id IN ({', '.join('?' * len(chunk))})", chunk
        )
    return sorted((dict(row) for row in rows), key=lambda row: row["id"])


@lru_cache(maxsize=16)
def _lowered_names(path: str, mtime_ns: int, size: int) -> tuple[str, np.ndarray, np.ndarray]:
    """Every name lower-cased, joined by newlines (names never hold one: the engine folds
    white space), the offset where each starts, and its row id."""
    with positions_db(Path(path)) as connection:
        rows = connection.execute("SELECT id, name FROM words ORDER BY id").fetchall()
    # Python's lower(), not SQLite's, which folds ASCII only; names are often not ASCII.
    names = [(name or "").lower() for _, name in rows]
    lengths = np.array([len(name) + 1 for name in names], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    return "\n".join(names), starts, np.array([row_id for row_id, _ in rows], dtype=np.int64)


def occupancy_mask_png(*, job_id: str) -> bytes:
    """A PNG of the canvas: black, with every placed word's box filled white (8-bit grey).
    A box covers every pixel it touches, so the mask never under-reports occupied space."""
    with positions_db(positions_db_path(job_id)) as connection:
        width, height = canvas_size(connection)
        boxes = connection.execute(
            "SELECT box_x, box_y, box_width, box_height FROM words"
        ).fetchall()
    mask = np.zeros((math.ceil(height), math.ceil(width)), dtype=np.uint8)
    for x, y, w, h in boxes:
        left, top = max(0, math.floor(x)), max(0, math.floor(y))
        mask[top : math.ceil(y + h), left : math.ceil(x + w)] = 255
    out = io.BytesIO()
    Image.fromarray(mask).save(out, format="PNG")
    return out.getvalue()
