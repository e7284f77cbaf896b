"""Placing every name: font sizes planned from the area left and the names' weights, heaviest
(then largest) first, each word at the first free spot in reading order from a random point of
the shape."""

import math
from dataclasses import dataclass

import numpy as np

from .errors import LayoutError
from .mask import Mask
from .names import Name
from .occupancy import (
    UNIFORMS_PER_CANDIDATE,
    WORD_SLOTS,
    best_spot,
    new_hopeless,
    new_occupancy,
    stamp,
)
from .outlines import WordOutline, resolve_style, word_outline
from .params import Params
from .raster import coverage
from .shaping import name_language

# Without MIN_FONT_SIZE, words stay legible at 8 px; only when that cannot hold every name
# does a last attempt go down to 4 px.
DEFAULT_MIN_FONT_SIZE = 8.0
FLOOR_FONT_SIZE = 4.0
SHRINK = 0.88  # a word that does not fit is retried this much smaller
# The share of the free area the remaining words are planned to fill starts from
# FILL_START - FILL_CROWDING × crowding (at most 0.45), where crowding is the area all names
# would take at the smallest size over the shape's area; a failed attempt starts over with
# FILL_RETRY times the share. Tuned on the three benchmark cases (crowding 0.25–0.40).
FILL_START, FILL_CROWDING, FILL_RETRY, ATTEMPTS = 0.6, 0.5, 0.85, 3
SIZE_SPREAD = 0.6  # exponent of the size profile: the first words are largest
REPEAT_SHRINK = 0.7
# Coverage below this is invisible in an 8-bit image and does not count as ink.
INK_THRESHOLD = 1 / 512
CANDIDATES = 3  # spots tried per word; the snuggest wins


@dataclass
class Placement:
    """One drawn word: its name, size, orientation and pixel box on the canvas."""

    name: Name
    repetition: int
    font_size: float
    vertical: bool
    style: str
    outline: WordOutline
    ink_box: tuple[int, int, int, int]
    box: tuple[int, int, int, int]  # the typographic box joined with the ink box, on canvas
    # The pixels of ink_box that are ink, row by row, packed eight to a byte (np.packbits),
    # as stamped; None for a word not stamped in this layout (a revision's parent words).
    ink: np.ndarray | None = None


