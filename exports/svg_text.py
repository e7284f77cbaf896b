"""Plain SVG text as outlines drawn with the bundled CJK font (the result is no longer
editable text, as the interface says). Supported: x/y/dx/dy (the first value of each list),
font-size, text-anchor, nested tspans; the font family is always the bundled one."""

import re
import threading
from functools import lru_cache
from pathlib import Path

import uharfbuzz as hb
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTCollection, TTFont

from exports.svg_style import cascade, length
from wordclouds.engine import default_font_path
from wordclouds.engine.svg_geometry import Subpath

PREFERRED_FAMILY = "Noto Sans CJK SC"
_WHITESPACE_RE = re.compile(r"\s+")
_font_lock = threading.Lock()


def bundled_font_path() -> Path:
    return Path(default_font_path())


class _Font:
    """The bundled font: HarfBuzz shapes runs (kerning, CJK metrics), fontTools draws glyphs."""

    def __init__(self, path: Path):
        if path.suffix.lower() in (".ttc", ".otc"):
            fonts = TTCollection(str(path), lazy=True).fonts
        else:
            fonts = [TTFont(str(path), lazy=True)]
        index = next(
            (i for i, f in enumerate(fonts) if f["name"].getDebugName(1) == PREFERRED_FAMILY), 0
        )
        font = fonts[index]
        self.units_per_em = font["head"].unitsPerEm
        self.glyph_order = font.getGlyphOrder()
        self.glyph_set = font.getGlyphSet()
        self.shaper = hb.Font(hb.Face(hb.Blob.from_file_path(str(path)), index))
        self._outlines: dict[str, list[Subpath]] = {}

    def shape(self, text: str) -> list[tuple[str, float, float, float]]:
        """(glyph name, x offset, y offset, x advance) per glyph, in font units."""
        buffer = hb.Buffer()
        buffer.add_str(text)
        buffer.guess_segment_properties()
        hb.shape(self.shaper, buffer)
        return [
            (self.glyph_order[info.codepoint], pos.x_offset, pos.y_offset, pos.x_advance)
            for info, pos in zip(buffer.glyph_infos, buffer.glyph_positions)
        ]

    def outline(self, name: str) -> list[Subpath]:
        """A glyph's contours in font units (y up), cached."""
        cached = self._outlines.get(name)
        if cached is None:
            pen = _SubpathPen(self.glyph_set)
            self.glyph_set[name].draw(pen)
            cached = self._outlines[name] = pen.subpaths
        return cached


@lru_cache(maxsize=1)
def _font() -> _Font:
    return _Font(bundled_font_path())


def warm_up() -> None:
    """Loads the font once, so that forked conversions share it."""
    with _font_lock:
        for name, *_ in _font().shape("字A"):
            _font().outline(name)


class _SubpathPen(BasePen):
    def __init__(self, glyph_set):
        super().__init__(glyph_set)
        self.subpaths: list[Subpath] = []

    def _moveTo(self, pt):
        self.subpaths.append(Subpath(pt))

    def _lineTo(self, pt):
        self.subpaths[-1].segments.append(pt)

    def _curveToOne(self, pt1, pt2, pt3):
        self.subpaths[-1].segments.append((*pt1, *pt2, *pt3))

    def _qCurveToOne(self, pt1, pt2):
        x0, y0 = self._getCurrentPoint()
        self._curveToOne(
            (x0 + 2 / 3 * (pt1[0] - x0), y0 + 2 / 3 * (pt1[1] - y0)),
            (pt2[0] + 2 / 3 * (pt1[0] - pt2[0]), pt2[1] + 2 / 3 * (pt1[1] - pt2[1])),
            pt2,
        )

    def _closePath(self):
        self.subpaths[-1].closed = True


class _Chunk:
    """Glyph runs that share one anchor (text-anchor shifts the chunk as a whole)."""

    def __init__(self, anchor: str, origin: float):
        self.anchor = anchor
        self.origin = origin
        self.end = origin
        self.runs: list[tuple[dict[str, str], list[Subpath]]] = []


