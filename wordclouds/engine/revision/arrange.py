"""The placing of a revision: the words that stay stamped from the parent, the pinned,
renamed, displaced and added ones placed again, by the same functions as a first layout
(:class:`layout.Layout`)."""

import json
import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import LayoutError
from ..groups import group_band, stored_regions
from ..layout import DEFAULT_MIN_FONT_SIZE, Layout, Placement, reading_pad
from ..mask import Mask
from ..neighbours import boxes_touch
from ..params import Params
from .parent import Parent, ink_box_at, shaped

MAX_VICTIMS = 50  # words moved aside for added names that find no room, at most


@dataclass
class Edited:
    """The parent's words as the edits left them, before placing: ``before`` as they were,
    ``placements`` by id (the removed ones gone, the renamed ones with their new outline),
    the ``pinned`` (moved, resized) where asked, the ``renamed`` ids with their new names,
    the ``added`` names with their planned sizes, the ``removed`` ids."""

    before: dict
    placements: dict
    pinned: dict
    renamed: dict
    added: list
    removed: set = field(default_factory=set)


def displaced_words(placements, pinned, kept_out, config: Params) -> set:
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
        hit |= boxes_touch(boxes, pin.ink_box, np.maximum(reach, pads)[which] + reach)
    rows, columns = np.flatnonzero(kept_out.any(axis=1)), np.flatnonzero(kept_out.any(axis=0))
    if rows.size:  # only the words whose ink box meets the keep-out shapes' box are looked at
        span = (columns[0], rows[0], columns[-1] + 1 - columns[0], rows[-1] + 1 - rows[0])
        for k in np.flatnonzero(boxes_touch(boxes, span, 0) & ~hit):
            x, y, w, h = boxes[k]
            hit[k] = kept_out[y : y + h, x : x + w].any()
    return {int(i) for i in ids[hit]}


def _centre(box) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


