"""A poster made for its printed size (PRINT_WIDTH_MM, PRINT_HEIGHT_MM, MIN_NAME_PT): the
smallest font in canvas px that prints at MIN_NAME_PT, and the standard sheet the names would
fit on when they do not (docs/engine.md, "Printed size")."""

import math

from .layout import _crowding

MM_PER_PT = 25.4 / 72
# ISO 216 A sizes, portrait (width × height, mm), smallest first.
A_SIZES = (
    ("A5", 148, 210),
    ("A4", 210, 297),
    ("A3", 297, 420),
    ("A2", 420, 594),
    ("A1", 594, 841),
    ("A0", 841, 1189),
    ("2A0", 1189, 1682),
    ("4A0", 1682, 2378),
)
# The crowding (the area every name takes at the smallest size, with its margin, over the
# shape's area) up to which every name is placed: measured on the 3,000-name heart
# (docs/benchmarks.md, "Printed size"), with a margin for other lists and shapes.
MOST_CROWDING = 0.5


def mm_per_px(params, width: int, height: int) -> float | None:
    """How many mm a canvas pixel prints at, or None without a printed size (both sides
    given: the poster fits inside them)."""
    scales = []
    if params.print_width_mm:
        scales.append(params.print_width_mm / width)
    if params.print_height_mm:
        scales.append(params.print_height_mm / height)
    return min(scales) if scales else None


def smallest_px(params, width: int, height: int) -> float | None:
    """The font size in canvas px that prints at MIN_NAME_PT, or None."""
    scale = mm_per_px(params, width, height)
    return None if scale is None else params.min_name_pt * MM_PER_PT / scale


def sheet_sizes(width: int, height: int):
    """The A sizes turned to the canvas's orientation: (name, width mm, height mm)."""
    for name, short, long in A_SIZES:
        yield (name, long, short) if width > height else (name, short, long)


def fitting_sheet(names, shapes, mask, params):
    """The smallest A size on which every name would fit at MIN_NAME_PT, by the crowding the
    names would have there; None when none would."""
    for name, sheet_w, sheet_h in sheet_sizes(mask.width, mask.height):
        scale = min(sheet_w / mask.width, sheet_h / mask.height)
        size = params.min_name_pt * MM_PER_PT / scale
        crowding = _crowding(names, shapes, size, math.ceil(params.margin)) / mask.area
        if crowding <= MOST_CROWDING:
            return name, sheet_w, sheet_h
    return None


def print_figures(params, width: int, height: int, sizes) -> dict:
    """metrics' ``print``: the printed size and the smallest name in pt and mm."""
    scale = mm_per_px(params, width, height)
    smallest = min(sizes) * scale if sizes else 0.0
    return {
        "width_mm": round(width * scale, 2),
        "height_mm": round(height * scale, 2),
        "smallest_name_pt": round(smallest / MM_PER_PT, 2),
        "smallest_name_mm": round(smallest, 3),
    }
