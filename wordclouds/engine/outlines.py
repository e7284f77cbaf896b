"""Word outlines: shaped glyphs laid out horizontally, rotated or stacked, and their compact
SVG path data in canvas coordinates. The SVG writer, the PNG painter and the re-export all take
the placed coordinates from :func:`placed_tenths`, so every output has the same geometry."""

import math
import unicodedata
from dataclasses import dataclass

import numpy as np

from .compiled import njit
from .fonts import CLOSE, CUBIC, LINE, MOVE, QUAD, Typeface, merge_overlaps
from .raster import flatten
from .shaping import shape_text


def is_cjk(text: str) -> bool:
    """Whether every visible character of ``text`` is a wide (East Asian) character."""
    visible = [c for c in text if not c.isspace()]
    return bool(visible) and all(unicodedata.east_asian_width(c) in "WF" for c in visible)


def resolve_style(text: str, vertical_style: str) -> str:
    """``stack`` or ``rotate`` for a vertical word; ``auto`` stacks CJK names only."""
    if vertical_style == "auto":
        return "stack" if is_cjk(text) else "rotate"
    return vertical_style


def _pixel_box(bounds, size):
    left, top = math.floor(bounds[0] * size), math.floor(bounds[1] * size)
    right, bottom = math.ceil(bounds[2] * size), math.ceil(bounds[3] * size)
    return left, top, max(1, right - left), max(1, bottom - top)


@dataclass
class WordOutline:
    """A word's outline in em units (y down) from its origin, with its flattened polygons,
    ``bounds`` of all its points (control points included, so they contain the ink),
    ``frame``, the typographic box of its characters (em boxes) joined with ``bounds``, and
    ``runs``, the (script, font family) of each run it was shaped in."""

    codes: np.ndarray
    points: np.ndarray
    polygon: np.ndarray
    contour_ends: np.ndarray
    bounds: tuple[float, float, float, float]
    frame: tuple[float, float, float, float]
    runs: tuple[tuple[str, str], ...] = ()
    glyphs: tuple[tuple[int, int], ...] = ()  # (face index, glyph id) of each shaped glyph

    def box(self, size: float) -> tuple[int, int, int, int]:
        """The integer pixel box (left, top, width, height) holding the ink at ``size`` px,
        relative to the word's origin: what collides with other words."""
        return _pixel_box(self.bounds, size)

    def frame_box(self, size: float, x: int, y: int) -> tuple[int, int, int, int]:
        """The word's reported box (typographic box joined with its ink box) on the canvas,
        for the word's ink box placed with its top-left at (x, y)."""
        left, top, _, _ = _pixel_box(self.bounds, size)
        frame_left, frame_top, width, height = _pixel_box(self.frame, size)
        return x - left + frame_left, y - top + frame_top, width, height


