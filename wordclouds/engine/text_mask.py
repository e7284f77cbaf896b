"""A shape made of text (MODE=TEXT): MASK_TEXT's letters drawn in the mask font at the size
that fills the canvas, their outlines the shape exactly (docs/engine.md, Text as the mask).
Each letter (a non-blank cluster: a base with its marks) is its own contour set, in reading
order, so groups can take letters as their regions."""

import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from .errors import InputError
from .fonts import (
    CLOSE,
    CUBIC,
    LINE,
    MOVE,
    QUAD,
    Typeface,
    choose_face,
    default_font_path,
    merge_overlaps,
    open_face,
)
from .params import DEFAULT_CANVAS, fit_canvas
from .path_data import path_contours
from .raster import coverage
from .shaping import shape_text, undrawable

BORDER = 0.03  # share of the canvas's smaller side left free around the text
TOLERANCE = 0.05  # px: how far the flattened outline may lie from the font's curves
FULL = 1 - 1e-4  # a pixel is inside when the outline covers this share of it or more
ARITY = {MOVE: 1, LINE: 1, QUAD: 2, CUBIC: 3, CLOSE: 0}
LETTER = {MOVE: "M", LINE: "L", QUAD: "Q", CUBIC: "C"}


@dataclass
class TextShape:
    """The text laid out on the canvas: per letter its contours (px, closed, from the font's
    curves within TOLERANCE), the canvas size, and the letters' characters."""

    letters: list[list[np.ndarray]]
    size: tuple[int, int]
    texts: list[str]

    def polygons(self) -> list[shapely.Geometry]:
        """Each letter as a shapely geometry (its contours even-odd: counters are holes)."""
        return [_even_odd(contours) for contours in self.letters]

    def labels(self) -> np.ndarray:
        """Per canvas pixel the index of the letter that covers it whole, else -1."""
        width, height = self.size
        labels = np.full((height, width), -1, dtype=np.int16)
        for index, contours in enumerate(self.letters):
            points = np.concatenate(contours)
            left, top = np.floor(points.min(axis=0)).astype(int)
            right, bottom = np.ceil(points.max(axis=0)).astype(int)
            left, top = max(0, left), max(0, top)
            right, bottom = min(width, right), min(height, bottom)
            ends = np.cumsum([len(c) for c in contours])
            cover = coverage(points, ends, 1.0, left, top, bottom - top, right - left)
            window = labels[top:bottom, left:right]
            window[(cover >= FULL) & (window < 0)] = index
        return labels


def _even_odd(contours) -> shapely.Geometry:
    shape = shapely.Polygon()
    for contour in contours:
        shape = shapely.symmetric_difference(shape, shapely.make_valid(shapely.Polygon(contour)))
    return shape


def text_lines(text: str | None) -> list[str]:
    """MASK_TEXT's lines (NFC, ``\r`` dropped); :class:`InputError` naming the problem when
    there is none, or it is blank or has a blank line (its length is declared: params.py)."""
    if text is None:
        raise InputError("params.MASK_TEXT is required when MODE=TEXT")
    text = unicodedata.normalize("NFC", text.replace("\r", ""))
    lines = text.split("\n")
    if not text.strip():
        raise InputError("params.MASK_TEXT must not be blank")
    if any(not line.strip() for line in lines):
        raise InputError("params.MASK_TEXT has an empty line")
    return lines


def mask_typeface(text: str, font_path) -> Typeface:
    """The mask font's face covering ``text`` best, alone (no fallback: the letters are the
    font's); :class:`InputError` naming the characters it cannot draw."""
    font_path = Path(font_path) if font_path else default_font_path()
    face = open_face(font_path, choose_face(font_path, [text]))
    typeface = Typeface(face, [])
    missing = undrawable(text.replace("\n", ""), typeface)
    if missing:
        shown = ", ".join(f"{char} (U+{ord(char):04X})" for char in dict.fromkeys(missing))
        raise InputError(
            f"params.MASK_TEXT has characters the mask font ({face.family}) cannot draw: "
            f"{shown}; choose a font that has them (MASK_FONT_ID)"
        )
    return typeface


