"""The layout a revision starts from: its files (rows, meta, params, path data, kept ink,
pixels), what the checks and the revision both make of them once, and the checks that
read them (a pinned word's spot)."""

import json
import mmap
import statistics
from dataclasses import replace
from functools import cached_property
from operator import itemgetter
from pathlib import Path

import numpy as np
from PIL import Image

from ..artifacts import ARTIFACTS
from ..errors import InputError
from ..fonts import load_typeface
from ..layout import (
    INK_THRESHOLD,
    Placement,
    WordShapes,
)
from ..mask import keep_out_pixels, load_mask
from ..names import Name
from ..params import parse_params
from ..png import Strips, read_png_strips
from ..positions import WORD_COLUMNS, read_meta, read_word_rows
from ..raster import coverage
from ..restamp import INKS, read_inks

WORD_LINE = b'<path id="w'  # how each word's line in both SVGs starts (render.path_elements)


class Parent:
    """A finished layout's files: its rows by id, meta, params and canvas."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.db = self.folder / ARTIFACTS["db"]
        self.meta = read_meta(self.db)
        self.rows = {row[0]: row for row in read_word_rows(self.db, WORD_COLUMNS)}
        self.column = {name: index for index, name in enumerate(WORD_COLUMNS)}
        self.params = parse_params(json.loads(self.meta["params"]))
        self.width = int(self.meta["canvas_width"])
        self.height = int(self.meta["canvas_height"])
        self.text_font = None  # MASK_TEXT's font file, when a caller gives one
        self.made = {}  # what the checks and the revision both use, made once (mask, shaper)

    @cached_property
    def paths(self) -> dict:
        """Each word's path data (ASCII), as drawn: read from wordcloud.svg only when a
        revision stamps the words that stay from it."""
        paths = {}
        with (
            open(self.folder / ARTIFACTS["svg"], "rb") as file,
            mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as svg,
        ):
            for word_id, (start, end) in word_lines(svg, self.rows):
                data = svg.find(b' d="', start, end) + 4
                paths[word_id] = svg[data : svg.find(b'"', data, end)]
        return paths

    @cached_property
    def inks(self):
        """The ink each word was stamped with (restamp.read_inks), or None where the parent
        has no such file (made before it was kept) or one not of these words."""
        path = self.folder / INKS
        if not path.is_file():
            return None
        at = [self.column[c] for c in ("ink_x", "ink_y", "ink_width", "ink_height")]
        return read_inks(path, {i: [row[k] for k in at] for i, row in self.rows.items()})

    def value(self, word_id: int, column: str):
        """Word ``word_id``'s value in ``column`` of positions.db."""
        return self.rows[word_id][self.column[column]]

    def placements(self) -> dict:
        """Each word as a :class:`Placement` by id, with no outline: only the words that
        move are shaped again (:func:`shaped`)."""
        at = self.column
        name_of = itemgetter(at["name"], at["row"], at["weight"], at["group"])
        ink_of = itemgetter(at["ink_x"], at["ink_y"], at["ink_width"], at["ink_height"])
        box_of = itemgetter(at["box_x"], at["box_y"], at["box_width"], at["box_height"])
        rest_of = itemgetter(at["repetition"], at["font_size"], at["orientation"])
        placements = {}
        for word_id, row in self.rows.items():
            repetition, size, orientation = rest_of(row)
            placements[word_id] = Placement(Name(*name_of(row)), repetition, size,
                                            orientation == "vertical", "", None, ink_of(row),
                                            box_of(row))  # fmt: skip
        return placements

    def colors(self) -> dict:
        """Each word's colour by id."""
        return {word_id: row[self.column["color"]] for word_id, row in self.rows.items()}


def shaped(shapes: WordShapes, placement: Placement) -> Placement:
    """``placement`` with its outline (and vertical style) when it has none yet."""
    if placement.outline is not None:
        return placement
    outline, style = shapes.get(placement.name.text, placement.vertical)
    return replace(placement, outline=outline, style=style)


def word_lines(data, ids) -> list[tuple[int, tuple[int, int]]]:
    """(id, (start, end)) of the ``<path>`` line of each of ``ids`` in the SVG ``data``
    (bytes or a mapped file), in the order they stand in it. The engine writes the words'
    lines in ascending id order (a first layout by placement number, a revision by sorted
    id), so each is looked for after the one before and the file is scanned once; a line
    not found there (a file written some other way) is looked for from the top, which
    costs a scan but finds it all the same."""
    found, start = [], 0
    for word_id in sorted(ids):
        needle = b"\n" + WORD_LINE + b'%d"' % word_id
        at = data.find(needle, start)
        if at < 0:
            at = data.find(needle)
        if at < 0:
            raise ValueError(f"the parent's SVG has no line for word {word_id}")
        start = data.find(b"\n", at + 1)  # the next line's needle starts with it
        found.append((word_id, (at + 1, start + 1)))
    return sorted(found, key=lambda hit: hit[1])


