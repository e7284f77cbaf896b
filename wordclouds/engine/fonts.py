"""Fonts: validation, the bundled default, choosing a face, and glyph outlines with a
per-character fallback to the default font."""

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTCollection, TTFont

from .errors import InputError

INVALID = "font_file is not a valid font"
# The bundled collection's Simplified Chinese face: the tie-break among equally covering
# faces, since most name lists are Chinese.
DEFAULT_FACE = 2
MOVE, LINE, QUAD, CUBIC, CLOSE = range(5)


def default_font_path() -> Path:
    """The bundled default font: Noto Sans CJK Regular (OFL) from ``noto-cjk-sans-otc``."""
    import noto_cjk_sans_otc

    return Path(noto_cjk_sans_otc.__file__).with_name("NotoSansCJK-Regular.ttc")


@dataclass(frozen=True)
class FontInfo:
    """What a font file holds: its first face's family name and how many faces it has."""

    family: str
    face_count: int
    path: Path


def _faces(path) -> list[TTFont]:
    with open(path, "rb") as file:
        tag = file.read(4)
    if tag == b"ttcf":
        return list(TTCollection(str(path), lazy=True).fonts)
    return [TTFont(str(path), lazy=True)]


def check_font(path) -> FontInfo:
    """Check that ``path`` is a usable TrueType/OpenType font or collection and describe it.

    Raises :class:`InputError` ("font_file is not a valid font") when it cannot be parsed or
    has no outlines or character map.
    """
    try:
        faces = _faces(path)
        for face in faces:
            if face.getBestCmap() is None or not ({"glyf", "CFF ", "CFF2"} & set(face.keys())):
                raise InputError(INVALID)
            face.getGlyphSet()
        family = faces[0]["name"].getBestFamilyName() or Path(path).stem
    except InputError:
        raise
    except Exception as error:  # fontTools raises many kinds on damaged or foreign data
        raise InputError(INVALID) from error
    return FontInfo(family=family, face_count=len(faces), path=Path(path))


@dataclass(frozen=True)
class Glyph:
    """A glyph outline in em units with y pointing down from the baseline: ``codes`` are
    MOVE/LINE/QUAD/CUBIC/CLOSE and ``points`` their points in order."""

    codes: np.ndarray
    points: np.ndarray
    advance: float


class _GlyphPen(BasePen):
    def __init__(self, glyph_set, scale):
        super().__init__(glyph_set)
        self.scale = scale
        self.codes, self.points = [], []

    def _add(self, code, *points):
        self.codes.append(code)
        self.points.extend((x * self.scale, -y * self.scale) for x, y in points)

    def _moveTo(self, p):
        self._add(MOVE, p)

    def _lineTo(self, p):
        self._add(LINE, p)

    def _qCurveToOne(self, p1, p2):
        self._add(QUAD, p1, p2)

    def _curveToOne(self, p1, p2, p3):
        self._add(CUBIC, p1, p2, p3)

    def _closePath(self):
        self._add(CLOSE)

    _endPath = _closePath  # filled shapes: an open contour is closed like a closed one


class Face:
    """One face of a font file, with its character map and a cache of glyph outlines."""

    def __init__(self, path: Path, index: int):
        self.path, self.index = Path(path), index
        self.font = _faces(path)[index]
        self.cmap = self.font.getBestCmap()
        if "CFF " in self.font:
            # Straight from the charstrings: a glyph set would first decode the horizontal and
            # vertical metrics of every glyph (65,535 in a CJK font), a quarter of a second.
            self.glyph_set = None
            self._charstrings = self.font["CFF "].cff.topDictIndex[0].CharStrings
            self._hmtx = self.font.reader["hmtx"]
            self._metric_count = self.font["hhea"].numberOfHMetrics
        else:
            self.glyph_set = self.font.getGlyphSet()
        self.scale = 1.0 / self.font["head"].unitsPerEm
        self.family = self.font["name"].getBestFamilyName() or self.path.stem
        metrics = self.font["OS/2"] if "OS/2" in self.font else None
        ascent, descent = ((metrics.sTypoAscender, -metrics.sTypoDescender) if metrics
                           else (self.font["hhea"].ascent, -self.font["hhea"].descent))
        # The typographic em box above and below the baseline, in em.
        self.ascent, self.descent = ascent * self.scale, descent * self.scale
        self._glyphs = {}

    def glyph(self, char: str) -> Glyph | None:
        """The outline of ``char``, or None when this face has no glyph for it."""
        if char not in self._glyphs:
            name = self.cmap.get(ord(char))
            self._glyphs[char] = None if name is None else self._draw(name)
        return self._glyphs[char]

    def _draw(self, name):
        pen = _GlyphPen(self.glyph_set, self.scale)
        if self.glyph_set is None:
            self._charstrings[name].draw(pen)
            entry = 4 * min(self.font.getGlyphID(name), self._metric_count - 1)
            advance = int.from_bytes(self._hmtx[entry:entry + 2], "big")
        else:
            glyph = self.glyph_set[name]
            glyph.draw(pen)
            advance = glyph.width
        return Glyph(np.array(pen.codes, dtype=np.uint8),
                     np.array(pen.points, dtype=np.float64).reshape(-1, 2),
                     advance * self.scale)


