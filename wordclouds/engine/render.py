"""Drawing the placed words: colours, the two SVG documents, and the PNG painted from the same
outlines, so the image and the vector files agree by construction."""

import re
import statistics

import numpy as np

from .colors import readable, shifted, to_hex, to_rgb
from .layout import Placement
from .mask import Mask
from .outlines import placed_path, placed_tenths
from .params import Params
from .png import write_png
from .raster import coverage, flatten, paint

# A placement's element in wordcloud.svg, as write_svgs writes it: `<path id="w<ID>" … d="…"/>`.
OUTLINE = re.compile(r'<path id="w(\d+)"[^>]*? d="([^"]*)"')


def contrast_background(params: Params) -> str:
    """The colour words are kept readable against: BACKGROUND_COLOR, or white (paper) when
    the background is transparent."""
    return "#FFFFFF" if params.transparent else params.background_color


def word_colors(
    placements: list[Placement], params: Params, mask: Mask, seed: int, neighbours
) -> list[str]:
    """One ``#RRGGBB`` per placement: FONT_COLOR as given, else the mask image's mean colour
    under the word's ink box (COLOR_FROM_MASK with an image), else a seeded pick from
    PALETTE; chosen colours are made readable (:func:`colors.readable`), and two
    reading-direction ``neighbours`` (index pairs) never share one: a palette word takes
    another palette colour, a mask word a lighter or darker variant of its own."""
    if params.font_color:
        return [params.font_color] * len(placements)
    background = contrast_background(params)
    adjacent = [[] for _ in placements]
    for i, j in neighbours:
        adjacent[j].append(i)
        adjacent[i].append(j)
    chosen = []
    if params.color_from_mask and mask.colors is not None:
        means = []
        for placement in placements:
            x, y, width, height = placement.ink_box
            region = mask.colors[y : y + height, x : x + width].reshape(-1, 3)
            means.append(to_hex(region.mean(axis=0).round()))
        for k, color in enumerate(readable(means, background)):
            taken = {chosen[i] for i in adjacent[k] if i < k}
            step = 0
            while color in taken and step < 8:
                step += 1
                color = shifted(means[k], background, step)
            chosen.append(color)
        return chosen
    palette = list(dict.fromkeys(readable(list(params.palette), background)))
    rng = np.random.default_rng([seed, 1])
    picks = rng.integers(0, len(palette), size=len(placements))
    spare = rng.random(len(placements))
    for k, pick in enumerate(picks):
        taken = {chosen[i] for i in adjacent[k] if i < k}
        free = [c for c in palette if c not in taken]
        color = palette[pick]
        if color in taken and free:
            color = free[int(spare[k] * len(free))]
        chosen.append(color)
    return chosen


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


def write_svgs(
    placements: list[Placement], colors: list[str], params: Params, size, fill, stroke
) -> None:
    """Write the filled SVG (with the background unless transparent) to the text file
    ``fill`` and the stroked one to ``stroke``, path by path; element ``w<N>`` draws
    placement N (1-based, in list order). ``size`` is the canvas's (width, height)."""
    width, height = size
    fill.write(_header(width, height))
    stroke.write(_header(width, height))
    if not params.transparent:
        fill.write(
            f'<rect id="background" width="{width}" height="{height}" '
            f'fill="{params.background_color}"/>\n'
        )
    for number, (placement, color, line) in enumerate(
        zip(placements, colors, stroke_widths(placements, params)), start=1
    ):
        d = placed_path(placement.outline, placement.font_size, *placement.ink_box[:2])
        fill.write(f'<path id="w{number}" fill="{color}" d="{d}"/>\n')
        stroke.write(
            f'<path id="w{number}" fill="none" stroke="{color}" '
            f'stroke-width="{line:.3g}" d="{d}"/>\n'
        )
    fill.write("</svg>\n")
    stroke.write("</svg>\n")


def svg_outlines(svg: str) -> dict[int, str]:
    """Each placement's outline path data in a wordcloud.svg that write_svgs wrote, by
    placement id: the glyphs exactly as drawn from the font the words were placed with, and
    much cheaper to read than shaping every name again."""
    return {int(word_id): d for word_id, d in OUTLINE.findall(svg)}


def render_png(placements: list[Placement], colors: list[str], params: Params, size, out) -> None:
    """Write to the binary file ``out`` the PNG of the placements on a ``size`` (width,
    height) canvas, painted from the very coordinates of the SVG paths (curves flattened,
    anti-aliased by exact pixel coverage) onto the background; RGBA when it is transparent,
    RGB otherwise."""
    width, height = size
    if params.transparent:
        canvas = np.zeros((height, width, 4), dtype=np.uint8)
    else:
        canvas = np.empty((height, width, 3), dtype=np.uint8)
        canvas[:] = to_rgb(params.background_color)
    for placement, color in zip(placements, colors):
        x, y, box_w, box_h = placement.ink_box
        if not placement.outline.codes.size:
            continue
        points = placed_tenths(placement.outline, placement.font_size, x, y) / 10
        polygon, ends = flatten(placement.outline.codes, points)
        paint(canvas, coverage(polygon, ends, 1.0, x, y, box_h, box_w), x, y, *to_rgb(color))
    write_png(out, canvas)
