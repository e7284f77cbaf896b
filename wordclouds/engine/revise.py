"""A revision of a finished layout: names added, removed, renamed, moved, resized and
recoloured, areas kept free, while every word no edit needs keeps its place, its row in the
position database and its ``<path>`` in both SVGs byte for byte.

The parent's occupancy is rebuilt from the path data of the words that stay (the very points
its PNG was painted from, restamp.py; only the words that move are shaped again), and the
words an edit needs are placed again: pinned words (moved, resized) where asked, renamed
words where they were when the new name fits there, displaced words (under a pinned word or
a keep-out shape, or a renamed word that no longer fits) as near as possible to where they
were, added names wherever there is room. The files are written from the parent's own lines
and rows, with new ones only for what changed.
"""

import json
import math
import mmap
import os
import sqlite3
import statistics
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import cached_property
from operator import itemgetter
from pathlib import Path

import numpy as np
from PIL import Image

from .colors import readable, shifted, to_hex, to_rgb
from .errors import InputError, LayoutError
from .fonts import load_typeface
from .generate import (
    ARTIFACTS,
    Progress,
    _atomic,
    _contrast_figures,
    _coverage,
)
from .layout import (
    DEFAULT_MIN_FONT_SIZE,
    FLOOR_FONT_SIZE,
    INK_THRESHOLD,
    SHRINK,
    Layout,
    Placement,
    WordShapes,
    reading_pad,
)
from .mask import keep_out_pixels, load_mask, without
from .names import MAX_NAME_LENGTH, Name, clean_cell
from .neighbours import reading_neighbours, reading_reach
from .occupancy import find_fit, new_occupancy
from .params import (
    COLOR_PATTERN,
    MAX_KEEP_OUT,
    MAX_SEED,
    check_shapes,
    finite_number,
    parse_params,
    parse_shape,
)
from .png import Strips, read_png_strips, write_png
from .positions import placement_row, read_meta, write_revised_rows
from .raster import coverage
from .render import SVG_END, contrast_background, paint_placements, path_elements, stroke_width
from .restamp import INKS, ink_bits, ink_paths, read_inks, write_inks
from .shaping import undrawable

REVISION_STAGES = {  # stage: (percent at its start, percent at its end)
    "reading_parent": (0, 20),
    "placing_edits": (20, 70),
    "rendering": (70, 90),
    "writing_artifacts": (90, 100),
}
PROOF = "proof.png"
# The proof's outlines: what an edit named (added, renamed, moved, resized, recoloured) in
# red, what had to make room (displaced) in blue.
PROOF_CHANGED, PROOF_DISPLACED = (214, 39, 40), (31, 119, 180)
PROOF_LINE = 3

# Bounds on every list of a revision (docs/engine.md, "Revisions").
LIST_BOUNDS = {
    "add": 10_000,
    "remove": 10_000,
    "rename": 1_000,
    "move": 1_000,
    "resize": 1_000,
    "recolor": 10_000,
    "keepOut": MAX_KEEP_OUT,
}
EDIT_KEYS = (*LIST_BOUNDS, "seed")
WORD_EDITS = ("rename", "move", "resize", "recolor")
MAX_WEIGHT = 1e9
WORD_LINE = b'<path id="w'  # how each word's line in both SVGs starts (render.path_elements)
REACHES = (1, 2, 4, 8, 16, 32, 64)  # window heights tried around a displaced word, in its heights


def _word_id(value, where: str, ids) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{where} must be a word id (an integer)")
    if value not in ids:
        raise InputError(f"{where}: no word with id {value}")
    return value


