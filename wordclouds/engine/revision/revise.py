"""A revision from start to end: the parent read, the edits checked and placed, the words
coloured, the files written."""

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from ..artifacts import write_database, write_metrics
from ..errors import InputError
from ..mask import keep_out_pixels, without
from ..names import Name
from ..positions import placement_row, write_revised_rows
from ..progress import Progress
from ..render import fresh_colors
from .arrange import Arrangement, Edited
from .edits import _checked
from .files import (
    Revised,
    revised_metrics,
    scripts_after,
    write_kept_inks,
    write_pngs,
    write_svgs,
)
from .parent import (
    Parent,
    _mask,
    _shapes,
    ink_box_at,
    parent_pixels,
    pinned_spot,
    shaped,
    size_plan,
)

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
    mask_font_path=None,
):
    """Write the revision of the layout in ``parent_dir`` by ``edits`` into ``out_dir``
    (the five artifacts of a job and proof.png); return its metrics, whose ``changes`` name
    the parent (``parent_id``) and list the ids added, removed, renamed, moved, resized,
    recoloured and displaced. ``mask_font_path``: a text mask's font (MASK_FONT_ID's
    file; default ``font_path``)."""
    report = Progress(progress, REVISION_STAGES)
    report.begin("reading_parent", "reading the poster to revise")
    parent = Parent(parent_dir)
    parent.text_font = mask_font_path
    # Two threads beside this one: the parent's PNG decoded while the words are placed (zlib
    # lets go of Python's lock, the compiled placing does not need it back), then the revised
    # PNG and the proof written while the SVGs and the database are.
    with ThreadPoolExecutor(max_workers=1) as painter:
        pixels = painter.submit(parent_pixels, parent)
        clean = _checked(edits, parent, mask_path, font_path)
        mask = _mask(parent, mask_path, mask_font_path or font_path)
        if (mask.width, mask.height) != (parent.width, parent.height):
            raise InputError("the mask image is not the one the poster was made with")
        shapes = _shapes(parent, font_path)
        seed = clean["seed"] if clean["seed"] is not None else int(parent.meta["seed"])
        kept_out = keep_out_pixels(clean["keepOut"], parent.height, parent.width)
        carved = without(mask, clean["keepOut"] + list(parent.params.keep_out))
        before = parent.placements()
        report.begin("placing_edits", "placing the corrections")
        edited = _edited(parent, clean, shapes, before)
        placed = Arrangement(parent, edited, carved, kept_out, shapes, seed).settled()

        report.begin("rendering", f"drawing {len(placed[0]) + len(placed[2])} words")
        revised = _revised(parent, clean, edited, placed, mask)
        # drawn anew: a recoloured word keeps its place, not its line
        for word_id in revised.changed:
            revised.placements[word_id] = shaped(shapes, revised.placements[word_id])
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        gone = [shaped(shapes, edited.before[i])
                for i in sorted((edited.removed | revised.changed) & edited.before.keys())]  # fmt: skip
        drawn = painter.submit(write_pngs, out_dir, pixels.result(), gone, revised, parent.params)
        write_svgs(parent, out_dir, revised)

        report.begin("writing_artifacts", "writing files")
        _write_rows(out_dir, parent, revised, seed)
        metrics = _metrics(parent, edited, revised, mask, shapes, seed)
        drawn.result()
    metrics["changes"] = _changes(parent_id, clean, edited, revised, placed[1])
    write_metrics(out_dir, metrics, report)
    return metrics