def _line_letters(line: str, typeface: Typeface, spacing: float):
    """A line's letters in reading order, each (text, codes, points) in em (y down, from
    the line's baseline origin), MASK_TEXT_SPACING em added between letters."""
    glyphs, _, _ = shape_text(line, typeface, stacked=False)
    clusters = sorted({g.cluster for g in glyphs})
    ends = clusters[1:] + [len(line)] if clusters else []
    visual = sorted(clusters, key=lambda c: min(g.x for g in glyphs if g.cluster == c))
    letters = []
    for cluster, end in zip(clusters, ends, strict=True):
        shift = spacing * visual.index(cluster)
        codes, points = [], []
        for g in glyphs:
            glyph = g.face.glyph(g.gid)
            if g.cluster == cluster and glyph.codes.size:
                codes.append(glyph.codes)
                points.append(glyph.points + (g.x + shift, g.y))
        if codes and line[cluster:end].strip():
            codes, points = np.concatenate(codes), np.concatenate(points)
            if len(points) and len(codes) > 1:
                codes, points = merge_overlaps(codes, points)
            letters.append((line[cluster:end], codes, points))
    return letters


def _canvas(params, width_em: float, height_em: float) -> tuple[int, int]:
    """WIDTH×HEIGHT, or the text's aspect (with its border) at the side given, or at
    DEFAULT_CANVAS on the longer side."""
    if params.width and params.height:
        return params.width, params.height
    aspect = (width_em + 2 * BORDER * height_em) / (height_em * (1 + 2 * BORDER))
    if params.width:
        width, height = params.width, params.width / aspect
    elif params.height:
        width, height = params.height * aspect, params.height
    else:
        scale = DEFAULT_CANVAS / max(aspect, 1.0)
        width, height = scale * aspect, scale
    return fit_canvas(max(64.0, width), max(64.0, height))


def text_shape(params, font_path) -> TextShape:
    """MASK_TEXT laid out in the mask font: lines centred one under the other (a line's
    height the font's ascent + descent), scaled to the largest size that fits the canvas
    less BORDER, centred."""
    lines = text_lines(params.mask_text)
    typeface = mask_typeface("\n".join(lines), font_path)
    ascent, descent = typeface.primary.ascent, typeface.primary.descent
    placed, widths = [], []
    for row, line in enumerate(lines):
        letters = _line_letters(line, typeface, params.mask_text_spacing)
        if letters:
            low = min(p[:, 0].min() for _, _, p in letters)
            high = max(p[:, 0].max() for _, _, p in letters)
            widths.append(high - low)
            baseline = ascent + row * (ascent + descent)
            placed += [(t, c, p + (-(low + high) / 2, baseline)) for t, c, p in letters]
    if not placed:
        raise InputError("params.MASK_TEXT has no letter with ink to fill")
    points = np.concatenate([p for _, _, p in placed])
    low, high = points.min(axis=0), points.max(axis=0)
    width, height = _canvas(params, max(widths), high[1] - low[1])
    border = BORDER * min(width, height)
    scale = min(
        (width - 2 * border) / (high[0] - low[0]), (height - 2 * border) / (high[1] - low[1])
    )
    offset = np.array([width, height]) / 2 - scale * (low + high) / 2
    letters = [path_contours(_path_d(c, p * scale + offset), TOLERANCE) for _, c, p in placed]
    return TextShape(letters, (width, height), [t for t, _, _ in placed])


def _path_d(codes, points) -> str:
    """SVG path data (absolute, full precision) of an outline in px."""
    parts, cursor = [], 0
    for code in codes:
        count = ARITY[int(code)]
        if code == CLOSE:
            parts.append("Z")
        else:
            numbers = " ".join(f"{v:.4f}" for v in points[cursor : cursor + count].ravel())
            parts.append(f"{LETTER[int(code)]}{numbers}")
        cursor += count
    return "".join(parts)