def _entry(value, where: str, fields: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise InputError(f"{where} must be an object with {', '.join(fields)}")
    for name in value:
        if name not in fields:
            raise InputError(f'{where}: unknown field "{str(name)[:40]}"')
    for name in fields:
        if name not in value:
            raise InputError(f"{where}.{name} is required")
    return value


def _new_name(value, where: str) -> str:
    text = clean_cell(value) if isinstance(value, str) else None
    if not text:
        raise InputError(f"{where} must be a name that is not empty")
    if len(text) > MAX_NAME_LENGTH:
        raise InputError(f"{where} is longer than {MAX_NAME_LENGTH} characters")
    return text


class Parent:
    """A finished layout's files: its rows by id, meta, params and canvas."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.db = self.folder / ARTIFACTS["db"]
        self.meta = read_meta(self.db)
        connection = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            cursor = connection.execute("SELECT * FROM words ORDER BY id")
            columns = [column[0] for column in cursor.description]
            self.rows = {row[0]: row for row in cursor}
        finally:
            connection.close()
        self.column = {name: index for index, name in enumerate(columns)}
        self.params = parse_params(json.loads(self.meta["params"]))
        self.width = int(self.meta["canvas_width"])
        self.height = int(self.meta["canvas_height"])
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
            for word_id, (start, end) in _word_lines(svg, self.rows):
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
        return self.rows[word_id][self.column[column]]


def check_edits(edits: dict, *, parent_dir, mask_path=None, font_path=None) -> dict:
    """The edits of a revision, checked against the parent's files and normalised; raises
    :class:`InputError` naming the first problem (see docs/engine.md for the rules)."""
    return _checked(edits, Parent(parent_dir), mask_path, font_path)


def check_edits_shape(edits) -> None:
    """The checks of a revision's edits that read no file (an object of known edits, lists
    within their bounds, at least one edit, the seed), which :func:`check_edits` makes first:
    a caller makes them before it fetches the parent's files or waits for a slot. Raises
    :class:`InputError` naming the first problem."""
    if not isinstance(edits, dict):
        raise InputError("the edits must be a JSON object")
    for key in edits:
        if key not in EDIT_KEYS:
            raise InputError(f'unknown edit "{str(key)[:40]}"; edits are {", ".join(EDIT_KEYS)}')
    for key, bound in LIST_BOUNDS.items():
        value = edits.get(key, [])
        if not isinstance(value, list):
            raise InputError(f"{key} must be a list")
        if len(value) > bound:
            raise InputError(f"{key} has {len(value)} entries; at most {bound} are allowed")
    if not any(edits.get(key) for key in LIST_BOUNDS):
        raise InputError("no edit given: add, remove, rename, move, resize, recolor or keepOut")
    seed = edits.get("seed")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    ):
        raise InputError("seed must be an integer from 0 to 2^63-1")


def _checked(edits, parent: Parent, mask_path, font_path) -> dict:
    check_edits_shape(edits)
    ids = parent.rows
    clean = {"seed": edits.get("seed")}
    clean["add"] = []
    for k, item in enumerate(edits.get("add", [])):
        where = f"add[{k}]"
        if isinstance(item, dict):
            entry = _entry({"weight": 1, **item}, where, ("name", "weight"))
            weight = finite_number(entry["weight"], f"{where}.weight")
            if not 0 < weight <= MAX_WEIGHT:
                raise InputError(f"{where}.weight must be above 0 and at most {MAX_WEIGHT:g}")
            name = _new_name(entry["name"], f"{where}.name")
        else:
            name, weight = _new_name(item, where), 1.0
        clean["add"].append({"name": name, "weight": weight})
    clean["remove"] = [
        _word_id(v, f"remove[{k}]", ids) for k, v in enumerate(edits.get("remove", []))
    ]
    named = {}  # word id → the edits naming it
    for word_id in clean["remove"]:
        if "remove" in named.get(word_id, ()):
            raise InputError(f"id {word_id} is in remove twice")
        named.setdefault(word_id, []).append("remove")
    side = min(parent.width, parent.height)
    fields = {"rename": ("id", "name"), "move": ("id", "x", "y"), "resize": ("id", "fontSize"),
              "recolor": ("id", "color")}  # fmt: skip
    for kind in WORD_EDITS:
        clean[kind] = []
        for k, item in enumerate(edits.get(kind, [])):
            where = f"{kind}[{k}]"
            entry = dict(_entry(item, where, fields[kind]))
            word_id = entry["id"] = _word_id(entry["id"], f"{where}.id", ids)
            earlier = named.setdefault(word_id, [])
            if kind in earlier or "remove" in earlier:
                other = kind if kind in earlier else "remove"
                raise InputError(f"id {word_id} is in both {other} and {kind}")
            earlier.append(kind)
            if kind == "rename":
                entry["name"] = _new_name(entry["name"], f"{where}.name")
            elif kind == "move":
                entry["x"], entry["y"] = (
                    finite_number(entry[c], f"{where}.{c}") for c in ("x", "y")
                )
                if not (0 <= entry["x"] < parent.width and 0 <= entry["y"] < parent.height):
                    raise InputError(
                        f"{where}: ({entry['x']:g}, {entry['y']:g}) is outside the canvas "
                        f"({parent.width}×{parent.height} px)"
                    )
            elif kind == "resize":
                size = finite_number(entry["fontSize"], f"{where}.fontSize")
                if not FLOOR_FONT_SIZE <= size <= side / 2:
                    raise InputError(
                        f"{where}.fontSize must be from {FLOOR_FONT_SIZE:g} to {side / 2:g} px"
                    )
                entry["fontSize"] = round(size, 2)
            elif not isinstance(entry["color"], str) or not COLOR_PATTERN.fullmatch(entry["color"]):
                raise InputError(f"{where}.color must be #RRGGBB")
            else:
                entry["color"] = entry["color"].upper()
            clean[kind].append(entry)
    clean["keepOut"] = [
        parse_shape(v, f"keepOut[{k}]") for k, v in enumerate(edits.get("keepOut", []))
    ]
    check_shapes(clean["keepOut"], "keepOut", parent.width, parent.height)
    typeface = _shapes(parent, font_path).typeface
    for where, entries in (("add", clean["add"]), ("rename", clean["rename"])):
        for k, entry in enumerate(entries):
            missing = undrawable(entry["name"], typeface)
            if missing:
                points = ", ".join(f"U+{ord(char):04X}" for char in missing)
                raise InputError(
                    f'{where}[{k}]: "{entry["name"]}" has characters the poster\'s font cannot '
                    f"draw ({points})"
                )
    pinned = {e["id"] for e in clean["move"] + clean["resize"]}
    if pinned:
        _check_spots(clean, parent, mask_path, font_path)
    return clean


def _check_spots(clean, parent, mask_path, font_path) -> None:
    """A moved or resized word must lie on the canvas, its ink inside the mask, clear of
    every keep-out shape."""
    mask = _mask(parent, mask_path)
    kept_out = keep_out_pixels(clean["keepOut"], parent.height, parent.width)
    shapes = _shapes(parent, font_path)
    for kind in ("move", "resize"):
        for k, entry in enumerate(clean[kind]):
            word_id = entry["id"]
            size, centre = _pinned_spot(clean, parent, word_id)
            outline, _ = shapes.get(parent.value(word_id, "name"), _vertical(parent, word_id))
            x, y, w, h = _ink_box_at(outline, size, centre)
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


def _mask(parent: Parent, mask_path):
    """The parent's mask, read once for the checks and the revision."""
    key = ("mask", mask_path)
    if key not in parent.made:
        parent.made[key] = load_mask(mask_path, params=parent.params)
    return parent.made[key]