@functools.lru_cache(maxsize=8)
def open_face(path, index: int) -> Face:
    """A loaded face, cached so repeated runs in one process share parsing and glyphs."""
    try:
        return Face(Path(path), index)
    except Exception as error:
        raise InputError(INVALID) from error


def _covered(face: TTFont, chars: np.ndarray) -> int:
    """How many of ``chars`` (sorted code points) the face maps, read from the raw cmap
    table: parsing a CJK cmap into a dict costs a tenth of a second per face."""
    data = face.reader["cmap"]
    records = np.frombuffer(data, ">u2", count=2 + 4 * int.from_bytes(data[2:4], "big"))
    offsets = {}
    for i in range(int(records[1])):
        platform, encoding = int(records[2 + 4 * i]), int(records[3 + 4 * i])
        offsets[platform, encoding] = int.from_bytes(data[8 + 8 * i:12 + 8 * i], "big")
    for key in ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3)):
        offset = offsets.get(key)
        fmt = None if offset is None else int.from_bytes(data[offset:offset + 2], "big")
        if fmt == 12:
            count = int.from_bytes(data[offset + 12:offset + 16], "big")
            groups = np.frombuffer(data, ">u4", count=3 * count, offset=offset + 16)
            starts, ends = groups[0::3].astype(np.int64), groups[1::3].astype(np.int64)
            break
        if fmt == 4:
            segments = int.from_bytes(data[offset + 6:offset + 8], "big") // 2
            ends = np.frombuffer(data, ">u2", count=segments, offset=offset + 14).astype(np.int64)
            starts = np.frombuffer(data, ">u2", count=segments,
                                   offset=offset + 16 + 2 * segments).astype(np.int64)
            break
    else:
        return len(set(chars.tolist()) & face.getBestCmap().keys())
    segment = np.searchsorted(ends, chars)
    segment_ok = segment < len(ends)
    return int(np.count_nonzero(
        segment_ok & (starts[np.minimum(segment, len(ends) - 1)] <= chars)))


def choose_face(path, texts) -> int:
    """The index of the face of ``path`` that covers most distinct characters of ``texts``
    (ties: the default font's Simplified Chinese face, else the first face)."""
    try:
        faces = _faces(path)
        if len(faces) == 1:
            return 0
        chars = np.array(sorted({ord(c) for text in texts for c in text if not c.isspace()}),
                         dtype=np.int64)
        coverage = [_covered(face, chars) for face in faces]
    except Exception as error:
        raise InputError(INVALID) from error
    preferred = DEFAULT_FACE if Path(path) == default_font_path() else 0
    return min(range(len(faces)), key=lambda i: (-coverage[i], i != preferred, i))


class Typeface:
    """The chosen face plus the default font's face for characters the chosen one lacks."""

    def __init__(self, primary: Face, fallback: Face):
        self.primary, self.fallback = primary, fallback

    def glyph(self, char: str) -> Glyph | None:
        """The outline of ``char`` from the chosen face, else from the fallback, else None
        (never a missing-glyph box)."""
        return self.primary.glyph(char) or self.fallback.glyph(char)
