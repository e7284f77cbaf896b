"""The placing of a revision: the words that stay stamped from the parent, the pinned,
renamed, displaced and added ones placed again."""

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np

from ..layout import (
    DEFAULT_MIN_FONT_SIZE,
    INK_THRESHOLD,
    SHRINK,
    Layout,
    Placement,
    reading_pad,
)
from ..occupancy import find_fit, new_occupancy
from ..restamp import ink_bits, ink_paths
from .parent import _ink_box_at

REACHES = (1, 2, 4, 8, 16, 32, 64)  # window heights tried around a displaced word, in its heights
MAX_VICTIMS = 50  # words moved aside for added names that find no room, at most


def _boxes_touch(a: np.ndarray, b, gap) -> np.ndarray:
    """Whether each box (x, y, w, h) of ``a`` (rows) comes closer than ``gap`` pixels (one
    each, or one for all) to box ``b``."""
    x, y, w, h = a.T
    return (
        (x < b[0] + b[2] + gap)
        & (b[0] < x + w + gap)
        & (y < b[1] + b[3] + gap)
        & (b[1] < y + h + gap)
    )


def _displaced(placements, pinned, kept_out, config) -> set:
    """The words an edit needs the space of: ink under a keep-out shape, or within the gap
    (MARGIN, or the name gap where it is wider, by the larger of the two words' sizes) of a
    pinned (moved or resized) word."""
    reach = math.ceil(config.margin)
    ids = np.array([i for i in placements if i not in pinned], dtype=np.int64)
    boxes = np.array([placements[i].ink_box for i in ids], dtype=np.int64).reshape(-1, 4)
    sizes, which = np.unique([placements[i].font_size for i in ids], return_inverse=True)
    hit = np.zeros(len(ids), dtype=bool)
    for pin in pinned.values():
        pads = [reading_pad(max(pin.font_size, s), reach, config.name_gap) for s in sizes]
        hit |= _boxes_touch(boxes, pin.ink_box, np.maximum(reach, pads)[which] + reach)
    rows, columns = np.flatnonzero(kept_out.any(axis=1)), np.flatnonzero(kept_out.any(axis=0))
    if rows.size:  # only the words whose ink box meets the keep-out shapes' box are looked at
        span = (columns[0], rows[0], columns[-1] + 1 - columns[0], rows[-1] + 1 - rows[0])
        for k in np.flatnonzero(_boxes_touch(boxes, span, 0) & ~hit):
            x, y, w, h = boxes[k]
            hit[k] = kept_out[y : y + h, x : x + w].any()
    return {int(i) for i in ids[hit]}