def _vertical(parent: Parent, word_id: int) -> bool:
    return parent.value(word_id, "orientation") == "vertical"


def _pinned_spot(clean, parent, word_id) -> tuple[float, tuple[float, float]]:
    """A moved or resized word's font size and centre."""
    size = next((e["fontSize"] for e in clean["resize"] if e["id"] == word_id), None)
    spot = next(((e["x"], e["y"]) for e in clean["move"] if e["id"] == word_id), None)
    size = size if size is not None else parent.value(word_id, "font_size")
    spot = spot if spot is not None else (parent.value(word_id, "x"), parent.value(word_id, "y"))
    return size, spot


def _ink_box_at(outline, size: float, centre) -> tuple[int, int, int, int]:
    """The ink box of ``outline`` at ``size`` px placed so its reported box is centred on
    ``centre``."""
    left, top, width, height = outline.box(size)
    frame_left, frame_top, frame_w, frame_h = outline.frame_box(size, 0, 0)
    x = round(centre[0] - frame_w / 2 - frame_left)
    y = round(centre[1] - frame_h / 2 - frame_top)
    return x, y, width, height


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


def revise(
    *,
    parent_dir,
    out_dir,
    edits: dict,
    mask_path=None,
    font_path=None,
    progress=None,
    parent_id=None,
):
    """Write the revision of the layout in ``parent_dir`` by ``edits`` into ``out_dir``
    (the five artifacts of a job and proof.png); return its metrics, whose ``changes`` name
    the parent (``parent_id``) and list the ids added, removed, renamed, moved, resized,
    recoloured and displaced."""
    report = Progress(progress, REVISION_STAGES)
    report.begin("reading_parent", "reading the poster to revise")
    parent = Parent(parent_dir)
    # Two threads beside this one: the parent's PNG decoded while the words are placed (zlib
    # lets go of Python's lock, the compiled placing does not need it back), then the revised
    # PNG and the proof written while the SVGs and the database are.
    with ThreadPoolExecutor(max_workers=1) as painter:
        pixels = painter.submit(_parent_pixels, parent)
        return _revised(parent, out_dir, edits, mask_path, font_path, report, parent_id,
                        painter, pixels)  # fmt: skip


