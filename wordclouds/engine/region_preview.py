"""The regions of a grouped text-mask poster before it is made (the studio's preview,
docs/engine.md, Groups): MASK_TEXT's letters as outlines on the canvas and the letters and
colour each group will take, without laying out."""

from collections import Counter

import shapely

from .groups import estimated_inks, group_colors, group_order, letter_spans
from .mask import Mask
from .params import Params
from .render import readable_palette

SIMPLIFY = 0.5  # px: how far the preview's outline may lie from the mask's flattened one


def region_preview(names, typeface, mask: Mask, params: Params) -> dict:
    """The canvas size; per letter (reading order) its text and contours (px, closed, each
    a list of [x, y]; even-odd: a counter is a hole); per group (spreadsheet order) its
    names, letters and colour, as groups.regions and group_colors choose them (the shares
    from the size advice's ink boxes, advances.unit_boxes)."""
    groups = group_order(names)
    inks = estimated_inks(names, typeface, params.locale)
    letters = mask.letters
    spans = letter_spans(groups, [inks[g] for g in groups], mask, params.group_regions)
    colors = group_colors(groups, params, readable_palette(params))
    counts = Counter(name.group for name in names)
    return {
        "width": mask.width,
        "height": mask.height,
        "letters": [
            {"text": text, "contours": [_points(contour) for contour in contours]}
            for text, contours in zip(letters.texts, letters.letters, strict=True)
        ],
        "groups": [
            {"group": g, "names": counts[g], "letters": span, "color": colors[g]}
            for g, span in zip(groups, spans, strict=True)
        ],
    }


def _points(contour) -> list[list[float]]:
    """A contour simplified within SIMPLIFY px, its points rounded to 0.1 px."""
    ring = shapely.simplify(shapely.LinearRing(contour), SIMPLIFY, preserve_topology=False)
    points = ring.coords[:-1] if len(ring.coords) > 3 else contour  # a tiny contour as it is
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]
