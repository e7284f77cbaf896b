"""The figures of metrics.json that a run and a revision both compute: how much of the shape
the words cover, which scripts and fonts the names use, the lowest contrast of a colour, how
far apart the colours of reading neighbours are."""

import numpy as np

from .colors import (
    LEAST_CONTRAST,
    LEAST_DEUTAN_DIFFERENCE,
    LEAST_DIFFERENCE,
    alike,
    contrast,
    differences,
    to_rgb,
)
from .compiled import njit
from .render import contrast_background, readable_palette


def box_coverage(boxes, inside) -> float:
    """The share of the shape's pixels that ``boxes`` (x, y, width, height each) cover."""
    covered = np.zeros_like(inside)
    _cover(covered, np.array(list(boxes), dtype=np.int64).reshape(-1, 4))
    return round(float(np.count_nonzero(covered & inside)) / max(1, np.count_nonzero(inside)), 4)


@njit(cache=True, nogil=True)
def _cover(covered, boxes):
    """Mark every box (x, y, width, height: a row of ``boxes``) in ``covered``."""
    for k in range(boxes.shape[0]):
        x, y, width, height = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
        covered[y : y + height, x : x + width] = True


def script_counts(names, placements, shapes) -> dict:
    """Per script, how many placed names have text in it and with which font families."""
    placed = {p.name.row for p in placements}
    scripts = {}
    for name in names:
        if name.row not in placed:
            continue
        runs = set(shapes.get(name.text, False)[0].runs)
        for script in {script for script, _ in runs}:
            scripts.setdefault(script, {"names": 0, "fonts": {}})["names"] += 1
        for script, family in runs:
            fonts = scripts[script]["fonts"]
            fonts[family] = fonts.get(family, 0) + 1
    return dict(sorted(scripts.items()))


def contrast_figures(colors, config) -> dict:
    """The lowest contrast of any word with the background, and a warning when a FONT_COLOR
    the user fixed is below LEAST_CONTRAST (chosen colours never are)."""
    background = contrast_background(config)
    lowest = float(contrast([to_rgb(c) for c in set(colors)], to_rgb(background)).min())
    figures = {"lowest_contrast": round(lowest, 2)}
    if lowest < LEAST_CONTRAST:
        figures["contrast_warning"] = (
            f"FONT_COLOR {config.font_color} has a contrast of {lowest:.2f}:1 with the "
            f"background {background}, below {LEAST_CONTRAST:g}:1: it may not read in print"
        )
    return figures


def neighbour_color_figures(colors, neighbours, config) -> dict:
    """The least CIEDE2000 difference between the colours of two reading ``neighbours``
    (index pairs into ``colors``), seen normally and under deuteranopia (colors.differences),
    and, for palette colours, a warning when some pairs have colours that read as one
    (colors.alike): too few colours far enough apart. FONT_COLOR and the mask image's
    colours are the customer's choice, and get no warning."""
    pairs = np.asarray(neighbours, dtype=np.int64).reshape(-1, 2)
    if not pairs.size:
        return {"least_neighbour_difference": None}
    distinct = sorted(set(colors))
    index = np.array([distinct.index(c) for c in colors]) if len(distinct) > 1 else None
    normal, deutan = differences(distinct)
    a, b = (index[pairs[:, 0]], index[pairs[:, 1]]) if index is not None else (0, 0)
    figures = {
        "least_neighbour_difference": {
            "ciede2000": round(float(np.min(normal[a, b])), 1),
            "deuteranopia": round(float(np.min(deutan[a, b])), 1),
        }
    }
    close = np.count_nonzero(alike(distinct)[a, b])
    if close and not config.font_color and not config.color_from_mask:
        figures["palette_warning"] = (
            f"{close} of {len(pairs)} pairs of reading neighbours have colours that read as "
            f"one (CIEDE2000 under {LEAST_DIFFERENCE:g}, or under "
            f"{LEAST_DEUTAN_DIFFERENCE:g} as a red–green colour-blind reader sees them): "
            f"PALETTE has {len(config.palette)} colours, {far_apart(readable_palette(config))} of them "
            f"far enough apart, too few for this layout; give more colours, farther apart"
        )
    return figures


def far_apart(palette) -> int:
    """How many of ``palette``'s colours, taken in order, are kept when each that reads as
    one kept before it (colors.alike) is left out."""
    close = alike(list(palette))
    kept = []
    for k in range(len(palette)):
        if not close[k, kept].any():
            kept.append(k)
    return len(kept)