def word_outline(
    text: str, typeface: Typeface, *, vertical: bool, style: str, language: str | None = None
) -> WordOutline:
    """Lay out ``text`` from its shaped glyphs: horizontal on a baseline, or vertical as
    ``rotate`` (turned 90° counter-clockwise, read bottom to top) or ``stack`` (top to
    bottom, CJK upright in its vertical forms, other runs turned sideways); CJK runs in
    ``language`` (see :func:`shape_text`)."""
    stacked = vertical and style == "stack"
    glyphs, runs, advance = shape_text(text, typeface, stacked=stacked, language=language)
    codes, points, boxes = [], [], []
    for shaped in glyphs:
        glyph = shaped.face.glyph(shaped.gid)
        if glyph.codes.size:
            at = glyph.points[:, ::-1] * (-1.0, 1.0) if shaped.sideways else glyph.points
            codes.append(glyph.codes)
            points.append(at + (shaped.x, shaped.y))
            boxes.append(glyph_box(shaped, glyph))
    ascent, descent = typeface.primary.ascent, typeface.primary.descent
    if stacked:
        frame = (-0.5, 0.0, 0.5, advance)
    elif vertical:
        frame = (-ascent, -advance, descent, 0.0)  # the rotation below, applied to the box
    else:
        frame = (0.0, -ascent, advance, descent)
    labels = tuple((run.script, run.face.family) for run in runs)
    ids = tuple((shaped.face.index, shaped.gid) for shaped in glyphs)
    if not codes:
        # Nothing to ink (a name of spaces): the typographic box alone keeps it placeable.
        return WordOutline(
            np.zeros(0, np.uint8),
            np.zeros((0, 2)),
            np.zeros((0, 2)),
            np.zeros(0, np.int64),
            frame,
            frame,
            labels,
            ids,
        )
    codes, points = np.concatenate(codes), np.concatenate(points)
    if _any_overlap(boxes):
        codes, points = merge_overlaps(codes, points)
        low, high = points.min(axis=0), points.max(axis=0)
        bounds = (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
    else:  # the glyphs' own bounds, moved: the same numbers as the points' extremes
        bounds = union_box(boxes)
    if vertical and not stacked:
        points = np.column_stack((points[:, 1], -points[:, 0]))
        bounds = (bounds[1], -bounds[2], bounds[3], -bounds[0])
    polygon, ends = flatten(codes, points)
    frame = (
        min(frame[0], bounds[0]),
        min(frame[1], bounds[1]),
        max(frame[2], bounds[2]),
        max(frame[3], bounds[3]),
    )
    return WordOutline(codes, points, polygon, ends, bounds, frame, labels, ids)


def glyph_box(shaped, glyph) -> tuple[float, float, float, float]:
    """The ink bounds (left, top, right, bottom, em) of ``glyph`` where ``shaped`` puts it:
    at its origin, turned clockwise when sideways."""
    left, top, right, bottom = glyph.bounds
    if shaped.sideways:
        left, top, right, bottom = -bottom, left, -top, right
    return left + shaped.x, top + shaped.y, right + shaped.x, bottom + shaped.y


def union_box(boxes) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) holding every one of ``boxes``."""
    lefts, tops, rights, bottoms = zip(*boxes)
    return min(lefts), min(tops), max(rights), max(bottoms)


def _any_overlap(boxes) -> bool:
    """Whether any two of the glyph boxes (left, top, right, bottom) overlap: only then is
    the word's outline merged, which CJK names, one glyph per em square, seldom need."""
    return any(
        a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
    )


@njit(cache=True)
def _write_number(out, n, value, separate):
    if value < 0:
        out[n] = 45  # "-" also separates it from what came before
        n += 1
        value = -value
    elif separate:
        out[n] = 32
        n += 1
    whole, tenth = value // 10, value % 10
    digits = 1
    while whole >= 10**digits:
        digits += 1
    for k in range(digits - 1, -1, -1):
        out[n + k] = 48 + whole % 10
        whole //= 10
    n += digits
    if tenth:
        out[n] = 46
        out[n + 1] = 48 + tenth
        n += 2
    return n


@njit(cache=True, nogil=True)
def encode_path(codes, tenths):
    """SVG path data (ASCII bytes) for an outline whose points are in tenths of a pixel:
    absolute first move, then relative commands, h/v for straight lines, implicit repeats."""
    out = np.empty(16 + codes.size + 24 * tenths.shape[0], dtype=np.uint8)
    n = cursor = 0
    letter = 0
    cx = cy = sx = sy = 0
    for code in codes:
        if code == CLOSE:
            out[n] = 122  # z
            n += 1
            letter, cx, cy = 122, sx, sy
            continue
        count = 1 if code <= LINE else (2 if code == QUAD else 3)
        px, py = tenths[cursor, 0], tenths[cursor, 1]
        if code == MOVE:
            command = 77 if cursor == 0 else 109  # M, m
        elif code == LINE and py == cy:
            command = 104  # h
        elif code == LINE and px == cx:
            command = 118  # v
        else:
            command = 108 if code == LINE else (113 if code == QUAD else 99)  # l, q, c
        separate = True
        if command != letter or command == 77 or command == 109:
            out[n] = command
            n += 1
            separate = False
        base_x, base_y = (0, 0) if command == 77 else (cx, cy)
        for k in range(count):
            px, py = tenths[cursor + k, 0], tenths[cursor + k, 1]
            if command != 118:
                n = _write_number(out, n, px - base_x, separate)
                separate = True
            if command != 104:
                n = _write_number(out, n, py - base_y, separate)
                separate = True
        cx, cy = tenths[cursor + count - 1, 0], tenths[cursor + count - 1, 1]
        if code == MOVE:
            sx, sy = cx, cy
        cursor += count
        letter = 108 if command == 109 else command
    return out[:n]


