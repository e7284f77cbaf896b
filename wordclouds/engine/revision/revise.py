"""A revision from start to end: the parent read, the edits checked and placed, the words
coloured, the files written."""

import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from operator import itemgetter
from pathlib import Path

import numpy as np

from ..colors import readable, shifted, to_hex
from ..errors import InputError, LayoutError
from ..generate import (
    ARTIFACTS,
    Progress,
    _atomic,
)
from ..layout import Placement
from ..mask import keep_out_pixels, without
from ..names import Name
from ..neighbours import reading_neighbours, reading_reach
from ..positions import placement_row, write_revised_rows
from ..render import contrast_background
from .arrange import MAX_VICTIMS, Arrangement, _boxes_touch
from .edits import _checked
from .files import _metrics, _scripts_after, _write_inks, _write_pngs, _write_svgs
from .parent import Parent, _ink_box_at, _mask, _parent_pixels, _pinned_spot, _shapes, _size_plan

REVISION_STAGES = {  # stage: (percent at its start, percent at its end)
    "reading_parent": (0, 20),
    "placing_edits": (20, 70),
    "rendering": (70, 90),
    "writing_artifacts": (90, 100),
}


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