def _check_spots(clean, parent, mask_path, font_path) -> None:
    """A moved or resized word must lie on the canvas, its ink inside the mask, clear of
    every keep-out shape."""
    mask = _mask(parent, mask_path, parent.text_font or font_path)
    kept_out = keep_out_pixels(clean["keepOut"], parent.height, parent.width)
    shapes = _shapes(parent, font_path)
    for kind in ("move", "resize"):
        for k, entry in enumerate(clean[kind]):
            word_id = entry["id"]
            size, centre = pinned_spot(clean, parent, word_id)
            outline, _ = shapes.get(parent.value(word_id, "name"), _vertical(parent, word_id))
            x, y, w, h = ink_box_at(outline, size, centre)
            where = f"{kind}[{k}]"
            if x < 0 or y < 0 or x + w > parent.width or y + h > parent.height:
                raise InputError(f"{where}: the word would reach outside the canvas there")
            left, top, _, _ = outline.box(size)
            cover = coverage(outline.polygon, outline.contour_ends, size, left, top, h, w)
            if not mask.inside[y : y + h, x : x + w][cover > INK_THRESHOLD].all():
                raise InputError(
                    f"{where}: at ({centre[0]:g}, {centre[1]:g}) the word would reach outside "
                    "the mask"
                )
            if kept_out[y : y + h, x : x + w].any():
                raise InputError(f"{where}: the word would lie over a keepOut shape")


def _shapes(parent: Parent, font_path) -> WordShapes:
    """The parent's word shaper, made once for the checks and the revision: the face the
    parent was drawn with (its position database says which of the font file's faces) and
    the fallback chain."""
    if font_path not in parent.made:
        locale = parent.meta.get("locale", "zh-Hans")
        typeface = load_typeface(font_path, int(parent.meta["font_face"]))
        parent.made[font_path] = WordShapes(typeface, parent.meta["vertical_style"], locale)
    return parent.made[font_path]


def _mask(parent: Parent, mask_path, text_font=None):
    """The parent's mask, read once for the checks and the revision (a text mask drawn in
    ``text_font``, the parent's MASK_FONT_ID file or its font)."""
    key = ("mask", mask_path)
    if key not in parent.made:
        parent.made[key] = load_mask(mask_path, params=parent.params, text_font=text_font)
    return parent.made[key]


def _vertical(parent: Parent, word_id: int) -> bool:
    return parent.value(word_id, "orientation") == "vertical"


def pinned_spot(clean, parent, word_id) -> tuple[float, tuple[float, float]]:
    """A moved or resized word's font size and centre."""
    size = next((e["fontSize"] for e in clean["resize"] if e["id"] == word_id), None)
    spot = next(((e["x"], e["y"]) for e in clean["move"] if e["id"] == word_id), None)
    size = size if size is not None else parent.value(word_id, "font_size")
    spot = spot if spot is not None else (parent.value(word_id, "x"), parent.value(word_id, "y"))
    return size, spot


def ink_box_at(outline, size: float, centre) -> tuple[int, int, int, int]:
    """The ink box of ``outline`` at ``size`` px placed so its reported box is centred on
    ``centre``."""
    left, top, width, height = outline.box(size)
    frame_left, frame_top, frame_w, frame_h = outline.frame_box(size, 0, 0)
    x = round(centre[0] - frame_w / 2 - frame_left)
    y = round(centre[1] - frame_h / 2 - frame_top)
    return x, y, width, height


def size_plan(parent: Parent):
    """The font size an added name of a weight gets: the median size of the parent's
    first-placed names of the nearest weight (an equal-weight list: the median of all)."""
    by_weight = {}
    for row in parent.rows.values():
        if row[parent.column["repetition"]] == 1:
            by_weight.setdefault(row[parent.column["weight"]], []).append(
                row[parent.column["font_size"]]
            )
    medians = {weight: statistics.median(sizes) for weight, sizes in by_weight.items()}
    return lambda weight: medians[min(medians, key=lambda w: (abs(w - weight), w))]


def parent_pixels(parent: Parent) -> tuple[np.ndarray, Strips | None]:
    """The parent's PNG as a pixel array, and its strips as stored when this engine wrote it
    in strips (for the revised PNG to copy those no change touches)."""
    read = read_png_strips(parent.folder / ARTIFACTS["png"])
    if read is None:  # not written by this engine
        with Image.open(parent.folder / ARTIFACTS["png"]) as image:
            return np.array(image), None
    return read
