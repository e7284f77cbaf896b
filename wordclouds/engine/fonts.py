"""Fonts: validation, the bundled default and fallback chain, choosing a face (by coverage and
by the language a collection's faces declare), and clean glyph outlines (overlaps removed) per
glyph id."""

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pathops
import uharfbuzz as hb
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTCollection, TTFont

from .errors import InputError

INVALID = "font_file is not a valid font"
# The bundled collection's Simplified Chinese face: the tie-break among equally covering
# faces, since most name lists are Chinese.
DEFAULT_FACE = 2
MOVE, LINE, QUAD, CUBIC, CLOSE = range(5)
# The fallback chain after the chosen font, in the order a run looks for a font that covers
# it: (Python package holding the file, path inside it, face index). All are Noto fonts under
# the SIL Open Font License, except Heebo (OFL) for Hebrew and Symbola (free for any use, as
# its name table says) for emoji in monochrome outlines.
FALLBACK_FONTS = (
    ("fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf", 0),
    ("noto_cjk_sans_otc", "NotoSansCJK-Regular.ttc", DEFAULT_FACE),
    ("fontpkg_noto_sans_arabic", "files/NotoSansArabic[wdth,wght].ttf", 0),
    ("fontpkg_heebo", "files/Heebo[wght].ttf", 0),
    ("fontpkg_noto_sans_thai", "files/NotoSansThai[wdth,wght].ttf", 0),
    ("fontpkg_noto_sans_devanagari", "files/NotoSansDevanagari[wdth,wght].ttf", 0),
    ("fontpkg_noto_sans_tamil", "files/NotoSansTamil[wdth,wght].ttf", 0),
    ("fontpkg_noto_sans_telugu", "files/NotoSansTelugu[wdth,wght].ttf", 0),
    ("fontpkg_noto_sans_khmer", "files/NotoSansKhmer[wdth,wght].ttf", 0),
    ("rinoh_typeface_symbola", "Symbola.ttf", 0),
)
# What the chain covers, for people choosing a font (the default font's entry of the API).
CHAIN_COVERAGE = (
    "Latin with Extended-A/B and combining marks, Greek, Cyrillic, Chinese, Japanese kana, "
    "Korean Hangul, Arabic, Hebrew, Thai, Devanagari, Tamil, Telugu, Khmer and emoji "
    "(monochrome outlines)"
)


# The languages LOCALE names (BCP 47, as HarfBuzz takes them), and how a face of a collection
# declares one: its `meta` table's design languages (dlng), else the last word of its family
# name, as CJK collections name their regional faces (Noto Sans CJK JP, Source Han Sans KR).
LANGUAGE_TAGS = {
    "ja": {"ja", "jpan", "jp", "japanese"},
    "ko": {"ko", "kore", "kr", "korean"},
    "zh-Hans": {"zh-hans", "hans", "zh-cn", "sc", "gb"},
    "zh-Hant": {"zh-hant", "hant", "zh-tw", "tc"},
}


def _package_file(package: str, name: str) -> Path:
    # Located without importing the package: these packages only carry font files.
    return Path(importlib.util.find_spec(package).submodule_search_locations[0]) / name


def default_font_path() -> Path:
    """The bundled default font: Noto Sans CJK Regular (OFL) from ``noto-cjk-sans-otc``."""
    return _package_file("noto_cjk_sans_otc", "NotoSansCJK-Regular.ttc")


def fallback_fonts() -> list[tuple[Path, int]]:
    """The fallback chain as (font file, face index), first choice first."""
    return [(_package_file(package, name), face) for package, name, face in FALLBACK_FONTS]


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
    """A glyph outline in em units with y pointing down from the glyph origin: ``codes`` are
    MOVE/LINE/QUAD/CUBIC/CLOSE and ``points`` their points in order."""

    codes: np.ndarray
    points: np.ndarray
    bounds: tuple[float, float, float, float]  # left, top, right, bottom of the points