def _revised(parent, out_dir, edits, mask_path, font_path, report, parent_id, painter, pixels):
    clean = _checked(edits, parent, mask_path, font_path)
    config = parent.params
    mask = _mask(parent, mask_path)
    if (mask.width, mask.height) != (parent.width, parent.height):
        raise InputError("the mask image is not the one the poster was made with")
    kept_out = keep_out_pixels(clean["keepOut"], parent.height, parent.width)
    carved = without(mask, clean["keepOut"] + list(config.keep_out))
    shapes = _shapes(parent, font_path)
    seed = clean["seed"] if clean["seed"] is not None else int(parent.meta["seed"])
    rng = np.random.default_rng([seed, len(parent.rows), 30])

    placements = {}  # word id → Placement; outlines shaped only for the words that move
    at = parent.column
    name_of = itemgetter(at["name"], at["row"], at["weight"])
    ink_of = itemgetter(at["ink_x"], at["ink_y"], at["ink_width"], at["ink_height"])
    box_of = itemgetter(at["box_x"], at["box_y"], at["box_width"], at["box_height"])
    rest_of = itemgetter(at["repetition"], at["font_size"], at["orientation"])
    for word_id, row in parent.rows.items():
        repetition, size, orientation = rest_of(row)
        placements[word_id] = Placement(
            Name(*name_of(row)),
            repetition,
            size,
            orientation == "vertical",
            "",
            None,
            ink_of(row),
            box_of(row),
        )
    colors = {word_id: row[at["color"]] for word_id, row in parent.rows.items()}
    parent_placements = dict(placements)

    def shaped(placement: Placement) -> Placement:
        if placement.outline is not None:
            return placement
        outline, style = shapes.get(placement.name.text, placement.vertical)
        return replace(placement, outline=outline, style=style)

    report.begin("placing_edits", "placing the corrections")
    removed = set(clean["remove"])
    for word_id in removed:
        del placements[word_id]
    renamed = {e["id"]: e["name"] for e in clean["rename"]}
    for word_id, text in renamed.items():
        old = placements[word_id]
        outline, style = shapes.get(text, old.vertical)
        placements[word_id] = replace(
            old, name=replace(old.name, text=text), outline=outline, style=style
        )
    pinned = {}
    for word_id in dict.fromkeys(e["id"] for e in clean["move"] + clean["resize"]):
        size, centre = _pinned_spot(clean, parent, word_id)
        old = shaped(placements[word_id])
        pinned[word_id] = replace(
            old, font_size=size, ink_box=_ink_box_at(old.outline, size, centre)
        )
    next_row = max((p.name.row for p in placements.values()), default=0) + 1
    plan = _size_plan(parent)
    added = [
        (Name(entry["name"], next_row + k, entry["weight"]), plan(entry["weight"]))
        for k, entry in enumerate(clean["add"])
    ]
    arrangement = Arrangement(
        carved, kept_out, config, shapes, placements, pinned, renamed, parent, shaped
    )
    homes = {}  # ("add", index) or ("word", id) → the centre of a word moved aside for it
    for _ in range(MAX_VICTIMS + 1):
        rng = np.random.default_rng([seed, len(parent.rows), 30])
        outcome = arrangement.arrange(added, homes, rng)
        if len(outcome) == 3:
            break
        kind, key = outcome
        if kind == "add":
            outline, vertical = shapes.get(added[key][0].text, False)[0], False
        else:
            outline, vertical = shaped(placements[key]).outline, placements[key].vertical
        victim = arrangement.victim(outline, vertical)
        if victim is None:
            break
        homes[outcome] = victim
    if len(outcome) != 3:
        rng = np.random.default_rng([seed, len(parent.rows), 30])
        missed = arrangement.arrange(added, homes, rng, keep_going=True)
        raise LayoutError(
            f"{missed} {'name' if missed == 1 else 'names'} did not fit, even with the "
            "smallest nearby words moved aside; make a new layout of the revised list (a new "
            "job) instead"
        )
    placements, displaced, added_ids = outcome
    next_id = max(parent.rows) + 1
    added_ids = list(range(next_id, next_id + len(added_ids)))
    for word_id, placement in zip(added_ids, outcome[2]):
        placements[word_id] = placement

    report.begin("rendering", f"drawing {len(placements)} words")
    ids = sorted(placements)
    recolored = {e["id"]: e["color"] for e in clean["recolor"]}
    fresh = (displaced | set(pinned) | set(renamed) | set(added_ids)) - set(recolored)
    colors.update(recolored)
    _color_fresh(ids, placements, colors, fresh, config, mask, rng)
    changed_ids = set(added_ids) | set(renamed) | set(pinned) | set(recolored) | displaced
    for word_id in changed_ids:  # drawn anew: a recoloured word keeps its place, not its line
        placements[word_id] = shaped(placements[word_id])
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ordered = [placements[i] for i in ids]
    ordered_colors = [colors[i] for i in ids]
    size = (parent.width, parent.height)
    gone = [
        shaped(parent_placements[i])
        for i in sorted((removed | changed_ids) & parent_placements.keys())
    ]
    changed = sorted(changed_ids)
    drawn = painter.submit(
        _write_pngs, out_dir, pixels.result(), gone, [placements[i] for i in changed],
        [colors[i] for i in changed], config, placements, changed_ids - displaced,
        displaced - set(renamed),
    )  # fmt: skip
    _write_svgs(parent, out_dir, placements, colors, changed_ids, removed, config)

    report.begin("writing_artifacts", "writing files")
    partial_db = out_dir / (ARTIFACTS["db"] + ".part")
    partial_db.unlink(missing_ok=True)
    write_revised_rows(
        parent.db,
        partial_db,
        removed | changed_ids & parent.rows.keys(),
        [placement_row(i, placements[i], colors[i]) for i in changed],
        {"seed": seed},
    )
    os.replace(partial_db, out_dir / ARTIFACTS["db"])
    _write_inks(out_dir, parent, ids, placements)
    changes = {
        "parent": parent_id,
        "added": added_ids,
        "removed": sorted(removed),
        "renamed": sorted(renamed),
        "moved": sorted(e["id"] for e in clean["move"]),
        "resized": sorted(e["id"] for e in clean["resize"]),
        "recolored": sorted(recolored),
        "displaced": sorted(displaced - set(renamed) - set(pinned)),
        "unchanged": len(ids) - len(changed_ids),
    }
    gone_names = [
        parent_placements[i].name
        for i in sorted(removed | set(renamed))
        if parent_placements[i].repetition == 1
    ]
    new_names = [
        placements[i].name
        for i in sorted(set(renamed) | set(added_ids))
        if placements[i].repetition == 1
    ]
    metrics = _metrics(parent, ordered, ordered_colors, config, mask, seed)
    metrics["scripts"] = _scripts_after(metrics["scripts"], gone_names, new_names, shapes)
    drawn.result()
    report.finish("done")
    metrics["changes"] = changes
    metrics["stage_seconds"] = report.seconds
    metrics["total_seconds"] = round(sum(report.seconds.values()), 3)
    with _atomic(out_dir / ARTIFACTS["metrics"]) as file:
        file.write(json.dumps(metrics, ensure_ascii=False, indent=2).encode())
    return metrics


