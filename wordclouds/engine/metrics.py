"""The figures of metrics.json that a run and a revision both compute: how much of the shape
the words cover, which scripts and fonts the names use, the lowest contrast of a colour."""

import numpy as np

from .colors import LEAST_CONTRAST, contrast, to_rgb
from .compiled import njit
from .render import contrast_background


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