class _GlyphPen(BasePen):
    """Collects an outline as codes and points, scaled by ``scale`` in x and ``-scale`` in
    y when ``flip`` (font units, y up, to em, y down)."""

    def __init__(self, scale, flip=True):
        super().__init__(None)
        self.scale, self.y_scale = scale, -scale if flip else scale
        self.codes, self.points = [], []

    def _add(self, code, *points):
        self.codes.append(code)
        self.points.extend((x * self.scale, y * self.y_scale) for x, y in points)

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """The codes and the points (one row per point) collected."""
        return (
            np.array(self.codes, dtype=np.uint8),
            np.array(self.points, dtype=np.float64).reshape(-1, 2),
        )

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
    """One face of a font file: HarfBuzz's font for shaping, its character set, metrics, and
    a cache of clean glyph outlines by glyph id."""

    def __init__(self, path: Path, index: int):
        self.path, self.index = Path(path), index
        self.hb_face = hb.Face(hb.Blob.from_file_path(str(self.path)), index)
        # Variable fonts are drawn at their default instance (Regular for every bundled one).
        self.hb_font = hb.Font(self.hb_face)
        self.unicodes = self.hb_face.unicodes
        self.scale = 1.0 / self.hb_face.upem
        font = _faces(self.path)[index]
        self.family = font["name"].getBestFamilyName() or self.path.stem
        metrics = font["OS/2"] if "OS/2" in font else None
        ascent, descent = (
            (metrics.sTypoAscender, -metrics.sTypoDescender)
            if metrics
            else (font["hhea"].ascent, -font["hhea"].descent)
        )
        # The typographic em box above and below the baseline, in em.
        self.ascent, self.descent = ascent * self.scale, descent * self.scale
        self._glyphs, self._nominal = {}, {}

    def nominal(self, code: int, language: str | None = None) -> tuple[int, float]:
        """The glyph id that ``code`` maps to and its horizontal advance in em: the nominal
        glyph, or with ``language`` the one HarfBuzz gives the character alone in that
        language (its ``locl`` form, as 直 in Japanese)."""
        key = (code, language)
        found = self._nominal.get(key)
        if found is None:
            if language is None:
                gid = self.hb_font.get_nominal_glyph(code)
                advance = self.hb_font.get_glyph_h_advance(gid)
            else:
                buffer = hb.Buffer()
                buffer.add_codepoints([code])
                buffer.guess_segment_properties()
                buffer.script, buffer.language = "Hani", language  # as in a name of ideographs
                hb.shape(self.hb_font, buffer)
                gid, advance = buffer.glyph_infos[0].codepoint, buffer.glyph_positions[0].x_advance
            found = self._nominal[key] = (gid, advance * self.scale)
        return found

    def covers(self, text: str) -> bool:
        """Whether the face maps every character of ``text``."""
        return all(ord(char) in self.unicodes for char in text)

    def glyph(self, gid: int) -> Glyph:
        """The outline of glyph ``gid`` with overlapping contours merged (skia-pathops, as
        fontTools' removeOverlaps does), so every output holds one clean outline per letter
        and even-odd and non-zero fills agree."""
        glyph = self._glyphs.get(gid)
        if glyph is None:
            path = pathops.Path()
            self.hb_font.draw_glyph_with_pen(gid, path.getPen())
            path.simplify(fix_winding=True)
            pen = _GlyphPen(self.scale)
            path.draw(pen)
            codes, points = pen.outline()
            low, high = (points.min(axis=0), points.max(axis=0)) if len(points) else ((0, 0),) * 2
            glyph = self._glyphs[gid] = Glyph(codes, points, (*map(float, low), *map(float, high)))
        return glyph


def merge_overlaps(codes: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One outline for glyphs that overlap each other (joined Arabic letters, Indic
    conjuncts, tight kerning): their union, with no contour inside another's ink."""
    path = pathops.Path()
    cursor = 0
    for code in codes:
        if code == CLOSE:
            path.close()
            continue
        count = 1 if code <= LINE else (2 if code == QUAD else 3)
        coordinates = points[cursor : cursor + count].ravel().tolist()
        (
            path.moveTo
            if code == MOVE
            else path.lineTo
            if code == LINE
            else path.quadTo
            if code == QUAD
            else path.cubicTo
        )(*coordinates)
        cursor += count
    path.simplify(fix_winding=True)
    pen = _GlyphPen(1.0, flip=False)
    path.draw(pen)
    return pen.outline()


@functools.lru_cache(maxsize=32)
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
        offsets[platform, encoding] = int.from_bytes(data[8 + 8 * i : 12 + 8 * i], "big")
    for key in ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3)):
        offset = offsets.get(key)
        fmt = None if offset is None else int.from_bytes(data[offset : offset + 2], "big")
        if fmt == 12:
            count = int.from_bytes(data[offset + 12 : offset + 16], "big")
            groups = np.frombuffer(data, ">u4", count=3 * count, offset=offset + 16)
            starts, ends = groups[0::3].astype(np.int64), groups[1::3].astype(np.int64)
            break
        if fmt == 4:
            segments = int.from_bytes(data[offset + 6 : offset + 8], "big") // 2
            ends = np.frombuffer(data, ">u2", count=segments, offset=offset + 14).astype(np.int64)
            starts = np.frombuffer(
                data, ">u2", count=segments, offset=offset + 16 + 2 * segments
            ).astype(np.int64)
            break
    else:
        return len(set(chars.tolist()) & face.getBestCmap().keys())
    segment = np.searchsorted(ends, chars)
    segment_ok = segment < len(ends)
    return int(np.count_nonzero(segment_ok & (starts[np.minimum(segment, len(ends) - 1)] <= chars)))