MAX_VICTIMS = 50  # words moved aside for added names that find no room, at most


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


def _size_plan(parent: Parent):
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


def _color_fresh(ids, placements, colors, fresh, config, mask, rng) -> None:
    """Colours for the words placed anew: their own where no reading neighbour has it, else
    one no neighbour has (a palette colour, or a shade of the mask's), so the
    neighbour-colour rule holds for every new neighbour."""
    if not fresh:
        return
    near = _near(ids, placements, fresh)
    order = [placements[i] for i in near]
    pairs = reading_neighbours(
        [p.ink_box for p in order], [p.font_size for p in order], [p.vertical for p in order]
    )
    adjacent = {word_id: set() for word_id in fresh}
    for i, j in pairs:
        for a, b in ((near[i], near[j]), (near[j], near[i])):
            if a in adjacent:
                adjacent[a].add(b)
    background = contrast_background(config)
    palette = list(dict.fromkeys(readable(list(config.palette), background)))
    for word_id in sorted(fresh):
        taken = {colors[i] for i in adjacent[word_id] if i in colors}
        if config.font_color:
            colors[word_id] = config.font_color
            continue
        if config.color_from_mask and mask.colors is not None:
            x, y, w, h = placements[word_id].ink_box
            mean = to_hex(mask.colors[y : y + h, x : x + w].reshape(-1, 3).mean(axis=0).round())
            color, step = readable([mean], background)[0], 0
            while color in taken and step < 8:
                step += 1
                color = shifted(mean, background, step)
            colors[word_id] = color
            continue
        own = colors.get(word_id)
        if own in palette and own not in taken:
            continue
        free = [c for c in palette if c not in taken]
        choices = free or palette
        colors[word_id] = choices[int(rng.integers(len(choices)))]


