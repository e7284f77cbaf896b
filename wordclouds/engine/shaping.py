"""Shaping a name: split into runs by script and by the font that covers them, order the runs
with the Unicode bidirectional algorithm, and shape each with HarfBuzz (kerning, ligatures,
marks, Arabic joining, Indic reordering, vertical alternates). The glyph list it returns is
what every output draws."""

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import uharfbuzz as hb

from .errors import InputError
from .fonts import Face, Typeface, choose_face, default_font_path, load_typeface

# Characters HarfBuzz consumes (joiners, variation selectors, tag and bidi controls) rather
# than draws: Unicode's Default_Ignorable_Code_Point ranges that occur in names.
IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xE0000, 0xE0FFF),
)
EMOJI_MODIFIERS = (0x1F3FB, 0x1F3FF)
REGIONAL_INDICATORS = (0x1F1E6, 0x1F1FF)
ZWJ = "\u200d"
# unicodedata names whose first word is not the script's name.
SCRIPT_WORDS = {"CJK": "Han", "FULLWIDTH": "Latin", "HALFWIDTH": "Katakana"}
# Scripts set upright in a stacked vertical name; the others turn sideways as a unit. They
# are also the runs shaped in the name's language (LOCALE, kana, Hangul: name_language), so
# `locl` gives their regional forms; other scripts keep HarfBuzz's default language.
UPRIGHT = {"Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"}
KANA = re.compile("[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]")


def name_language(text: str, locale: str) -> str:
    """The language a name is drawn in: Japanese when it has kana, Korean when it has
    Hangul, else ``locale`` (which decides the forms of Han characters)."""
    if KANA.search(text):
        return "ja"
    if HANGUL.search(text):
        return "ko"
    return locale


IGNORABLE_CODES = frozenset(code for low, high in IGNORABLE for code in range(low, high + 1))
# The fast path: horizontal names made only of ideographs and spaces that the chosen face
# maps have no shaping needs: each character is its nominal glyph at its advance, which is
# what HarfBuzz gives them with the default features (a test compares the two; kana and
# Hangul are kerned, so they are shaped). Chinese lists, the common case, skip itemizing.
PLAIN_HAN = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
# The ideographs as the body of a regular-expression character class.
HAN_CLASS = "".join(f"{chr(low)}-{chr(high)}" for low, high in PLAIN_HAN)
# At least one ideograph, and spaces: one match per name instead of a test per character.
PLAIN_NAME = re.compile(f"[ {HAN_CLASS}]*[{HAN_CLASS}][ {HAN_CLASS}]*")


def _within(code: int, ranges) -> bool:
    return any(low <= code <= high for low, high in ranges)


def is_ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable character (never drawn by itself)."""
    return ord(char) in IGNORABLE_CODES


def drawable(char: str) -> bool:
    """Whether ``char`` needs a glyph: not white space and not ignorable."""
    return not char.isspace() and not is_ignorable(char)


def script_of(char: str) -> str | None:
    """The script of a letter or symbol (``"Latin"``, ``"Han"``, ``"Emoji"``…), or None for
    characters that take their neighbours' script (digits, punctuation, marks, spaces)."""
    category = unicodedata.category(char)
    if category == "So" and ord(char) >= 0x2190:
        return "Emoji"
    if not category.startswith("L") or category == "Lm" and ord(char) < 0x2000:
        return None
    word = unicodedata.name(char, "").split(" ")[0]
    if "-" in word:  # e.g. KATAKANA-HIRAGANA PROLONGED SOUND MARK: shared by two scripts
        return None
    return SCRIPT_WORDS.get(word, word.capitalize()) if word else None


def _clusters(text: str) -> list[tuple[int, int]]:
    """(start, end) of the user-perceived characters: a base with its marks, ignorables,
    emoji modifiers, ZWJ-joined followers, and regional-indicator pairs (flags)."""
    clusters = []
    for i, char in enumerate(text):
        code = ord(char)
        joins = clusters and (
            unicodedata.category(char).startswith("M")
            or is_ignorable(char)
            or _within(code, (EMOJI_MODIFIERS,))
            or text[i - 1] == ZWJ
            or (
                _within(code, (REGIONAL_INDICATORS,))
                and clusters[-1][1] - clusters[-1][0] == 1
                and _within(ord(text[i - 1]), (REGIONAL_INDICATORS,))
            )
        )
        if joins:
            clusters[-1] = (clusters[-1][0], i + 1)
        else:
            clusters.append((i, i + 1))
    return clusters