def _edited(parent: Parent, clean: dict, shapes, before: dict) -> Edited:
    """The parent's words (``before``, Parent.placements) as the ``clean`` edits leave them
    before placing (arrange.Edited): the removed gone, the renamed with their new outlines,
    the pinned where asked, the added names with the size a name of their weight has
    (:func:`parent.size_plan`)."""
    placements = dict(before)
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
        size, centre = pinned_spot(clean, parent, word_id)
        old = shaped(shapes, placements[word_id])
        pinned[word_id] = replace(
            old, font_size=size, ink_box=ink_box_at(old.outline, size, centre)
        )
    next_row = max((p.name.row for p in placements.values()), default=0) + 1
    plan = size_plan(parent)
    added = [
        (
            Name(entry["name"], next_row + k, entry["weight"], entry["group"] or ""),
            plan(entry["weight"]),
        )
        for k, entry in enumerate(clean["add"])
    ]
    return Edited(before, placements, pinned, renamed, added, removed)


def _revised(parent: Parent, clean: dict, edited: Edited, placed, mask) -> Revised:
    """The placed revision (``placed``: Arrangement.settled's outcome) with the added names
    given ids above every parent id and every word its colour: the recoloured ones the
    customer's, the words placed anew (render.fresh_colors) by the rule of a first layout,
    every other one the parent's."""
    placements, displaced, news, rng = placed
    added_ids = list(range(max(parent.rows) + 1, max(parent.rows) + 1 + len(news)))
    placements.update(zip(added_ids, news))
    recolored = {e["id"]: e["color"] for e in clean["recolor"]}
    named = set(added_ids) | set(edited.renamed) | set(edited.pinned) | set(recolored)
    fresh = (displaced | named) - set(recolored)
    colors = parent.colors()
    colors.update(recolored)
    fresh_colors(sorted(placements), placements, colors, fresh, parent.params, mask, rng)
    return Revised(placements, colors, named | displaced, edited.removed, named, displaced - named)


def _write_rows(out_dir: Path, parent: Parent, revised: Revised, seed) -> None:
    """The revision's positions.db (the parent's file with the changed rows replaced) and
    its kept ink."""
    placements, colors = revised.placements, revised.colors
    rows = [placement_row(i, placements[i], colors[i]) for i in sorted(revised.changed)]
    gone = revised.removed | revised.changed & parent.rows.keys()
    write_database(
        out_dir, lambda path: write_revised_rows(parent.db, path, gone, rows, {"seed": seed})
    )
    write_kept_inks(out_dir, parent, sorted(placements), placements)


def _metrics(parent: Parent, edited: Edited, revised: Revised, mask, shapes, seed) -> dict:
    """The revision's metrics but its changes and stage times; the script counts the
    parent's with the names gone (removed, or renamed from) and new (added, or renamed to)."""
    ids = sorted(revised.placements)
    placements = revised.placements
    ordered = [placements[i] for i in ids]
    metrics = revised_metrics(parent, ordered, [revised.colors[i] for i in ids], mask, seed)
    added = revised.named - parent.rows.keys()
    gone_names = [edited.before[i].name for i in sorted(edited.removed | set(edited.renamed))
                  if edited.before[i].repetition == 1]  # fmt: skip
    new_names = [placements[i].name for i in sorted(set(edited.renamed) | added)
                 if placements[i].repetition == 1]  # fmt: skip
    metrics["scripts"] = scripts_after(metrics["scripts"], gone_names, new_names, shapes)
    return metrics


def _changes(parent_id, clean: dict, edited: Edited, revised: Revised, displaced: set) -> dict:
    """metrics ``changes``: the parent, and the ids the revision added, removed, renamed,
    moved, resized, recoloured and displaced (a renamed or pinned word that had to move is
    not counted as displaced)."""
    return {
        "parent": parent_id,
        "added": sorted(revised.named - edited.before.keys()),
        "removed": sorted(edited.removed),
        "renamed": sorted(edited.renamed),
        "moved": sorted(e["id"] for e in clean["move"]),
        "resized": sorted(e["id"] for e in clean["resize"]),
        "recolored": sorted(e["id"] for e in clean["recolor"]),
        "displaced": sorted(displaced - set(edited.renamed) - set(edited.pinned)),
        "unchanged": len(revised.placements) - len(revised.changed),
    }