class _Layout:
    """Pen position and anchored chunks while walking a <text> element."""

    def __init__(self):
        self.x = self.y = 0.0
        self.chunks: list[_Chunk] = []

    def position(self, element, style: dict[str, str]):
        font_size = float(style["font-size"])

        def first(name: str) -> float | None:
            values = (element.get(name) or "").replace(",", " ").split()
            return length(values[0], font_size=font_size) if values else None

        x, y, dx, dy = first("x"), first("y"), first("dx"), first("dy")
        self.x = self.x if x is None else x
        self.y = self.y if y is None else y
        self.x += dx or 0.0
        self.y += dy or 0.0
        if x is not None or y is not None or not self.chunks:
            self.chunks.append(_Chunk(style["text-anchor"], self.x))

    def run(self, text: str, style: dict[str, str]):
        font = _font()
        scale = float(style["font-size"]) / font.units_per_em
        subpaths = []
        with _font_lock:
            for name, x_offset, y_offset, advance in font.shape(text):
                if name != ".notdef":
                    subpaths.extend(
                        _place(
                            font.outline(name),
                            scale,
                            self.x + x_offset * scale,
                            self.y - y_offset * scale,
                        )
                    )
                self.x += advance * scale
        chunk = self.chunks[-1]
        chunk.runs.append((style, subpaths))
        chunk.end = self.x


def _place(outline: list[Subpath], scale: float, x: float, y: float) -> list[Subpath]:
    """Font units (y up) to user space (y down) at pen position (x, y)."""
    return [
        Subpath(
            (x + sub.start[0] * scale, y - sub.start[1] * scale),
            [
                tuple(x + v * scale if i % 2 == 0 else y - v * scale for i, v in enumerate(s))
                for s in sub.segments
            ],
            sub.closed,
        )
        for sub in outline
    ]


def text_runs(element, style: dict[str, str]) -> list[tuple[dict[str, str], list[Subpath]]]:
    """The outlines of a <text> element, one entry per run of one style, in the element's
    user space."""
    pieces: list[tuple[str, dict[str, str], object]] = [("move", style, element)]
    _collect(element, style, pieces)
    layout = _Layout()
    for kind, piece_style, payload in _collapse_whitespace(pieces):
        if kind == "move":
            layout.position(payload, piece_style)
        else:
            layout.run(payload, piece_style)
    runs = []
    for chunk in layout.chunks:
        width = chunk.end - chunk.origin
        shift = {"middle": -width / 2, "end": -width}.get(chunk.anchor, 0.0)
        runs.extend((run_style, _shift(subpaths, shift)) for run_style, subpaths in chunk.runs)
    return [run for run in runs if run[1]]


def _collect(element, style, pieces):
    """Text and tspans as ("text" | "move", style, payload) pieces in document order."""
    pieces.append(("text", style, element.text or ""))
    for child in element:
        if child.tag.rsplit("}", 1)[-1] == "tspan":
            child_style = cascade(style, child)
            if child_style["display"] != "none":
                pieces.append(("move", child_style, child))
                _collect(child, child_style, pieces)
        pieces.append(("text", style, child.tail or ""))


def _collapse_whitespace(pieces):
    """xml:space="default": runs of white space become one space, none at either end."""
    result = []
    previous_space = True  # drops leading space
    for kind, style, payload in pieces:
        if kind == "text":
            payload = _WHITESPACE_RE.sub(" ", payload)
            if previous_space:
                payload = payload.lstrip(" ")
            if not payload:
                continue
            previous_space = payload.endswith(" ")
        result.append((kind, style, payload))
    for index in range(len(result) - 1, -1, -1):
        kind, style, payload = result[index]
        if kind == "text":
            result[index] = (kind, style, payload.rstrip(" "))
            break
    return [piece for piece in result if piece[0] == "move" or piece[2]]


def _shift(subpaths: list[Subpath], dx: float) -> list[Subpath]:
    if not dx:
        return subpaths
    return [
        Subpath(
            (sub.start[0] + dx, sub.start[1]),
            [tuple(v + dx if i % 2 == 0 else v for i, v in enumerate(s)) for s in sub.segments],
            sub.closed,
        )
        for sub in subpaths
    ]
