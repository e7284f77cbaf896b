"""A poster made for its printed size (PRINT_WIDTH_MM, PRINT_HEIGHT_MM, MIN_NAME_PT): the
smallest font in canvas px that prints at MIN_NAME_PT, and the standard sheet the names would
fit on when they do not (docs/engine.md, "Printed size")."""

import math
from dataclasses import replace

import numpy as np

from .advances import unit_boxes
from .groups import estimated_inks, group_band, regions
from .mask import load_mask
from .names import read_names
from .params import parse_params
from .planning import MOST_CROWDING
from .shaping import check_drawable

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


def _sheets(width: int, height: int, shop_sizes) -> list[tuple]:
    """(name, width mm, height mm, mm a canvas px prints at, the shop's) of every sheet the
    advice weighs, the smallest print first: the A sizes, the poster fitted inside each, and
    the shop's own sizes ``shop_sizes`` (name, width mm or None, height mm or None), printed
    as a paid order's files are: at the width, or at the height where no width is given."""
    sheets = [
        (name, w, h, min(w / width, h / height), False) for name, w, h in sheet_sizes(width, height)
    ]
    for name, w, h in shop_sizes:
        scale = w / width if w else h / height
        sheets.append(
            (name, w or round(width * scale, 1), h or round(height * scale, 1), scale, True)
        )
    return sorted(sheets, key=lambda sheet: sheet[3])


def fitting_sheet(names, shapes, mask, params, shop_sizes=()):
    """The smallest sheet (an A size or one of ``shop_sizes``) on which every name would fit
    at MIN_NAME_PT (size_advice's estimate): (name, width mm, height mm, the shop's), or None
    when none would."""
    smallest = size_advice(names, shapes.typeface, mask, params, shop_sizes)["smallest"]
    return smallest and tuple(smallest[k] for k in ("name", "width_mm", "height_mm", "shop"))


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


def _largest_smallest_px(names, typeface, mask, params) -> float:
    """The largest smallest font (px) at which the names stay within MOST_CROWDING, the
    crowding of every name horizontal at that size with its margin (the layout's own measure,
    see planning._crowding), from the names' ink boxes measured without outlines
    (advances.unit_boxes): the positive root of sum((s w + m)(s h + m)) = MOST_CROWDING ×
    the shape's area, at most the shape's shorter side."""
    widths, heights = unit_boxes([name.text for name in names], typeface, params.locale)
    margin = math.ceil(params.margin)
    room = MOST_CROWDING * mask.area - len(names) * margin * margin
    square, linear = float(np.sum(widths * heights)), margin * float(np.sum(widths + heights))
    if room <= 0:
        return 0.0
    if square <= 0:
        largest = room / linear if linear > 0 else math.inf
    else:
        largest = (-linear + math.sqrt(linear * linear + 4 * square * room)) / (2 * square)
    return min(largest, float(min(mask.width, mask.height)))


def size_advice(names, typeface, mask, params, shop_sizes=()) -> dict:
    """Without laying out: for each A size (turned to the canvas) and each of the shop's
    ``shop_sizes`` (name, width mm or None, height mm or None), the smallest print first,
    whether every name would fit at MIN_NAME_PT and the smallest name to expect there (the
    largest smallest size the names can have, by the same crowding estimate as a failed
    job's sentence), and the smallest sheet that fits; with PRINT_WIDTH_MM or
    PRINT_HEIGHT_MM, ``printed``: the same for that printed size (else None). With groups
    each group's names are weighed against its region (groups.regions, shares from the same
    ink boxes), and the most crowded region decides."""
    if params.group_col_index is None:
        largest = _largest_smallest_px(names, typeface, mask, params)
    else:  # each group in its region: the most crowded region decides
        inks = estimated_inks(names, typeface, params.locale)
        found = regions(
            mask, list(inks), list(inks.values()), group_band(params), params.group_regions
        )
        largest = min(
            _largest_smallest_px(
                [n for n in names if n.group == group],
                typeface,
                replace(mask, inside=mask.inside & region.inside),
                params,
            )
            for group, region in zip(inks, found, strict=True)
        )

    def advice(width, height, scale):
        expected = largest * scale / MM_PER_PT
        return {
            "width_mm": width,
            "height_mm": height,
            "fits": expected >= params.min_name_pt,
            "expected_smallest_name_pt": round(expected, 2),
        }

    sizes = [
        {"name": name, **advice(width, height, scale), "shop": shop}
        for name, width, height, scale, shop in _sheets(mask.width, mask.height, shop_sizes)
    ]
    smallest = next((size for size in sizes if size["fits"]), None)
    scale = mm_per_px(params, mask.width, mask.height)
    printed = scale and advice(round(mask.width * scale, 2), round(mask.height * scale, 2), scale)
    return {
        "smallest": smallest
        and {k: smallest[k] for k in ("name", "width_mm", "height_mm", "shop")},
        "sizes": sizes,
        "printed": printed,
    }


def print_size_advice(
    *, names_path, params: dict, mask_path=None, font_path=None, shop_sizes=()
) -> dict:
    """size_advice for a job's inputs (its names file, params, mask and font), read as a job
    reads them; InputError as a job's."""
    config = parse_params(params)
    names = read_names(
        names_path,
        column=config.data_col_index,
        skip_rows=config.skip_rows,
        weight_column=config.weight_col_index,
        group_column=config.group_col_index,
    )
    mask = load_mask(mask_path, params=config)
    typeface = check_drawable(names, font_path, config.locale)
    return size_advice(names, typeface, mask, config, shop_sizes)
