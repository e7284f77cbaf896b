"""Word outlines: glyphs laid out horizontally, rotated or stacked, and their compact SVG path
data in canvas coordinates. The layout, the SVG writer and the re-export all go through
:func:`placed_path`, so every consumer sees the same geometry."""

import math
import unicodedata
from dataclasses import dataclass

import numpy as np

from .fonts import CLOSE, CUBIC, LINE, MOVE, POINTS_PER_COMMAND, QUAD, Typeface
from .occupancy import flatten

MISSING_ADVANCE = 0.5  # em; for a character no font can draw, a gap instead of a box
LETTERS = {LINE: "l", QUAD: "q", CUBIC: "c"}


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
    ``bounds`` of all its points (control points included, so they contain the ink) and
    ``frame``, the typographic box of its characters (em boxes) joined with ``bounds``."""

    codes: np.ndarray
    points: np.ndarray
    polygon: np.ndarray
    contour_ends: np.ndarray
    bounds: tuple[float, float, float, float]
    frame: tuple[float, float, float, float]

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


def word_outline(text: str, typeface: Typeface, *, vertical: bool, style: str) -> WordOutline:
    """Lay out ``text``: horizontal on a baseline, or vertical as ``rotate`` (turned 90°
    counter-clockwise, read bottom to top) or ``stack`` (upright characters, one em apart)."""
    codes, points = [], []
    ascent, descent = typeface.primary.ascent, typeface.primary.descent
    pen = 0.0
    for char in text:
        glyph = typeface.glyph(char)
        advance = glyph.advance if glyph else MISSING_ADVANCE
        if glyph is not None and glyph.codes.size:
            offset = (-advance / 2, pen) if vertical and style == "stack" else (pen, 0.0)
            codes.append(glyph.codes)
            points.append(glyph.points + offset)
        pen += 1.0 if vertical and style == "stack" else advance
    if vertical and style == "stack":
        frame = (-0.5, -ascent, 0.5, pen - 1.0 + descent)
    else:
        frame = (0.0, -ascent, pen, descent)
        if vertical:
            frame = (-ascent, -pen, descent, 0.0)  # the rotation below, applied to the box
    if not codes:
        # Nothing drawable: the typographic box alone keeps the name placeable.
        return WordOutline(np.zeros(0, np.uint8), np.zeros((0, 2)), np.zeros((0, 2)),
                           np.zeros(0, np.int64), frame, frame)
    codes, points = np.concatenate(codes), np.concatenate(points)
    if vertical and style == "rotate":
        points = np.column_stack((points[:, 1], -points[:, 0]))
    polygon, ends = flatten(codes, points)
    low, high = points.min(axis=0), points.max(axis=0)
    bounds = (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
    frame = (min(frame[0], bounds[0]), min(frame[1], bounds[1]),
             max(frame[2], bounds[2]), max(frame[3], bounds[3]))
    return WordOutline(codes, points, polygon, ends, bounds, frame)


def _tenths(value: int) -> str:
    whole, tenth = divmod(abs(value), 10)
    text = f"{whole}.{tenth}" if tenth else str(whole)
    return "-" + text if value < 0 else text


_TABLE_LIMIT = 20000
_TABLE = [_tenths(v) for v in range(-_TABLE_LIMIT, _TABLE_LIMIT + 1)]


def _number(value: int) -> str:
    return _TABLE[value + _TABLE_LIMIT] if -_TABLE_LIMIT <= value <= _TABLE_LIMIT else _tenths(value)


def placed_path(outline: WordOutline, size: float, x: int, y: int) -> str:
    """SVG path data of ``outline`` at ``size`` px with its pixel box's top-left at (x, y):
    one decimal, relative commands (h/v for straight lines), implicit repeats."""
    if not outline.codes.size:
        return ""
    left, top, _, _ = outline.box(size)
    tenths = np.rint(outline.points * (size * 10)).astype(np.int64)
    tenths += (10 * (x - left), 10 * (y - top))
    coords = tenths.tolist()
    parts = []
    letter = ""
    current = start = (0, 0)
    cursor = 0
    for code in outline.codes.tolist():
        if code == CLOSE:
            parts.append("z")
            letter, current = "z", start
            continue
        count = POINTS_PER_COMMAND[code]
        chunk = coords[cursor:cursor + count]
        cursor += count
        cx, cy = current
        if code == MOVE:
            command = "M" if not parts else "m"
            numbers = [chunk[0][0] - (cx if parts else 0), chunk[0][1] - (cy if parts else 0)]
            start = (chunk[0][0], chunk[0][1])
        elif code == LINE and chunk[0][1] == cy:
            command, numbers = "h", [chunk[0][0] - cx]
        elif code == LINE and chunk[0][0] == cx:
            command, numbers = "v", [chunk[0][1] - cy]
        else:
            command = LETTERS[code]
            numbers = [v for px, py in chunk for v in (px - cx, py - cy)]
        current = (chunk[-1][0], chunk[-1][1])
        texts = [_number(v) for v in numbers]
        if command != letter or command in "Mm":
            parts.append(command + texts[0])
        else:
            parts.append(texts[0] if texts[0][0] == "-" else " " + texts[0])
        parts.extend(t if t[0] == "-" else " " + t for t in texts[1:])
        letter = "l" if command == "m" else command
    return "".join(parts)
