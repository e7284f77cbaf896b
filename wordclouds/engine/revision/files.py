"""A revision's files: both SVGs and the PNG as the parent's with only the changed words
redrawn, its kept ink, the proof and the metrics."""

import json
import math
import mmap
import statistics
from dataclasses import dataclass, replace

import numpy as np

from ..artifacts import ARTIFACTS, atomic
from ..colors import to_rgb
from ..metrics import box_coverage, contrast_figures, neighbour_color_figures
from ..neighbours import reading_neighbours
from ..png import write_png
from ..render import (
    LAYER_CLOSE,
    SVG_END,
    layer_id,
    paint_placements,
    path_elements,
    stroke_width,
)
from ..restamp import INKS, write_inks
from .parent import word_lines

PROOF = "proof.png"
# The proof's outlines: every word the revision changed by an edit (added, renamed, moved,
# resized, recoloured: placed in place or again elsewhere) in red, every word that only had
# to make room (displaced, or moved aside for an added name) in blue.
PROOF_CHANGED, PROOF_DISPLACED = (214, 39, 40), (31, 119, 180)
PROOF_LINE = 3
PROOF_SIDE = 2000  # a larger poster's proof is scaled down (by whole steps) to this side


@dataclass
class Revised:
    """A placed revision as its files need it: every word's placement and colour by id, the
    ids drawn anew (``changed``: named by an edit or displaced), the ``removed`` ones, and
    of the changed ones those an edit ``named`` (added, renamed, moved, resized, recoloured)
    and those only ``displaced``."""

    placements: dict
    colors: dict
    changed: set
    removed: set
    named: set
    displaced: set


def write_svgs(parent, out_dir, revised: Revised) -> None:
    """Both SVGs as the parent's bytes with only the words' lines that changed replaced in
    place, the removed ones' dropped and the added ones' (ids above every parent id) put
    before the closing tag, on a poster with groups before the closing tag of their group's
    layer; every other line is copied as it was, unparsed. The parent's file is mapped, not
    read: its bytes go from the page cache to the new file once."""
    median = statistics.median(parent.value(i, "font_size") for i in parent.rows)
    changed_ids = revised.changed
    touched = (changed_ids | revised.removed) & parent.rows.keys()
    new = {i: _svg_lines(i, revised, median, parent.params) for i in changed_ids}
    added = sorted(changed_ids - parent.rows.keys())
    groups = [spec["group"] for spec in json.loads(parent.meta.get("groups", "[]"))]
    for kind, which in (("svg", 0), ("svg_stroke", 1)):
        with (
            open(parent.folder / ARTIFACTS[kind], "rb") as source,
            mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ) as data,
            memoryview(data) as view,
            atomic(out_dir / ARTIFACTS[kind]) as out,
        ):
            changes = [
                (begin, end, [word_id] if word_id in changed_ids else [])
                for word_id, (begin, end) in word_lines(data, touched)
            ]
            changes += [
                (at, at, ids) for at, ids in _insertions(data, groups, added, revised.placements)
            ]
            start = 0
            for begin, end, ids in sorted(changes, key=lambda change: change[:2]):
                out.write(view[start:begin])
                for word_id in ids:
                    out.write(new[word_id][which])
                start = end
            out.write(view[start:])


def _insertions(data, groups: list[str], added: list[int], placements) -> list:
    """(offset, ids) where the ``added`` words' lines go in a parent's SVG ``data``: all
    before ``</svg>``, or on a poster with ``groups`` each group's before its layer's
    closing tag (the first after the layer's opening one: a layer holds only paths); a
    parent written before posters had layers has none, and takes them as one without."""
    if not groups or data.find(b'<g id="%s"' % layer_id(1).encode()) < 0:
        return [(data.rfind(SVG_END.encode()), added)]
    found = []
    for k, group in enumerate(groups, start=1):
        opening = data.find(b'<g id="%s"' % layer_id(k).encode())
        closing = data.find(LAYER_CLOSE.encode(), opening)
        if opening < 0 or closing < 0:
            raise ValueError(f"the parent's SVG has no layer for group {group!r}")
        found.append((closing, [i for i in added if placements[i].name.group == group]))
    return found