def _design_languages(face: hb.Face) -> list[str]:
    """The design languages (``dlng``) of a face's ``meta`` table, lower-cased."""
    data = face.reference_table("meta").data
    if len(data) < 16:
        return []
    count = int.from_bytes(data[12:16], "big")
    for k in range(count):
        record = data[16 + 12 * k : 28 + 12 * k]
        if record[:4] == b"dlng":
            offset, length = int.from_bytes(record[4:8], "big"), int.from_bytes(record[8:], "big")
            text = data[offset : offset + length].decode("ascii", "replace")
            return [tag.strip().lower() for tag in text.split(",")]
    return []


def _declared_language(face: hb.Face) -> str | None:
    """The LOCALE language a face declares (see LANGUAGE_TAGS), or None."""
    family = (
        face.get_name(hb.OTNameIdPredefined.TYPOGRAPHIC_FAMILY)
        or face.get_name(hb.OTNameIdPredefined.FONT_FAMILY)
        or ""
    ).split()
    for tag in [*_design_languages(face), family[-1].lower() if family else ""]:
        for language, names in LANGUAGE_TAGS.items():
            if tag in names:
                return language
    return None


@functools.lru_cache(maxsize=32)
def face_languages(path) -> dict[str, int]:
    """For a collection, each LOCALE language some face declares and the first such face's
    index; {} for a single font. Read through HarfBuzz, which maps the file and parses only
    the name and meta tables: a few milliseconds for the bundled collection."""
    blob = hb.Blob.from_file_path(str(path))
    languages = {}
    count = hb.Face(blob).count
    for index in range(count if count > 1 else 0):
        language = _declared_language(hb.Face(blob, index))
        if language is not None:
            languages.setdefault(language, index)
    return languages


def font_faces(path) -> list[dict]:
    """Each face of a font file: ``{"index", "family", "language"}``, the language being the
    LOCALE one the face declares (see LANGUAGE_TAGS) or None."""
    blob = hb.Blob.from_file_path(str(path))
    faces = []
    for index in range(hb.Face(blob).count or 1):
        face = hb.Face(blob, index)
        family = face.get_name(hb.OTNameIdPredefined.FONT_FAMILY) or Path(path).stem
        faces.append({"index": index, "family": family, "language": _declared_language(face)})
    return faces


def choose_face(path, texts, locale: str = "zh-Hans") -> int:
    """The index of the face of ``path`` that covers most distinct characters of ``texts``
    (ties: the face declaring ``locale``, else the default font's Simplified Chinese face,
    else the first face)."""
    try:
        faces = _faces(path)
        if len(faces) == 1:
            return 0
        chars = np.array(
            sorted({ord(c) for text in texts for c in text if not c.isspace()}), dtype=np.int64
        )
        coverage = [_covered(face, chars) for face in faces]
    except Exception as error:
        raise InputError(INVALID) from error
    preferred = face_languages(path).get(
        locale, DEFAULT_FACE if Path(path) == default_font_path() else 0
    )
    return min(range(len(faces)), key=lambda i: (-coverage[i], i != preferred, i))


class Typeface:
    """The chosen face followed by the fallback chain, given as (font file, face index): a
    fallback face is opened the first time a run needs to look at it, so a list the chosen
    face covers (Chinese names on the default font) opens no other."""

    def __init__(self, primary: Face, fallbacks: list[tuple[Path, int]]):
        self.primary = primary
        self._chain = [(Path(path), index) for path, index in fallbacks]
        self._fallbacks = [
            (path, index)
            for path, index in self._chain
            if (path, index) != (primary.path, primary.index)
        ]
        self._languages = {}

    def for_language(self, language: str) -> "Typeface":
        """The same typeface with each collection (the chosen font and the chain's CJK
        collection) at the face that declares ``language``, where one does: the regional
        glyph forms come from the face as well as from the shaping language."""
        found = self._languages.get(language)
        if found is None:
            index = face_languages(self.primary.path).get(language, self.primary.index)
            primary = (
                self.primary if index == self.primary.index else open_face(self.primary.path, index)
            )
            chain = [(path, face_languages(path).get(language, i)) for path, i in self._chain]
            found = self._languages[language] = Typeface(primary, chain)
        return found

    def faces(self):
        """The faces in the order a run looks for one that covers it, opened as reached."""
        yield self.primary
        for path, index in self._fallbacks:
            yield open_face(path, index)

    def face_for(self, text: str) -> Face | None:
        """The first face that maps every character of ``text``, or None."""
        return next((face for face in self.faces() if face.covers(text)), None)


def load_typeface(font_path, face_index: int) -> Typeface:
    """Face ``face_index`` of ``font_path`` (default: the bundled font) followed by the
    fallback chain."""
    primary = open_face(Path(font_path) if font_path else default_font_path(), face_index)
    return Typeface(primary, fallback_fonts())