def _near(ids, placements, fresh) -> list:
    """The ``fresh`` words and those of ``ids`` whose ink boxes come within the longest
    reach of the reading-neighbour rule (:func:`reading_neighbours`: one em of the larger
    word, and a pixel) of one of them, in the order of ``ids``: whether two words are
    neighbours depends on the two alone, so among these the fresh words find every
    neighbour they have among all the words."""
    boxes = np.array([placements[i].ink_box for i in ids], dtype=np.int64)
    reach = reading_reach(max(placements[i].font_size for i in ids))
    near = np.zeros(len(ids), dtype=bool)
    for word_id in fresh:
        near |= _boxes_touch(boxes, placements[word_id].ink_box, reach)
    return [ids[k] for k in np.flatnonzero(near)]


def _write_svgs(parent, out_dir, placements, colors, changed_ids, removed, config) -> None:
    """Both SVGs as the parent's bytes with only the words' lines that changed replaced in
    place, the removed ones' dropped and the added ones' (ids above every parent id) put
    before the closing tag; every other line is copied as it was, unparsed. The parent's
    file is mapped, not read: its bytes go from the page cache to the new file once."""
    median = statistics.median(parent.value(i, "font_size") for i in parent.rows)
    touched = (changed_ids | removed) & parent.rows.keys()
    new = {i: _svg_lines(i, placements, colors, median, config) for i in changed_ids}
    for kind, which in (("svg", 0), ("svg_stroke", 1)):
        with (
            open(parent.folder / ARTIFACTS[kind], "rb") as source,
            mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ) as data,
            memoryview(data) as view,
            _atomic(out_dir / ARTIFACTS[kind]) as out,
        ):
            start = 0
            for word_id, (begin, end) in _word_lines(data, touched):
                out.write(view[start:begin])
                if word_id in changed_ids:
                    out.write(new[word_id][which])
                start = end
            closing = data.rfind(SVG_END.encode())
            out.write(view[start:closing])
            for word_id in sorted(changed_ids - parent.rows.keys()):
                out.write(new[word_id][which])
            out.write(view[closing:])