def _levels(text: str) -> list[int]:
    """The resolved bidi embedding level of each character (python-bidi's implementation of
    the Unicode algorithm); all 0 when nothing is right-to-left."""
    if not any(
        unicodedata.bidirectional(c) in ("R", "AL", "AN", "RLE", "RLO", "RLI") for c in text
    ):
        return [0] * len(text)
    # Imported here: most lists have no right-to-left name, and the import is a cost of
    # every run.
    from bidi import algorithm as bidi

    storage = bidi.get_empty_storage()
    storage["base_level"] = bidi.get_base_level(text)
    storage["base_dir"] = ("L", "R")[storage["base_level"]]
    bidi.get_embedding_levels(text, storage)
    bidi.explicit_embed_and_overrides(storage)
    bidi.resolve_weak_types(storage)
    bidi.resolve_neutral_types(storage, False)
    bidi.resolve_implicit_levels(storage, False)
    return [char["level"] for char in storage["chars"]]


@dataclass(frozen=True)
class Run:
    """A stretch of the name in one script, bidi level and face: ``start``/``end`` index the
    text in logical order."""

    start: int
    end: int
    script: str
    level: int
    face: Face


def itemize(text: str, typeface: Typeface) -> list[Run]:
    """The runs of ``text`` in logical order. A run gets the chosen face if it covers the
    whole run, else the first face of the chain that does; a run no single face covers is
    split by character cluster the same way. A cluster no face covers keeps the chosen face
    (the caller refuses such names first, see :func:`undrawable`)."""
    clusters = _clusters(text)
    levels = _levels(text)
    scripts = [None] * len(clusters)
    for k, (start, end) in enumerate(clusters):
        scripts[k] = next(filter(None, map(script_of, text[start:end])), None)
    known = next(filter(None, scripts), "Common")
    for k, script in enumerate(scripts):  # common characters take the preceding script
        scripts[k] = known = script or known
    pieces = []  # (start, end, script, level) of clusters with equal script and level
    for k, (start, end) in enumerate(clusters):
        key = (scripts[k], levels[start])
        if pieces and pieces[-1][2:] == key:
            pieces[-1] = (pieces[-1][0], end, *key)
        else:
            pieces.append((start, end, *key))
    runs = []
    for start, end, script, level in pieces:
        face = typeface.face_for(_needed(text[start:end]))
        if face is not None:
            _append(runs, Run(start, end, script, level, face))
            continue
        for c_start, c_end in clusters:
            if start <= c_start < end:
                face = typeface.face_for(_needed(text[c_start:c_end])) or typeface.primary
                _append(runs, Run(c_start, c_end, script, level, face))
    return runs


def _needed(text: str) -> str:
    return "".join(filter(drawable, text))


def _append(runs, run):
    last = runs[-1] if runs else None
    if last and (last.script, last.level, last.face) == (run.script, run.level, run.face):
        runs[-1] = Run(last.start, run.end, run.script, run.level, run.face)
    else:
        runs.append(run)


def undrawable(text: str, typeface: Typeface) -> list[str]:
    """The characters of ``text`` that no face of the typeface maps (ignorables and white
    space need no glyph)."""
    return [
        char
        for char in dict.fromkeys(text)
        if drawable(char) and not any(ord(char) in face.unicodes for face in typeface.faces())
    ]