class Layout:
    """The state of one placement attempt: occupancy, free area and failed box sizes."""

    def __init__(self, mask: Mask, margin: float, name_gap: float, rng, occupied=True):
        """``occupied`` False: the caller sets the occupancy grid itself (a revision builds
        it with the words that stay, restamp.py), so it is not built empty first."""
        if occupied:
            self.runs, self.row_max, self.row_start, self.cell_max = new_occupancy(~mask.inside)
        self.hopeless = new_hopeless(mask.height)
        # Whose ink each pixel is, as slots of ``boxes`` (ink box and orientation): see
        # occupancy.ears_clear.
        self.words = np.zeros(mask.inside.shape, dtype=np.uint16)
        self.boxes = np.zeros((WORD_SLOTS, 5), dtype=np.int64)
        self.placed = 0
        rows = np.flatnonzero(mask.inside.any(axis=1))
        cols = np.flatnonzero(mask.inside.any(axis=0))
        self.top, self.bottom = int(rows[0]), int(rows[-1]) + 1
        self.left, self.right = int(cols[0]), int(cols[-1]) + 1
        self.inside = mask.inside
        self.free = float(mask.area)
        self.margin = math.ceil(margin)
        self.name_gap = name_gap
        self.rng = rng
        self.bounds = np.array([self.top, self.bottom, self.left, self.right])
        # Box sizes that found no place: a box at least as large in both sides cannot either.
        self.failed = []

    def _hopeless(self, width, height):
        return any(w <= width and h <= height for w, h in self.failed)

    def _remember_failure(self, width, height):
        self.failed = [(w, h) for w, h in self.failed if w < width or h < height]
        self.failed.append((width, height))

    def clip(self, box):
        """``box`` cut to the canvas."""
        height, width = self.inside.shape
        x0, y0 = max(0, box[0]), max(0, box[1])
        x1, y1 = min(width, box[0] + box[2]), min(height, box[1] + box[3])
        return x0, y0, x1 - x0, y1 - y0

    def try_place(self, outline: WordOutline, size: float, vertical: bool):
        """Place ``outline`` at ``size`` px if a spot exists and return its ink box and ink
        (:meth:`stamp_word`), else None. Of a few spots found from random points, each slid
        in a random direction until it touches something, the snuggest wins: that keeps the
        free space in few pieces.

        The box searched is the ink box widened along the reading direction (across for a
        horizontal word, down the column for a vertical one) by :meth:`pad` on each side, so
        a reading-direction neighbour stays ``NAME_GAP × size`` away (MARGIN elsewhere), also
        diagonally from the box's corners (the ears of :func:`occupancy.ears_clear`)."""
        left, top, width, height = outline.box(size)
        pad = self.pad(size)
        pad_x, pad_y = (0, pad) if vertical else (pad, 0)
        kind = 2 if vertical else 1
        reading = np.array([pad, self.margin, kind], dtype=np.int64)
        search_w, search_h = width + 2 * pad_x, height + 2 * pad_y
        if self._hopeless(search_w, search_h):
            return None
        uniforms = self.rng.random(CANDIDATES * UNIFORMS_PER_CANDIDATE)
        x, y = best_spot(
            self.runs,
            self.row_max,
            self.cell_max,
            self.hopeless,
            self.inside,
            (self.words, self.boxes, reading),
            search_w,
            search_h,
            self.bounds,
            CANDIDATES,
            uniforms,
        )
        if x < 0:
            self._remember_failure(search_w, search_h)
            return None
        return self.stamp_word(outline, size, vertical, int(x + pad_x), int(y + pad_y))

    def stamp_word(self, outline: WordOutline, size: float, vertical: bool, x: int, y: int):
        """Mark ``outline`` at ``size`` px placed with its ink box's top-left at (x, y) as
        occupied (its ink grown by MARGIN, and owned by a new slot); return the ink box and
        its ink pixels packed (:attr:`Placement.ink`)."""
        left, top, width, height = outline.box(size)
        pad = self.pad(size)
        pad_x, pad_y = (0, pad) if vertical else (pad, 0)
        cover = coverage(outline.polygon, outline.contour_ends, size, left, top, height, width)
        ink = cover > INK_THRESHOLD
        slot = self.placed % WORD_SLOTS
        self.boxes[slot] = x, y, width, height, 2 if vertical else 1
        self.placed += 1
        occupancy = (self.runs, self.row_max, self.row_start, self.cell_max, self.words)
        stamp(*occupancy, slot + 1, ink, x, y, self.margin)
        # Neighbours share the gap between them, so each word takes one pad's worth of it.
        self.free -= (width + pad_x + self.margin) * (height + pad_y + self.margin)
        return (x, y, width, height), np.packbits(ink)

    def pad(self, size: float) -> int:
        """Extra room on each side along a word's reading direction: with the MARGIN grown
        around every placed word's ink, the gap to a word placed earlier is at least
        ``NAME_GAP × size``. Only the later word pads, since ``a ≥ min(a, b)`` whatever the
        earlier word's size, and words come roughly largest first, so the pad is mostly
        that of the smaller word."""
        return reading_pad(size, self.margin, self.name_gap)


def reading_pad(size: float, margin: int, name_gap: float) -> int:
    """:meth:`Layout.pad` of a layout with this (whole) ``margin`` and ``name_gap``."""
    return max(0, math.ceil(name_gap * size - margin))


class WordShapes:
    """Word outlines per (text, vertical), built once per distinct name, each in its
    language (:func:`name_language`: kana Japanese, Hangul Korean, else ``locale``) with the
    faces that declare it."""

    def __init__(self, typeface, vertical_style, locale="zh-Hans"):
        self.typeface, self.vertical_style, self.locale = typeface, vertical_style, locale
        self._outlines = {}

    def get(self, text: str, vertical: bool) -> tuple[WordOutline, str]:
        """The outline of ``text`` and its vertical style (``stack``/``rotate``, or ``""``)."""
        key = (text, vertical)
        if key not in self._outlines:
            style = resolve_style(text, self.vertical_style) if vertical else ""
            language = name_language(text, self.locale)
            outline = word_outline(
                text,
                self.typeface.for_language(language),
                vertical=vertical,
                style=style,
                language=language,
            )
            self._outlines[key] = (outline, style)
        return self._outlines[key]