class Arrangement:
    """The placing of a revision: the parent's words that stay stamped first, then the
    pinned (moved, resized), the renamed where they were, the added names given a home (a
    word moved aside for them), the displaced near where they were, the other added names
    wherever there is room. Arranged again from the start, by the same seeded generator,
    with more words moved aside when an added name finds no room."""

    def __init__(self, parent: Parent, edited: Edited, carved: Mask, kept_out, shapes, seed):
        self.parent, self.edited, self.carved, self.shapes = parent, edited, carved, shapes
        self.config = parent.params
        self.seeding = (seed, len(parent.rows), 30)
        self.aside = set()  # words moved aside for added names
        self.homes = {}  # ("add", index) or ("word", id) → the centre of a word moved aside
        self.displaced = displaced_words(edited.placements, edited.pinned, kept_out, self.config)
        self.min_size = min(
            self.config.min_font_size or DEFAULT_MIN_FONT_SIZE,
            min((p.font_size for p in edited.placements.values()), default=DEFAULT_MIN_FONT_SIZE),
        )
        specs = json.loads(parent.meta.get("groups", "[]"))
        # A poster with groups: each group's pixels, which its added names are placed in.
        self.regions = stored_regions(carved, specs, group_band(self.config)) if specs else {}

    def settled(self):
        """(placements, displaced ids, added placements, the layout's generator after
        them), the smallest words that stay moved aside for added names one by one until
        every name finds room; raises :class:`LayoutError` saying how many did not."""
        for _ in range(MAX_VICTIMS + 1):
            outcome = self.arrange()
            if len(outcome) == 4:
                return outcome
            home = self.victim(*self._looked_for(outcome))
            if home is None:
                break
            self.homes[outcome] = home
        missed = self.arrange(keep_going=True)
        raise LayoutError(
            f"{missed} {'name' if missed == 1 else 'names'} did not fit, even with the "
            "smallest nearby words moved aside; make a new layout of the revised list (a new "
            "job) instead"
        )

    def _looked_for(self, outcome):
        """The outline, orientation and group of the name that found no room."""
        kind, key = outcome
        if kind == "add":
            name = self.edited.added[key][0]
            return self.shapes.get(name.text, False)[0], False, name.group
        placement = shaped(self.shapes, self.edited.placements[key])
        return placement.outline, placement.vertical, placement.name.group

    def arrange(self, keep_going=False):
        """(placements, displaced ids, added placements, generator), or (kind, key) of the
        first name that found no room: ("add", index of the added name) or ("word", id).
        With ``keep_going``, the names that found no room are passed over and their number
        is returned instead."""
        layout = Layout(self.carved, self.config.margin, self.config.name_gap,
                        np.random.default_rng(self.seeding), occupied=False)  # fmt: skip
        placements = dict(self.edited.placements)
        displaced = self.displaced | self.aside
        moving = displaced | set(self.edited.pinned) | set(self.edited.renamed)
        self._stamp_staying(layout, [i for i in placements if i not in moving], placements)
        for word_id, placement in self.edited.pinned.items():
            stamped = layout.stamp_word(placement.outline, placement.font_size,
                                        placement.vertical, *placement.ink_box[:2])  # fmt: skip
            placements[word_id] = layout.framed(placement, stamped)
        displaced |= self._renamed_in_place(layout, placements)
        placed = _Placed(placements, [None] * len(self.edited.added), keep_going)
        turn = (self.config.prefer_horizontal, False)  # one orientation: docs/engine.md
        for (kind, key), centre in self.homes.items():  # names given the place of a word aside
            if kind == "add" and self.edited.added[key][0].group:
                placed.news[key] = self._in_region(layout, *self.edited.added[key], turn)
            elif kind == "add":
                placed.news[key] = layout.place_near(self._added(key), centre, self.min_size)
            else:
                placed.homed.add(key)
                placements[key] = layout.place_near(
                    shaped(self.shapes, placements[key]), centre, self.min_size
                )
            if placed.missed(kind, key):
                return kind, key
        return self._place_rest(layout, placed, displaced)

    def _place_rest(self, layout, placed, displaced):
        """The displaced words near where they were, largest first, then the added names
        that have no home wherever there is room; :meth:`arrange`'s outcome."""
        placements, news = placed.placements, placed.news
        order = sorted(displaced - set(self.edited.pinned) - placed.homed,
                       key=lambda i: (-placements[i].font_size, i))  # fmt: skip
        for word_id in order:
            old = shaped(self.shapes, placements[word_id])
            placements[word_id] = layout.place_near(old, _centre(old.box), self.min_size)
            if placed.missed("word", word_id):
                return "word", word_id
        turn = (self.config.prefer_horizontal, False)  # one orientation: docs/engine.md
        for k, (name, size) in enumerate(self.edited.added):
            if news[k] is not None or ("add", k) in self.homes:  # placed, or missed near home
                continue
            if name.group:
                news[k] = self._in_region(layout, name, size, turn)
            else:
                news[k] = layout.place_word(name, 1, size, self.min_size, self.shapes, turn)
            if placed.missed("add", k):
                return "add", k
        return placed.misses if placed.keep_going else (placements, displaced, news, layout.rng)

    def _in_region(self, layout, name, size, turn, tries: int = 20):
        """Added ``name`` of a group placed at a random free spot of its group's region: found
        on a layout of the region's free pixels (those ``layout`` has free there), then
        stamped into ``layout`` where its gap and ears hold there too; None when no spot
        does in ``tries``."""
        free = self.regions[name.group] & (layout.runs > 0)
        if not free.any():
            return None
        region = Layout(Mask(free, None), self.config.margin, self.config.name_gap, layout.rng)
        for _ in range(tries):
            found = region.place_word(name, 1, size, self.min_size, self.shapes, turn)
            if found is None:
                return None
            spot = found.ink_box[:2]
            if layout.fits_at(found.outline, found.font_size, found.vertical, spot):
                stamped = layout.stamp_word(found.outline, found.font_size, found.vertical, *spot)
                return layout.framed(found, stamped)
        return None

    def _added(self, key) -> Placement:
        """Added name ``key`` as a horizontal placement of its planned size, not yet placed."""
        name, size = self.edited.added[key]
        outline, style = self.shapes.get(name.text, False)
        return Placement(name, 1, size, False, style, outline, (0, 0, 0, 0), (0, 0, 0, 0))

    def _renamed_in_place(self, layout, placements) -> set:
        """The renamed words stamped where they were (their new box centred on the old)
        where the new name fits there; the ids of those that do not."""
        elsewhere = set()
        edited = self.edited
        for word_id in edited.renamed.keys() - edited.pinned.keys() - self.aside:
            new = placements[word_id]
            spot = ink_box_at(new.outline, new.font_size, _centre(new.box))
            if layout.fits_at(new.outline, new.font_size, new.vertical, spot):
                stamped = layout.stamp_word(new.outline, new.font_size, new.vertical, *spot[:2])
                placements[word_id] = layout.framed(new, stamped)
            else:
                elsewhere.add(word_id)
        return elsewhere

    def _stamp_staying(self, layout, ids, placements) -> None:
        """The words that stay stamped from the ink the parent kept of them, or, for a
        parent made before it kept it, from their path data in its SVG
        (:meth:`Layout.stamp_kept`)."""
        boxes = np.array([placements[i].ink_box for i in ids], dtype=np.int64).reshape(-1, 4)
        kinds = np.array([2 if placements[i].vertical else 1 for i in ids], dtype=np.int64)
        blocked = ~self.carved.inside
        kept = self.parent.inks
        if kept is None:
            paths = self.parent.paths
            layout.stamp_kept(boxes, kinds, blocked, paths=[paths[i] for i in ids])
            return
        kept_ids, starts, _, bits = kept
        starts = starts[np.searchsorted(kept_ids, ids)]
        layout.stamp_kept(boxes, kinds, blocked, bits=bits, starts=starts)

    def victim(self, outline, vertical, group=""):
        """The centre of the smallest word that stays (of ``group``, on a poster with
        groups) whose ink box could hold ``outline`` at the smallest size (it is moved aside
        for it), or None."""
        _, _, need_w, need_h = outline.box(self.min_size)
        edited = self.edited
        taken = self.displaced | self.aside | set(edited.pinned) | set(edited.renamed)
        best = None
        for word_id, placement in edited.placements.items():
            x, y, w, h = placement.ink_box
            if word_id in taken or placement.vertical != vertical or w < need_w or h < need_h:
                continue
            if placement.name.group != group:
                continue
            if best is None or w * h < best[0]:
                best = (w * h, word_id)
        if best is None:
            return None
        self.aside.add(best[1])
        return _centre(edited.placements[best[1]].box)


@dataclass
class _Placed:
    """What one arrangement has placed so far, and how many names found no room."""

    placements: dict
    news: list
    keep_going: bool
    homed: set = field(default_factory=set)
    misses: int = 0

    def missed(self, kind, key) -> bool:
        """Whether the name ``(kind, key)`` just placed found no room and the arrangement
        stops there (without ``keep_going``); counts it otherwise."""
        found = (self.news if kind == "add" else self.placements)[key]
        if found is not None:
            return False
        self.misses += 1
        return not self.keep_going