def visual_order(runs: list[Run]) -> list[Run]:
    """The runs in display order (rule L2: reverse each sequence at level ≥ k, highest k
    first)."""
    order = list(runs)
    highest = max((run.level for run in runs), default=0)
    lowest_odd = min((run.level for run in runs if run.level % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if order[i].level < level:
                i += 1
                continue
            j = i
            while j < len(order) and order[j].level >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    return order


@dataclass(frozen=True)
class ShapedGlyph:
    """One positioned glyph in em units, y down: its glyph origin at (``x``, ``y``); with
    ``sideways`` its outline is turned 90° clockwise (a horizontal run in a stacked name).
    ``cluster`` is the index of the first character it draws."""

    face: Face
    gid: int
    x: float
    y: float
    advance: float
    cluster: int
    sideways: bool = False


def _shape(codes: list[int], run: Run, direction: str, language: str | None):
    buffer = hb.Buffer()
    buffer.add_codepoints(codes, run.start, run.end - run.start)
    buffer.guess_segment_properties()
    buffer.direction = direction
    if language and run.script in UPRIGHT:
        buffer.language = language
    buffer.flags = hb.BufferFlags.REMOVE_DEFAULT_IGNORABLES
    hb.shape(run.face.hb_font, buffer)
    return zip(buffer.glyph_infos, buffer.glyph_positions)


def shape_text(
    text: str, typeface: Typeface, *, stacked: bool = False, language: str | None = None
):
    """Shape ``text``: returns ``(glyphs, runs, advance)`` with the glyphs in display order,
    the runs in logical order and the total advance in em. Horizontal from the origin along
    the baseline; ``stacked`` top to bottom from y = 0 along x = 0, upright scripts with
    their vertical forms and metrics, other runs turned sideways as a unit. CJK runs are
    shaped in ``language`` (BCP 47: ``ja``, ``ko``, ``zh-Hans``, ``zh-Hant``), which picks
    their ``locl`` forms."""
    if not stacked:
        plain = _plain_shape(text, typeface.primary, language)
        if plain is not None:
            return plain
    codes = [ord(char) for char in text]
    runs = itemize(text, typeface)
    glyphs, pen = [], 0.0
    for run in visual_order(runs) if not stacked else runs:
        scale = run.face.scale
        upright = stacked and run.script in UPRIGHT
        direction = "ttb" if upright else ("rtl" if run.level % 2 else "ltr")
        centre = (run.face.ascent - run.face.descent) / 2
        for info, position in _shape(codes, run, direction, language):
            x, y = position.x_offset * scale, -position.y_offset * scale
            if upright:
                advance = -position.y_advance * scale
                glyphs.append(
                    ShapedGlyph(run.face, info.codepoint, x, pen + y, advance, info.cluster)
                )
            elif stacked:
                # Sideways: the run's baseline runs down the column, centred on x = 0.
                advance = position.x_advance * scale
                glyphs.append(
                    ShapedGlyph(
                        run.face, info.codepoint, -y - centre, pen + x, advance, info.cluster, True
                    )
                )
            else:
                advance = position.x_advance * scale
                glyphs.append(
                    ShapedGlyph(run.face, info.codepoint, pen + x, y, advance, info.cluster)
                )
            pen += advance
    return glyphs, runs, pen


def _plain_shape(text: str, face: Face, language: str | None):
    """The fast path's ``shape_text`` result, or None when the name needs real shaping."""
    if not PLAIN_NAME.fullmatch(text) or not face.covers(text):
        return None
    glyphs, pen = [], 0.0
    for index, char in enumerate(text):
        gid, advance = face.nominal(ord(char), language)
        glyphs.append(ShapedGlyph(face, gid, pen, 0.0, advance, index))
        pen += advance
    return glyphs, [Run(0, len(text), "Han", 0, face)], pen


def check_drawable(names, font_path, locale: str = "zh-Hans") -> Typeface:
    """The typeface for ``names`` (a list of :class:`Name`): the face of ``font_path``
    (default: the bundled font) covering most of them (ties: the face declaring ``locale``),
    then the fallback chain.

    Raises :class:`InputError` naming the first name with a character no face can draw, its
    row and the code points, since a name drawn with a gap is worse than a name refused.
    """
    font_path = Path(font_path) if font_path else default_font_path()
    texts = [name.text for name in names]
    typeface = load_typeface(font_path, choose_face(font_path, texts, locale))
    if not undrawable("".join({char for name in names for char in name.text}), typeface):
        return typeface  # every character drawable: no need to find the first bad name
    for name in names:
        missing = undrawable(name.text, typeface)
        if missing:
            points = ", ".join(f"U+{ord(char):04X}" for char in missing)
            raise InputError(
                f'name_list row {name.row}: "{name.text}" has characters no '
                f"font can draw ({points}); remove them or choose a font that "
                "has them"
            )
    return typeface