def _unit_boxes(names, shapes, name_gap):
    """Width and height of each name's horizontal ink box at 1 px, the width with the
    NAME_GAP it keeps from its neighbour on the line."""
    bounds = np.array([shapes.get(n.text, False)[0].bounds for n in names]).reshape(-1, 4)
    return bounds[:, 2] - bounds[:, 0] + name_gap, bounds[:, 3] - bounds[:, 1]


def _crowding(names, shapes, size, margin):
    """The area every name takes, horizontal at ``size`` px with its margin (not the name
    gap: counting it starts every list with smaller words and covers less, measured on the
    3,000-name heart)."""
    unit_w, unit_h = _unit_boxes(names, shapes, 0.0)
    return float(np.sum((size * unit_w + margin) * (size * unit_h + margin)))


def _planned_sizes(units, target_area, done):
    """The font-size scale s for the words from index ``done`` on, solving
    sum((w s r + m)(h s r + m)) = target_area over them (w, h: unit box; r: profile)."""
    a, b, c = units[0][done], units[1][done], units[2][done]
    if target_area <= c:
        return 0.0
    return (-b + math.sqrt(b * b + 4 * a * (target_area - c))) / (2 * a) if a > 0 else 0.0


def place_words(
    names: list[Name],
    shapes: WordShapes,
    mask: Mask,
    params: Params,
    seed: int,
    report=lambda done, total, message: None,
) -> list[Placement]:
    """Place every name once (and up to N_REPETITIONS times where room is left).

    Raises :class:`LayoutError` when some names find no place at MIN_FONT_SIZE even after
    retrying with smaller words.
    """
    min_size = params.min_font_size or DEFAULT_MIN_FONT_SIZE
    max_size = params.max_font_size or max(min_size, min(mask.height, mask.width) / 4)
    crowding = _crowding(names, shapes, min_size, math.ceil(params.margin)) / mask.area
    first = min(0.45, max(0.2, FILL_START - FILL_CROWDING * crowding))
    attempts = [(first * FILL_RETRY**n, min_size) for n in range(ATTEMPTS)]
    if params.min_font_size is None:
        attempts.append((attempts[-1][0], FLOOR_FONT_SIZE))
    unplaced = []
    weights = np.array([name.weight for name in names])
    for attempt, (fill, min_size) in enumerate(attempts):
        rng = np.random.default_rng([seed, attempt])
        # Heavier names first; equal weights (all of them without a weight column) in a
        # seeded random order.
        shuffled = rng.permutation(len(names))
        order = shuffled[np.argsort(-weights[shuffled], kind="stable")]
        layout = Layout(mask, params.margin, params.name_gap, rng)
        prefix = f"attempt {attempt + 1} of {len(attempts)}: " if attempt else ""
        if attempt:
            report(
                0,
                len(names),
                f"{prefix}retrying with smaller words ({len(unplaced)} names did not fit)",
            )
        placements, unplaced = _place_primaries(
            [names[i] for i in order],
            shapes,
            layout,
            params,
            (min_size, max_size),
            fill,
            lambda done, total, message: report(done, total, prefix + message),  # noqa: B023
        )
        if not unplaced:
            _place_repeats(placements, shapes, layout, params, min_size)
            return placements
    raise LayoutError(
        f"{len(unplaced)} of {len(names)} names did not fit; use a larger canvas (WIDTH and "
        f"HEIGHT, or a larger mask image) or a smaller MIN_FONT_SIZE (now {min_size:g} px)"
    )


def size_profile(weights: np.ndarray, relative_scaling: float) -> np.ndarray:
    """The planned relative size of each name, for names in placing order (heaviest first):
    the rank profile ``(1 + k / (N/100))^-0.6`` to the power ``1 - relative_scaling`` times
    ``(weight / largest weight)^relative_scaling``. Both factors never grow along the order,
    so a heavier name is never planned smaller; with equal weights (no weight column) it is
    the rank profile alone, whatever RELATIVE_SCALING."""
    count = len(weights)
    profile = (1.0 + np.arange(count) / max(1.0, count / 100)) ** -SIZE_SPREAD
    heaviest = float(weights.max()) if count else 0.0
    if heaviest <= 0 or float(weights.min()) == heaviest:
        return profile
    return profile ** (1 - relative_scaling) * (weights / heaviest) ** relative_scaling