def _svg_lines(word_id, revised: Revised, median, config) -> tuple[bytes, ...]:
    """Word ``word_id``'s new lines in the filled SVG and the stroked one, drawn once for
    both."""
    placement = revised.placements[word_id]
    line = stroke_width(placement.font_size, median, config)
    elements = path_elements(word_id, placement, revised.colors[word_id], line)
    return tuple(element.encode() for element in elements)


def write_kept_inks(out_dir, parent, ids, placements) -> None:
    """The revision's own INKS, for its own revisions: the ink of each word stamped here
    (``Placement.ink``), the parent's of each other one; none when the parent kept none."""
    if parent.inks is None:
        return
    kept_ids, starts, ends, bits = parent.inks
    kept = dict(zip(kept_ids.tolist(), zip(starts.tolist(), ends.tolist())))
    inks = [bits[slice(*kept[i])] if placements[i].ink is None else placements[i].ink for i in ids]
    with atomic(out_dir / INKS) as out:
        write_inks(out, ids, inks)


def write_pngs(out_dir, parent_png, gone, revised: Revised, config) -> None:
    """The revised PNG: the parent's pixels (``parent_png``, as :func:`parent.parent_pixels`
    reads them) with the ink of the ``gone`` placements (removed, or drawn anew) cleared to
    the background and the changed ones painted in their colours (the same pixels as
    painting the revision whole, since no two words' ink shares a pixel), the parent's
    strips copied where none of those words reaches; then its proof (:func:`write_proof`)."""
    canvas, strips = parent_png
    changed = [revised.placements[i] for i in sorted(revised.changed)]
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
    paint_placements(canvas, changed, [revised.colors[i] for i in sorted(revised.changed)])
    with atomic(out_dir / ARTIFACTS["png"]) as png:
        write_png(png, canvas, parent=strips, changed_rows=changed_rows)
    write_proof(out_dir, canvas, revised)


def write_proof(out_dir, canvas, revised: Revised) -> None:
    """proof.png: the revised poster (scaled down by a whole factor to at most PROOF_SIDE a
    side, for a phone) with the ink box of each word an edit named outlined in red and of
    each word only displaced in blue."""
    step = max(1, math.ceil(max(canvas.shape[:2]) / PROOF_SIDE))
    proof = canvas[::step, ::step].copy()
    height, width = proof.shape[:2]
    for ids, color in ((revised.displaced, PROOF_DISPLACED), (revised.named, PROOF_CHANGED)):
        paint = (*color, 255)[: proof.shape[2]]
        for word_id in sorted(ids):
            x, y, w, h = (v / step for v in revised.placements[word_id].ink_box)
            x0, y0 = max(0, int(x) - PROOF_LINE - 1), max(0, int(y) - PROOF_LINE - 1)
            x1 = min(width, math.ceil(x + w) + PROOF_LINE + 1)
            y1 = min(height, math.ceil(y + h) + PROOF_LINE + 1)
            proof[y0 : y0 + PROOF_LINE, x0:x1] = paint
            proof[max(y0, y1 - PROOF_LINE) : y1, x0:x1] = paint
            proof[y0:y1, x0 : x0 + PROOF_LINE] = paint
            proof[y0:y1, max(x0, x1 - PROOF_LINE) : x1] = paint
    with atomic(out_dir / PROOF) as file:
        write_png(file, proof)


def scripts_after(scripts: dict, gone: list, new: list, shapes) -> dict:
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


def revised_metrics(parent, placements, colors, mask, seed) -> dict:
    """The parent's metrics, its figures computed again for the revised layout (``placements``
    and their ``colors``, in id order)."""
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
            "box_coverage": box_coverage((p.box for p in placements), mask.inside),
            "ink_box_coverage": box_coverage((p.ink_box for p in placements), mask.inside),
            "seed": seed,
        }
    )
    metrics.pop("contrast_warning", None)
    metrics.pop("palette_warning", None)
    metrics.update(contrast_figures(colors, parent.params))
    neighbours = reading_neighbours(
        [p.ink_box for p in placements], sizes, [p.vertical for p in placements]
    )
    metrics["reading_neighbours"] = len(neighbours)
    metrics.update(neighbour_color_figures(colors, neighbours, parent.params))
    return metrics
