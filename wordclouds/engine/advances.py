"""The names' horizontal ink boxes at 1 px without drawing their outlines, for the size
advice (docs/engine.md, "Printed size"). A name of ideographs, kana, Hangul syllables, spaces
and the letters, digits and punctuation of the Latin, Greek and Cyrillic alphabets (no
combining mark), all in the face of its language, is measured from a table of its characters'
advances and ink bounds, all such names at once with numpy: for ideographs and spaces that is
what :func:`shaping.shape_text` sets, for the others it leaves out kerning and ligatures
(within BOX_ERROR of the shaped width, tests/engine/test_size_advice.py). Any other name is
shaped with HarfBuzz and measured from its glyphs' bounds. Only each distinct text is
measured."""

import re

import numpy as np

from .outlines import glyph_box, union_box
from .shaping import HAN_CLASS, name_language, shape_text

# The names the table measures: ideographs, spaces, and Latin (Basic Latin to Latin
# Extended-B), Greek and Cyrillic letters, digits and punctuation; no control character, soft
# hyphen (HarfBuzz drops it) or combining mark (the Cyrillic ones at U+0483-0489).
ALPHABETS_CLASS = "\u0020-\u007e\u00a1-\u00ac\u00ae-\u024f\u0370-\u0482\u048a-\u04ff"
# Kana (without the combining sound marks U+3099-309A) and Hangul syllables and compatibility
# letters (not the conjoining jamo, which shaping composes): set in the name's language.
KANA_HANGUL_CLASS = (
    "\u3041-\u3098\u309b-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f\u3131-\u318e\uac00-\ud7a3"
)
TABLE_NAME = re.compile(f"[{ALPHABETS_CLASS}{HAN_CLASS}{KANA_HANGUL_CLASS}]+")
# How far a name's box from the table may be from its shaped one (relative): kerning pulls
# pairs such as "AV" or small kana together, a digit or letter in a run of ideographs takes
# the run's regional form; names of ideographs and spaces are exact. The names' total area, which the
# advice rests on, is within AREA_ERROR on the test lists.
BOX_ERROR = 0.05
AREA_ERROR = 0.01
REGIONAL_CHARACTER = re.compile(f"[{HAN_CLASS}{KANA_HANGUL_CLASS}]")


def unit_boxes(texts, typeface, locale: str) -> tuple[np.ndarray, np.ndarray]:
    """Width and height (em) of each text's horizontal ink box, as the layout's outlines
    would give them (glyph boxes joined rather than the merged outline's points: the same
    unless glyphs overlap)."""
    distinct = {}
    inverse = np.fromiter(
        (distinct.setdefault(text, len(distinct)) for text in texts), np.int64, len(texts)
    )
    texts = list(distinct)
    by_language = {}  # the names the table measures, by the language they are drawn in
    for i, text in enumerate(texts):
        if TABLE_NAME.fullmatch(text) and not text.isspace():
            by_language.setdefault(name_language(text, locale), []).append(i)
    widths, heights = np.zeros(len(texts)), np.zeros(len(texts))
    tabled = set()
    for language, indexes in by_language.items():
        primary = typeface.for_language(language).primary
        covered = [i for i in indexes if primary.covers(texts[i])]
        if covered:
            boxes = _table_boxes([texts[i] for i in covered], primary, language)
            widths[covered], heights[covered] = boxes
            tabled.update(covered)
    for i in sorted(set(range(len(texts))) - tabled):
        left, top, right, bottom = shaped_bounds(texts[i], typeface, locale)
        widths[i], heights[i] = right - left, bottom - top
    return widths[inverse], heights[inverse]


def _table_boxes(texts, face, language) -> tuple[np.ndarray, np.ndarray]:
    """The ink boxes of names TABLE_NAME matches, set in ``face``: each character at the pen
    position its predecessors' advances reach, the box joining its glyphs' bounds."""
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), "<u4")
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    table, index = np.unique(codes, return_inverse=True)
    advances, lefts, tops, rights, bottoms = _character_table(table, face, language)
    advance = advances[index]
    before = np.cumsum(advance) - advance  # the pen before each character, from the list's start
    pen = before - np.repeat(before[starts], lengths)
    left = np.minimum.reduceat(pen + lefts[index], starts)
    right = np.maximum.reduceat(pen + rights[index], starts)
    top, bottom = (
        np.minimum.reduceat(tops[index], starts),
        np.maximum.reduceat(bottoms[index], starts),
    )
    return right - left, bottom - top


def _character_table(codes, face, language):
    """Each character's advance and its glyph's ink bounds (em; a character without ink, a
    space, has bounds that never win a minimum or maximum): an ideograph's, kana's or
    Hangul's glyph in ``language`` (its regional form), any other the nominal one."""
    table = np.empty((5, len(codes)))
    for k, code in enumerate(codes.tolist()):
        regional = REGIONAL_CHARACTER.match(chr(code))
        gid, advance = face.nominal(code, language if regional else None)
        glyph = face.glyph(gid)
        bounds = glyph.bounds if glyph.codes.size else (np.inf, np.inf, -np.inf, -np.inf)
        table[:, k] = (advance, *bounds)
    return table


def shaped_bounds(text: str, typeface, locale: str) -> tuple[float, float, float, float]:
    """The horizontal ink bounds (left, top, right, bottom, em) of a name shaped with
    HarfBuzz in its language, from its glyphs' bounds; its typographic box when nothing
    inks."""
    language = name_language(text, locale)
    typeface = typeface.for_language(language)
    glyphs, _, advance = shape_text(text, typeface, language=language)
    boxes = [
        glyph_box(shaped, glyph)
        for shaped in glyphs
        if (glyph := shaped.face.glyph(shaped.gid)).codes.size
    ]
    if not boxes:
        return 0.0, -typeface.primary.ascent, advance, typeface.primary.descent
    return union_box(boxes)
