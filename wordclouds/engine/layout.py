"""One layout's state and the placing of one word in it, the same for a first layout
(planning.py) and a revision (revision/arrange.py): the occupancy, the gap searched around a
word, a word at a random free spot, at a given spot, near a spot, or stamped from the ink a
layout kept of it."""

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from .mask import Mask
from .names import Name
from .occupancy import (
    UNIFORMS_PER_CANDIDATE,
    WORD_SLOTS,
    best_spot,
    find_fit,
    new_hopeless,
    new_occupancy,
    stamp,
)
from .outlines import WordOutline, resolve_style, word_outline
from .raster import coverage
from .restamp import ink_bits, ink_paths
from .shaping import name_language

# Without MIN_FONT_SIZE, words stay legible at 8 px; only when that cannot hold every name
# does a last attempt go down to 4 px.
DEFAULT_MIN_FONT_SIZE = 8.0
FLOOR_FONT_SIZE = 4.0
SHRINK = 0.88  # a word that does not fit is retried this much smaller
# Coverage below this is invisible in an 8-bit image and does not count as ink.
INK_THRESHOLD = 1 / 512
CANDIDATES = 3  # spots tried per word; the snuggest wins
REACHES = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
)  # window heights tried around a spot (place_near), in its heights


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

    def search_box(self, outline: WordOutline, size: float, vertical: bool):
        """The box searched for a word: its ink box at ``size`` px widened along the reading
        direction (across for a horizontal word, down the column for a vertical one) by
        :meth:`pad` on each side, so a reading-direction neighbour stays ``NAME_GAP × size``
        away (MARGIN elsewhere), also diagonally from the box's corners (the ears of
        :func:`occupancy.ears_clear`). Returns its width and height, the two pads and the
        ears' settings (occupancy.py's ``ears``)."""
        _, _, width, height = outline.box(size)
        pad = self.pad(size)
        pad_x, pad_y = (0, pad) if vertical else (pad, 0)
        reading = np.array([pad, self.margin, 2 if vertical else 1], dtype=np.int64)
        ears = (self.words, self.boxes, reading)
        return width + 2 * pad_x, height + 2 * pad_y, pad_x, pad_y, ears

    def try_place(self, outline: WordOutline, size: float, vertical: bool):
        """Place ``outline`` at ``size`` px if a spot exists and return its ink box and ink
        (:meth:`stamp_word`), else None. Of a few spots found from random points, each slid
        in a random direction until it touches something, the snuggest wins: that keeps the
        free space in few pieces. The box searched is :meth:`search_box`."""
        search_w, search_h, pad_x, pad_y, ears = self.search_box(outline, size, vertical)
        if self._hopeless(search_w, search_h):
            return None
        uniforms = self.rng.random(CANDIDATES * UNIFORMS_PER_CANDIDATE)
        x, y = best_spot(
            self.runs,
            self.row_max,
            self.cell_max,
            self.hopeless,
            self.inside,
            ears,
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

    def place_word(self, name: Name, repetition: int, size: float, min_size: float, shapes, turn):
        """``name`` placed at a random free spot (:meth:`try_place`) as a :class:`Placement`,
        or None: vertical with probability ``1 - turn[0]`` (PREFER_HORIZONTAL, drawn from
        the layout's generator), then, when ``turn[1]`` and both orientations are allowed, in
        the other one, each at ``size`` px and then smaller (by SHRINK) down to ``min_size``."""
        prefer_horizontal, both = turn
        vertical = bool(self.rng.random() >= prefer_horizontal)
        both = both and 0 < prefer_horizontal < 1
        orientations = (vertical, not vertical) if both else (vertical,)
        size = round(size, 2)
        while True:
            for orientation in orientations:
                outline, style = shapes.get(name.text, orientation)
                stamped = self.try_place(outline, size, orientation)
                if stamped is not None:
                    placement = Placement(name, repetition, size, orientation, style, outline,
                                          stamped[0], stamped[0])  # fmt: skip
                    return self.framed(placement, stamped)
            if size <= min_size:
                return None
            size = round(max(min_size, size * SHRINK), 2)

    def fits_at(self, outline: WordOutline, size: float, vertical: bool, spot) -> bool:
        """Whether the word fits with its ink box's top-left exactly at ``spot``, its gap
        (:meth:`search_box`) kept."""
        search_w, search_h, pad_x, pad_y, ears = self.search_box(outline, size, vertical)
        x, y = spot[0] - pad_x, spot[1] - pad_y
        height, width = self.inside.shape
        if x < 0 or y < 0 or x + search_w > width or y + search_h > height:
            return False
        found = find_fit(self.runs, self.row_max, self.cell_max, self.hopeless,
                         search_w, search_h, x, y, y, y + search_h, ears)  # fmt: skip
        return (int(found[0]), int(found[1])) == (x, y)

    def place_near(self, placement: Placement, centre, min_size: float):
        """``placement`` placed again as near as possible to ``centre``: the first free spot
        in reading order from there within a band of rows around it, the band doubled until
        one is found; at its size first, then smaller down to ``min_size``. None when it
        finds no room."""
        size = placement.font_size
        while True:
            search_w, search_h, pad_x, pad_y, ears = self.search_box(
                placement.outline, size, placement.vertical
            )
            start_x, start_y = int(centre[0] - search_w / 2), int(centre[1] - search_h / 2)
            for reach in REACHES:
                top = max(self.top, start_y - reach * search_h)
                bottom = min(self.bottom, start_y + (reach + 1) * search_h)
                x, y = find_fit(self.runs, self.row_max, self.cell_max, self.hopeless,
                                search_w, search_h, max(0, start_x), start_y, top, bottom, ears)  # fmt: skip
                if x >= 0:
                    stamped = self.stamp_word(
                        placement.outline, size, placement.vertical, int(x + pad_x), int(y + pad_y)
                    )
                    return self.framed(replace(placement, font_size=size), stamped)
                if top == self.top and bottom == self.bottom:
                    break
            if size <= min_size:
                return None
            size = round(max(min_size, size * SHRINK), 2)

    def framed(self, placement: Placement, stamped) -> Placement:
        """``placement`` where ``stamped`` (:meth:`stamp_word`'s ink box and ink) put it, its
        box the typographic box there cut to the canvas."""
        ink_box, ink = stamped
        box = self.clip(placement.outline.frame_box(placement.font_size, *ink_box[:2]))
        return replace(placement, ink_box=tuple(int(v) for v in ink_box), box=box, ink=ink)

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

    def stamp_kept(self, boxes, kinds, blocked, *, bits=None, starts=None, paths=None) -> None:
        """Mark as occupied the words another layout kept, without shaping them: ``boxes``
        their ink boxes (n × 4), ``kinds`` 1 horizontal / 2 vertical, and their ink either
        packed (``bits`` from ``starts``, restamp.ink_bits) or as path data (``paths``, the
        very points the other layout's PNG was painted from, restamp.ink_paths). The ink is
        marked by the compiled passes of restamp.py, in two halves on two threads where each
        word keeps a slot of its own (their pixels never meet), grown by MARGIN, and the
        occupancy grid built from it and the ``blocked`` pixels (outside the shape). Must
        come before any other stamp, in a layout made with ``occupied`` False."""
        ink = np.zeros(blocked.shape, dtype=bool)
        count = len(boxes)
        cut = count if self.placed + count > self.boxes.shape[0] else count // 2
        halves = [(0, count)] if cut == count else [(0, cut), (cut, count)]

        def stamp_half(half):
            begin, end = half
            if begin == end:
                return
            first_slot = self.placed + begin
            if paths is None:
                ink_bits(ink, self.words, self.boxes, bits, starts[begin:end], boxes[begin:end],
                         kinds[begin:end], first_slot)  # fmt: skip
                return
            data = paths[begin:end]
            ends = np.cumsum([len(d) for d in data])
            ink_paths(ink, self.words, self.boxes, np.frombuffer(b"".join(data), dtype=np.uint8),
                      ends, boxes[begin:end], kinds[begin:end], first_slot, INK_THRESHOLD)  # fmt: skip

        with ThreadPoolExecutor(max_workers=len(halves)) as pool:
            list(pool.map(stamp_half, halves))
        self.placed += count
        self.runs, self.row_max, self.row_start, self.cell_max = new_occupancy(
            blocked, ink, self.margin
        )


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