@njit(cache=True)
def _read_tenths(data, i):
    """The number at data[i] in tenths (``-`` and one decimal at most): (tenths, next i)."""
    sign = 1
    if data[i] == 45:
        sign = -1
        i += 1
    whole = 0
    while i < data.size and 48 <= data[i] <= 57:
        whole = whole * 10 + data[i] - 48
        i += 1
    tenth = 0
    if i < data.size and data[i] == 46:
        tenth = data[i + 1] - 48
        i += 2
    return sign * (whole * 10 + tenth), i


@njit(cache=True)
def _read_point(data, i, letter, base_x, base_y, cx, cy):
    """The point (in tenths) of command ``letter`` whose numbers start at ``i`` (after
    spaces): one number for h and v (the other coordinate stays ``cx`` or ``cy``), else two,
    from the base point; and the index after it."""
    px, py = cx, cy
    while data[i] == 32:
        i += 1
    value, i = _read_tenths(data, i)
    if letter == 118:  # v
        return px, base_y + value, i
    px = base_x + value
    if letter == 104:  # h
        return px, py, i
    while data[i] == 32:
        i += 1
    value, i = _read_tenths(data, i)
    return px, base_y + value, i


@njit(cache=True)
def decode_path(data):
    """The (codes, points in px) of path data written by :func:`encode_path` (an absolute
    first move, then relative m, l, h, v, q, c and z with whole tenths of a pixel), as bytes:
    its exact inverse, for that encoding only (path_data.py reads any path data)."""
    codes = np.empty(data.size + 1, dtype=np.int64)
    tenths = np.empty((data.size + 1, 2), dtype=np.int64)
    n_codes = n_points = 0
    letter = 0
    cx = cy = sx = sy = 0
    i = 0
    while i < data.size:
        ch = data[i]
        if ch == 32:
            i += 1
            continue
        if ch == 122:  # z
            codes[n_codes] = CLOSE
            n_codes += 1
            cx, cy = sx, sy
            letter = 122
            i += 1
            continue
        if ch >= 65:
            letter = ch
            i += 1
        count = 1
        code = LINE
        if letter == 77 or letter == 109:
            code = MOVE
        elif letter == 113:
            code, count = QUAD, 2
        elif letter == 99:
            code, count = CUBIC, 3
        base_x, base_y = (0, 0) if letter == 77 else (cx, cy)
        for _ in range(count):
            px, py, i = _read_point(data, i, letter, base_x, base_y, cx, cy)
            tenths[n_points, 0], tenths[n_points, 1] = px, py
            n_points += 1
        codes[n_codes] = code
        n_codes += 1
        cx, cy = tenths[n_points - 1, 0], tenths[n_points - 1, 1]
        if code == MOVE:
            sx, sy = cx, cy
            letter = 108  # numbers after a move continue as lines
    return codes[:n_codes], tenths[:n_points].astype(np.float64) / 10


@njit(cache=True, nogil=True)
def scaled_tenths(points, size, shift_x, shift_y):
    """``points`` (em units) at ``size`` px in whole tenths of a pixel, moved by (shift_x,
    shift_y) tenths: compiled so the PNG painter computes them without holding the GIL."""
    tenths = np.rint(points * (size * 10)).astype(np.int64)
    for k in range(tenths.shape[0]):
        tenths[k, 0] += shift_x
        tenths[k, 1] += shift_y
    return tenths


def tenths_shift(outline: WordOutline, size: float, x: int, y: int) -> tuple[int, int]:
    """How far, in tenths of a pixel, the outline at ``size`` px moves for its ink box's
    top-left to be at (x, y)."""
    left, top, _, _ = outline.box(size)
    return 10 * (x - left), 10 * (y - top)


def placed_tenths(outline: WordOutline, size: float, x: int, y: int) -> np.ndarray:
    """The outline's points at ``size`` px with its ink box's top-left at (x, y), in whole
    tenths of a pixel: the exact numbers of the SVG path, which the PNG is painted from."""
    return scaled_tenths(outline.points, size, *tenths_shift(outline, size, x, y))


def placed_path(outline: WordOutline, size: float, x: int, y: int) -> str:
    """SVG path data of ``outline`` at ``size`` px with its ink box's top-left at (x, y):
    canvas coordinates to one decimal, relative commands."""
    if not outline.codes.size:
        return ""
    return encode_path(outline.codes, placed_tenths(outline, size, x, y)).tobytes().decode()