def _word_lines(data, ids) -> list[tuple[int, tuple[int, int]]]:
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


def _svg_lines(word_id, placements, colors, median, config) -> tuple[bytes, ...]:
    """Word ``word_id``'s new lines in the filled SVG and the stroked one, drawn once for
    both."""
    placement = placements[word_id]
    line = stroke_width(placement.font_size, median, config)
    elements = path_elements(word_id, placement, colors[word_id], line)
    return tuple(element.encode() for element in elements)


def _write_inks(out_dir, parent, ids, placements) -> None:
    """The revision's own INKS, for its own revisions: the ink of each word stamped here
    (``Placement.ink``), the parent's of each other one; none when the parent kept none."""
    if parent.inks is None:
        return
    kept_ids, starts, ends, bits = parent.inks
    kept = dict(zip(kept_ids.tolist(), zip(starts.tolist(), ends.tolist())))
    inks = [bits[slice(*kept[i])] if placements[i].ink is None else placements[i].ink for i in ids]
    with _atomic(out_dir / INKS) as out:
        write_inks(out, ids, inks)


def _parent_pixels(parent: Parent) -> tuple[np.ndarray, Strips | None]:
    """The parent's PNG as a pixel array, and its strips as stored when this engine wrote it
    in strips (for the revised PNG to copy those no change touches)."""
    read = read_png_strips(parent.folder / ARTIFACTS["png"])
    if read is None:  # not written by this engine
        with Image.open(parent.folder / ARTIFACTS["png"]) as image:
            return np.array(image), None
    return read


def _write_pngs(out_dir, parent_png, gone, changed, colors, config, placements, edited, displaced):
    """The revised PNG: the parent's pixels (``parent_png``, as :func:`_parent_pixels` reads
    them) with the ink of the ``gone`` placements (removed, or drawn anew) cleared to the
    background and the ``changed`` ones painted in ``colors`` (the same pixels as painting
    the revision whole, since no two words' ink shares a pixel), the parent's strips copied
    where none of those words reaches; then its proof, the ``edited`` and ``displaced`` words
    outlined."""
    canvas, strips = parent_png
    changed_rows = np.zeros(canvas.shape[0], dtype=bool)
    background = 0 if config.transparent else to_rgb(config.background_color)
    # Each word that goes is painted at the corner of a buffer the size of its ink box (moved
    # by whole pixels: the same ink) to find its pixels; a mask the canvas's size took 60 ms.
    for placement in gone:
        x, y, w, h = placement.ink_box
        ink = np.zeros((h, w, 4), dtype=np.uint8)
        paint_placements(ink, [replace(placement, ink_box=(0, 0, w, h))], ["#000000"])
        canvas[y : y + h, x : x + w][ink[..., 3] > 0] = background
    for _, y, _, h in (placement.ink_box for placement in [*gone, *changed]):
        changed_rows[y : y + h] = True
    paint_placements(canvas, changed, colors)
    with _atomic(out_dir / ARTIFACTS["png"]) as png:
        write_png(png, canvas, parent=strips, changed_rows=changed_rows)
    _write_proof(out_dir, canvas, placements, edited, displaced)