def _stamp_staying(layout, ids, placements, parent, blocked) -> None:
    """The words that stay stamped from the ink the parent kept of them (or, for a parent
    made before it kept it, from their path data in its SVG, the very points its PNG was
    painted from), no shaping, all at once: their ink marked by the compiled passes of
    restamp.py, in two halves on two threads where each word keeps a slot of its own (their
    pixels never meet), grown by MARGIN, and the occupancy grid built from it and the
    ``blocked`` pixels (outside the shape). Must come before any other stamp."""
    ink = np.zeros(blocked.shape, dtype=bool)
    halves = [ids] if layout.placed + len(ids) > layout.boxes.shape[0] else [
        ids[: len(ids) // 2], ids[len(ids) // 2 :]
    ]  # fmt: skip
    firsts = [layout.placed, layout.placed + len(halves[0])]
    kept = parent.inks  # read here, once, not by the first of the two threads
    paths = parent.paths if kept is None else None

    def stamp(half, first_slot):
        if not half:
            return
        inks = np.array([placements[i].ink_box for i in half], dtype=np.int64)
        kinds = np.array([2 if placements[i].vertical else 1 for i in half], dtype=np.int64)
        if kept is not None:
            kept_ids, starts, _, bits = kept
            starts = starts[np.searchsorted(kept_ids, half)]
            ink_bits(ink, layout.words, layout.boxes, bits, starts, inks, kinds, first_slot)
            return
        data = [paths[i] for i in half]
        ends = np.cumsum([len(d) for d in data])
        ink_paths(ink, layout.words, layout.boxes, np.frombuffer(b"".join(data), dtype=np.uint8),
                  ends, inks, kinds, first_slot, INK_THRESHOLD)  # fmt: skip

    with ThreadPoolExecutor(max_workers=len(halves)) as pool:
        list(pool.map(stamp, halves, firsts))
    layout.placed += len(ids)
    occupancy = new_occupancy(blocked, ink, layout.margin)
    layout.runs, layout.row_max, layout.row_start, layout.cell_max = occupancy


class Arrangement:
    """The placing of a revision: the parent's words that stay stamped first, then the
    pinned (moved, resized), the renamed where they were, the added names given a home (a
    word moved aside for them), the displaced near where they were, the other added names
    wherever there is room. Arranged again from the start with more words moved aside when
    an added name finds no room."""

    def __init__(
        self, carved, kept_out, config, shapes, placements, pinned, renamed, parent, shaped
    ):
        self.carved, self.config, self.shapes = carved, config, shapes
        self.parent, self.shaped = parent, shaped
        self.placements, self.pinned, self.renamed = placements, pinned, renamed
        self.aside = set()  # words moved aside for added names
        self.displaced = _displaced(placements, pinned, kept_out, config)
        self.min_size = min(
            config.min_font_size or DEFAULT_MIN_FONT_SIZE,
            min((p.font_size for p in placements.values()), default=DEFAULT_MIN_FONT_SIZE),
        )

    def arrange(self, added, homes, rng, keep_going=False):
        """(placements, displaced ids, added placements), or (kind, key) of the first name
        that found no room: ("add", index of the added name) or ("word", id). With
        ``keep_going``, the names that found no room are passed over and their number is
        returned instead."""
        config, placements = self.config, dict(self.placements)
        misses = 0
        layout = Layout(self.carved, config.margin, config.name_gap, rng, occupied=False)
        displaced = self.displaced | self.aside
        moving = displaced | set(self.pinned) | set(self.renamed)
        staying = [i for i in placements if i not in moving]
        _stamp_staying(layout, staying, placements, self.parent, ~self.carved.inside)
        for word_id, placement in self.pinned.items():
            stamped = layout.stamp_word(placement.outline, placement.font_size,
                                        placement.vertical, *placement.ink_box[:2])  # fmt: skip
            placements[word_id] = _framed(layout, placement, stamped)
        for word_id in self.renamed.keys() - self.pinned.keys() - self.aside:
            new = placements[word_id]  # in place when the new name fits there
            centre = (new.box[0] + new.box[2] / 2, new.box[1] + new.box[3] / 2)
            spot = _ink_box_at(new.outline, new.font_size, centre)
            if _fits_at(layout, new.outline, new.font_size, new.vertical, spot):
                stamped = layout.stamp_word(new.outline, new.font_size, new.vertical, *spot[:2])
                placements[word_id] = _framed(layout, new, stamped)
            else:
                displaced = displaced | {word_id}
        news = [None] * len(added)
        homed = {}
        for (kind, key), centre in homes.items():  # names given the place of a word aside
            if kind == "add":
                name, size = added[key]
                outline, style = self.shapes.get(name.text, False)
                fresh = Placement(name, 1, size, False, style, outline, (0, 0, 0, 0), (0, 0, 0, 0))
                news[key] = _place_near(layout, fresh, centre, self.min_size)
                if news[key] is None and not keep_going:
                    return kind, key
                misses += news[key] is None
            else:
                placements[key] = homed[key] = _place_near(
                    layout, self.shaped(placements[key]), centre, self.min_size
                )
                if placements[key] is None and not keep_going:
                    return kind, key
                misses += placements[key] is None
        order = sorted(
            displaced - set(self.pinned) - set(homed), key=lambda i: (-placements[i].font_size, i)
        )
        for word_id in order:
            old = self.shaped(placements[word_id])
            centre = (old.box[0] + old.box[2] / 2, old.box[1] + old.box[3] / 2)
            placements[word_id] = _place_near(layout, old, centre, self.min_size)
            if placements[word_id] is None and not keep_going:
                return "word", word_id
            misses += placements[word_id] is None
        for k, (name, size) in enumerate(added):
            if news[k] is not None or ("add", k) in homes:  # placed, or missed near its home
                continue
            news[k] = _place_anywhere(layout, self.shapes, name, size, self.min_size, config, rng)
            if news[k] is None and not keep_going:
                return "add", k
            misses += news[k] is None
        return misses if keep_going else (placements, displaced, news)

    def victim(self, outline, vertical):
        """The centre of the smallest word that stays whose ink box could hold ``outline``
        at the smallest size (it is moved aside for it), or None."""
        _, _, need_w, need_h = outline.box(self.min_size)
        taken = self.displaced | self.aside | set(self.pinned) | set(self.renamed)
        best = None
        for word_id, placement in self.placements.items():
            x, y, w, h = placement.ink_box
            if word_id in taken or placement.vertical != vertical or w < need_w or h < need_h:
                continue
            if best is None or w * h < best[0]:
                best = (w * h, word_id)
        if best is None:
            return None
        self.aside.add(best[1])
        box = self.placements[best[1]].box
        return box[0] + box[2] / 2, box[1] + box[3] / 2


def _framed(layout, placement, stamped) -> Placement:
    """``placement`` where ``stamped`` (Layout.stamp_word's ink box and ink) put it."""
    ink_box, ink = stamped
    box = layout.clip(placement.outline.frame_box(placement.font_size, *ink_box[:2]))
    return replace(placement, ink_box=tuple(int(v) for v in ink_box), box=box, ink=ink)


def _search(layout, outline, size, vertical):
    """The padded search box of a word: its size, pads and the ears' reading settings."""
    _, _, width, height = outline.box(size)
    pad = layout.pad(size)
    pad_x, pad_y = (0, pad) if vertical else (pad, 0)
    reading = np.array([pad, layout.margin, 2 if vertical else 1], dtype=np.int64)
    return (
        width + 2 * pad_x,
        height + 2 * pad_y,
        pad_x,
        pad_y,
        (layout.words, layout.boxes, reading),
    )


def _fits_at(layout, outline, size, vertical, spot) -> bool:
    """Whether the word fits with its ink box's top-left exactly at ``spot``."""
    search_w, search_h, pad_x, pad_y, ears = _search(layout, outline, size, vertical)
    x, y = spot[0] - pad_x, spot[1] - pad_y
    height, width = layout.inside.shape
    if x < 0 or y < 0 or x + search_w > width or y + search_h > height:
        return False
    found = find_fit(layout.runs, layout.row_max, layout.cell_max, layout.hopeless,
                     search_w, search_h, x, y, y, y + search_h, ears)  # fmt: skip
    return (int(found[0]), int(found[1])) == (x, y)


def _place_near(layout, placement, centre, min_size):
    """``placement`` placed again as near as possible to ``centre``: the first free spot in
    reading order from there within a band of rows around it, the band doubled until one is
    found; at its size first, then smaller down to ``min_size``."""
    size = placement.font_size
    while True:
        search_w, search_h, pad_x, pad_y, ears = _search(
            layout, placement.outline, size, placement.vertical
        )
        start_x, start_y = int(centre[0] - search_w / 2), int(centre[1] - search_h / 2)
        for reach in REACHES:
            top = max(layout.top, start_y - reach * search_h)
            bottom = min(layout.bottom, start_y + (reach + 1) * search_h)
            x, y = find_fit(layout.runs, layout.row_max, layout.cell_max, layout.hopeless,
                            search_w, search_h, max(0, start_x), start_y, top, bottom, ears)  # fmt: skip
            if x >= 0:
                stamped = layout.stamp_word(
                    placement.outline, size, placement.vertical, int(x + pad_x), int(y + pad_y)
                )
                return _framed(layout, replace(placement, font_size=size), stamped)
            if top == layout.top and bottom == layout.bottom:
                break
        if size <= min_size:
            return None
        size = round(max(min_size, size * SHRINK), 2)


def _place_anywhere(layout, shapes, name, size, min_size, config, rng):
    """An added name in free space, as a new job places it (orientation by
    PREFER_HORIZONTAL), smaller down to ``min_size`` when there is no room."""
    vertical = bool(rng.random() >= config.prefer_horizontal)
    size = round(size, 2)
    while True:
        outline, style = shapes.get(name.text, vertical)
        stamped = layout.try_place(outline, size, vertical)
        if stamped is not None:
            ink_box = stamped[0]
            placement = Placement(name, 1, size, vertical, style, outline, ink_box, ink_box)
            return _framed(layout, placement, stamped)
        if size <= min_size:
            return None
        size = round(max(min_size, size * SHRINK), 2)