def _weighted_sizes(units, profile, unit_boxes, margin, free, fill, size_range):
    """Font sizes for weighted names: one scale for all, ``clip(scale × profile)``, so sizes
    follow the weights exactly (never a lighter name larger), chosen so the words take the
    area the unweighted planner would give them. That planner solves the scale again
    before each word against the area left, and the scale grows as it goes: used as is,
    a later, lighter name could come out larger than a heavier one."""
    min_size, max_size = size_range
    unit_w, unit_h = unit_boxes
    left = free
    for k in range(len(profile)):  # the unweighted planner's course, without placing
        size = min(max_size, max(min_size, _planned_sizes(units, fill * left, k) * profile[k]))
        left -= (unit_w[k] * size + margin) * (unit_h[k] * size + margin)
    total = free - left

    def area(scale):
        sizes = np.clip(scale * profile, min_size, max_size)
        return float(np.sum((unit_w * sizes + margin) * (unit_h * sizes + margin)))

    low, high = 0.0, max_size / max(float(profile[profile > 0].min(initial=1.0)), 1e-9)
    for _ in range(60):  # bisection: area() never decreases with the scale
        middle = (low + high) / 2
        low, high = (middle, high) if area(middle) < total else (low, middle)
    return np.clip(low * profile, min_size, max_size)


def _place_primaries(names, shapes, layout, params, size_range, fill, report):
    min_size, max_size = size_range
    count = len(names)
    margin = layout.margin
    profile = size_profile(np.array([name.weight for name in names]), params.relative_scaling)
    unit_w, unit_h = _unit_boxes(names, shapes, params.name_gap)
    suffix = lambda v: np.cumsum(v[::-1])[::-1]  # noqa: E731 - sums over the words left
    units = (
        suffix(unit_w * unit_h * profile**2),
        suffix(margin * profile * (unit_w + unit_h)),
        suffix(np.full(count, float(margin * margin))),
    )
    placements, unplaced = [], []
    step = max(1, count // 200)
    weighted = params.weight_col_index is not None
    if weighted:
        planned = _weighted_sizes(
            units, profile, (unit_w, unit_h), margin, layout.free, fill, size_range
        )
    for k, name in enumerate(names):
        if k % step == 0:
            report(k, count, f"placed {k} of {count} names")
        if weighted:
            size = float(planned[k])
        else:
            scale = _planned_sizes(units, fill * layout.free, k)
            size = min(max_size, max(min_size, float(scale * profile[k])))
        vertical = bool(layout.rng.random() >= params.prefer_horizontal)
        placement = _place_one(name, 1, vertical, size, min_size, shapes, layout, params)
        if placement is None:
            unplaced.append(name)
        else:
            placements.append(placement)
    return placements, unplaced


def _place_one(name, repetition, vertical, size, min_size, shapes, layout, params):
    both = 0 < params.prefer_horizontal < 1
    orientations = (vertical, not vertical) if both else (vertical,)
    size = round(size, 2)
    while True:
        for orientation in orientations:
            outline, style = shapes.get(name.text, orientation)
            stamped = layout.try_place(outline, size, orientation)
            if stamped is not None:
                ink_box, ink = stamped
                box = layout.clip(outline.frame_box(size, ink_box[0], ink_box[1]))
                return Placement(
                    name, repetition, size, orientation, style, outline, ink_box, box, ink
                )
        if size <= min_size:
            return None
        size = round(max(min_size, size * SHRINK), 2)


def _place_repeats(placements, shapes, layout, params, min_size):
    firsts = list(placements)
    for repetition in range(2, params.n_repetitions + 1):
        for i in layout.rng.permutation(len(firsts)):
            first = firsts[i]
            size = max(min_size, first.font_size * REPEAT_SHRINK ** (repetition - 1))
            vertical = bool(layout.rng.random() >= params.prefer_horizontal)
            placement = _place_one(
                first.name, repetition, vertical, size, min_size, shapes, layout, params
            )
            if placement is not None:
                placements.append(placement)
