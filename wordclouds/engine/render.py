"""Drawing the placed words: colours, the two SVG documents, and the PNG painted from the same
outlines, so the image and the vector files agree by construction."""

import io
import statistics

import numpy as np
from PIL import Image

from .layout import Placement
from .mask import Mask
from .outlines import placed_path, placed_tenths
from .params import Params
from .raster import coverage, flatten, paint


def word_colors(placements: list[Placement], params: Params, mask: Mask, seed: int) -> list[str]:
    """One ``#RRGGBB`` per placement: FONT_COLOR, else the mask image's mean colour under the
    word's ink box (COLOR_FROM_MASK with an image), else a seeded pick from PALETTE."""
    if params.font_color:
        return [params.font_color] * len(placements)
    if params.color_from_mask and mask.colors is not None:
        colors = []
        for placement in placements:
            x, y, width, height = placement.ink_box
            region = mask.colors[y : y + height, x : x + width].reshape(-1, 3)
            colors.append(
                "#{:02X}{:02X}{:02X}".format(*tuple(int(v) for v in region.mean(axis=0).round()))
            )
        return colors
    rng = np.random.default_rng([seed, 1])
    picks = rng.integers(0, len(params.palette), size=len(placements))
    return [params.palette[i] for i in picks]


def stroke_widths(placements: list[Placement], params: Params) -> list[float]:
    """The outline width of each placement in svg_stroke: STROKE_WIDTH, or with
    ENABLE_STROKE_WEIGHTS scaled by font size so the median size gets STROKE_WIDTH."""
    if not params.enable_stroke_weights or not placements:
        return [params.stroke_width] * len(placements)
    median = statistics.median(p.font_size for p in placements)
    return [params.stroke_width * p.font_size / median for p in placements]


def _header(width, height):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n'
    )


def svg_documents(
    placements: list[Placement], colors: list[str], params: Params, width: int, height: int
) -> tuple[str, str]:
    """The filled SVG (with the background unless transparent) and the stroked one; element
    ``w<N>`` draws placement N (1-based, in list order)."""
    fill_parts, stroke_parts = [_header(width, height)], [_header(width, height)]
    if not params.transparent:
        fill_parts.append(
            f'<rect id="background" width="{width}" height="{height}" '
            f'fill="{params.background_color}"/>\n'
        )
    for number, (placement, color, stroke) in enumerate(
        zip(placements, colors, stroke_widths(placements, params)), start=1
    ):
        d = placed_path(placement.outline, placement.font_size, *placement.ink_box[:2])
        fill_parts.append(f'<path id="w{number}" fill="{color}" d="{d}"/>\n')
        stroke_parts.append(
            f'<path id="w{number}" fill="none" stroke="{color}" '
            f'stroke-width="{stroke:.3g}" d="{d}"/>\n'
        )
    fill_parts.append("</svg>\n")
    stroke_parts.append("</svg>\n")
    return "".join(fill_parts), "".join(stroke_parts)


def render_png(
    placements: list[Placement], colors: list[str], params: Params, width: int, height: int
) -> bytes:
    """Paint the placements from the very coordinates of the SVG paths (curves flattened,
    anti-aliased by exact pixel coverage) onto the background; RGBA when it is transparent,
    RGB otherwise."""
    if params.transparent:
        canvas = np.zeros((height, width, 4), dtype=np.uint8)
    else:
        canvas = np.empty((height, width, 3), dtype=np.uint8)
        canvas[:] = _rgb(params.background_color)
    for placement, color in zip(placements, colors):
        x, y, box_w, box_h = placement.ink_box
        if not placement.outline.codes.size:
            continue
        points = placed_tenths(placement.outline, placement.font_size, x, y) / 10
        polygon, ends = flatten(placement.outline.codes, points)
        paint(canvas, coverage(polygon, ends, 1.0, x, y, box_h, box_w), x, y, *_rgb(color))
    out = io.BytesIO()
    Image.fromarray(canvas).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)