PROOF_SIDE = 2000  # a larger poster's proof is scaled down (by whole steps) to this side


def _write_proof(out_dir, canvas, placements, changed, displaced) -> None:
    """proof.png: the revised poster (scaled down by a whole factor to at most PROOF_SIDE a
    side, for a phone) with each changed word's ink box outlined in red and each displaced
    word's in blue."""
    step = max(1, math.ceil(max(canvas.shape[:2]) / PROOF_SIDE))
    proof = canvas[::step, ::step].copy()
    height, width = proof.shape[:2]
    for ids, color in ((displaced, PROOF_DISPLACED), (changed, PROOF_CHANGED)):
        paint = (*color, 255)[: proof.shape[2]]
        for word_id in sorted(ids):
            x, y, w, h = (v / step for v in placements[word_id].ink_box)
            x0, y0 = max(0, int(x) - PROOF_LINE - 1), max(0, int(y) - PROOF_LINE - 1)
            x1 = min(width, math.ceil(x + w) + PROOF_LINE + 1)
            y1 = min(height, math.ceil(y + h) + PROOF_LINE + 1)
            proof[y0 : y0 + PROOF_LINE, x0:x1] = paint
            proof[max(y0, y1 - PROOF_LINE) : y1, x0:x1] = paint
            proof[y0:y1, x0 : x0 + PROOF_LINE] = paint
            proof[y0:y1, max(x0, x1 - PROOF_LINE) : x1] = paint
    with _atomic(out_dir / PROOF) as file:
        write_png(file, proof)


def _scripts_after(scripts: dict, gone: list, new: list, shapes) -> dict:
    """The parent's script counts (metrics ``scripts``) with the names ``gone`` (removed, or
    renamed from) taken out and the ``new`` ones (added, or renamed to) counted in."""
    scripts = json.loads(json.dumps(scripts))
    for names, step in ((gone, -1), (new, 1)):
        for name in names:
            runs = set(shapes.get(name.text, False)[0].runs)
            for script in {script for script, _ in runs}:
                entry = scripts.setdefault(script, {"names": 0, "fonts": {}})
                entry["names"] += step
            for script, family in runs:
                fonts = scripts[script]["fonts"]
                fonts[family] = fonts.get(family, 0) + step
    for script in list(scripts):
        scripts[script]["fonts"] = {f: n for f, n in scripts[script]["fonts"].items() if n > 0}
        if scripts[script]["names"] <= 0:
            del scripts[script]
    return dict(sorted(scripts.items()))


def _metrics(parent, placements, colors, config, mask, seed) -> dict:
    """The parent's metrics, its figures computed again for the revised layout."""
    metrics = json.loads((parent.folder / ARTIFACTS["metrics"]).read_text(encoding="utf-8"))
    names = list({p.name.row: p.name for p in placements}.values())
    sizes = [p.font_size for p in placements]
    metrics.pop("changes", None)
    metrics.update(
        {
            "names_read": len(names),
            "names_placed": len(names),
            "placements": len(placements),
            "font_size": {"min": min(sizes), "median": statistics.median(sizes), "max": max(sizes)},
            "box_coverage": _coverage((p.box for p in placements), mask.inside),
            "ink_box_coverage": _coverage((p.ink_box for p in placements), mask.inside),
            "seed": seed,
        }
    )
    metrics.pop("contrast_warning", None)
    metrics.update(_contrast_figures(colors, config))
    return metrics
