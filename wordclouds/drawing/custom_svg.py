"""custom.svg drawn: a finished job's words, given as their outlines (path data from
wordcloud.svg) and boxes (from positions.db, for the estimate), in an engraving fill style
(docs/lookup.md, custom.svg); services/custom_svg.py reads those and runs this in a limited
child, split over two processes. Patterns are real geometry cut to the glyphs (fill_patterns.py): circles,
polygons and paths in one solid colour, never `<pattern>`, `<clipPath>`, `<mask>` or
opacity, so every output converts to .ai."""

import math
from dataclasses import dataclass

import numpy as np
import shapely

from wordclouds.drawing.fill_patterns import (
    glyph_shapes,
    grid_centres,
    grid_counts,
    line_fill,
    round_marks,
)
from wordclouds.engine.svg_geometry import svg_number

MAX_PRIMITIVES = 2_000_000
DENSE = "pattern too dense"


@dataclass(frozen=True)
class CustomSvgOptions:
    """The query parameters of custom.svg with the spec's defaults (px unless said)."""

    fill: str = "fill"
    stroke: bool = False
    spacing: float = 10.0  # dot grid pitch
    radius: float = 2.0  # dot radius
    color: str = "#000000"
    line_spacing: float = 6.0
    line_width: float = 1.0  # also the width of the stroked outlines
    line_angle: float = 0.0  # degrees, clockwise from the x axis
    ring_radius: float = 3.0
    ring_width: float = 1.0
    ring_spacing: float = 8.0


def estimated_primitives(rows: list[dict], options: CustomSvgOptions) -> int:
    """An upper estimate of the shapes the pattern draws, from the word boxes alone (before
    any geometry): grid points in each box for dots and rings; for lines, the strips
    crossing each box times its characters (a strip is cut once per glyph it crosses)."""
    bounds = np.array(
        [
            [r["box_x"], r["box_y"], r["box_x"] + r["box_width"], r["box_y"] + r["box_height"]]
            for r in rows
        ],
        dtype=float,
    ).reshape(-1, 4)
    count = len(rows) * (1 + options.stroke)
    if options.fill == "dot":
        count += int(grid_counts(bounds, options.spacing).sum())
    elif options.fill == "ring":
        count += int(grid_counts(bounds, options.ring_spacing).sum())
    elif options.fill == "line" and options.line_width < options.line_spacing:
        characters = np.array([max(1, len("".join(r["name"].split()))) for r in rows])
        count += int((_strips_across(bounds, options) * characters).sum())
    return count


def _strips_across(bounds: np.ndarray, options: CustomSvgOptions) -> np.ndarray:
    """How many strips of the line fill cross each box (its extent across the lines)."""
    theta = math.radians(options.line_angle)
    extent = np.abs(math.sin(theta)) * (bounds[:, 2] - bounds[:, 0]) + np.abs(math.cos(theta)) * (
        bounds[:, 3] - bounds[:, 1]
    )
    return np.floor((extent + options.line_width) / options.line_spacing) + 1


def custom_svg_document(
    width: float,
    height: float,
    ids: list[int],
    outlines: list[str],
    fills: dict[int, str],
    options: CustomSvgOptions,
) -> str:
    """The SVG document of a canvas of `width` x `height`: one `<g id="w<ID>">` per word
    with a mark, in the order of `ids`, holding its fill (`fills`, by index, from
    `pattern_elements`) and with `stroke` its outline (`outlines`, path data)."""
    stroke_width, width, height = (svg_number(v, 2) for v in (options.line_width, width, height))
    paint = f'fill="none" stroke="{options.color}" stroke-width="{stroke_width}"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    ]
    for index, (word_id, path_d) in enumerate(zip(ids, outlines)):
        body = fills.get(index, "")
        if options.stroke and path_d:
            body += f'<path d="{path_d}" {paint}/>'
        if body:
            parts.append(f'<g id="w{word_id}">{body}</g>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def pattern_elements(outlines: list[str], options: CustomSvgOptions) -> dict[int, str]:
    """The fill of each word as SVG elements, by the word's index in `outlines` (path data):
    words are independent, so any split of `outlines` may be drawn apart."""
    color = options.color
    if options.fill == "fill":
        return {i: f'<path d="{d}" fill="{color}"/>' for i, d in enumerate(outlines) if d}
    if options.fill == "line":
        strips, owner = line_fill(
            outlines,
            pitch=options.line_spacing,
            width=options.line_width,
            angle=options.line_angle,
        )
        return _grouped(owner, _path_elements(strips, f'fill="{color}"'))
    dots = options.fill == "dot"
    pitch = options.spacing if dots else options.ring_spacing
    shapes = glyph_shapes(outlines, grid=pitch)
    word, x, y = grid_centres(shapes, pitch)
    if dots:
        outer, inner = options.radius, 0.0
        circle = f'r="{svg_number(options.radius, 2)}" fill="{color}"'
    else:
        outer = options.ring_radius + options.ring_width / 2
        inner = max(0.0, options.ring_radius - options.ring_width / 2)
        circle = (
            f'r="{svg_number(options.ring_radius, 2)}" fill="none" stroke="{color}" '
            f'stroke-width="{svg_number(options.ring_width, 2)}"'
        )
    whole, cut, cut_point = round_marks(shapes, word, x, y, outer=outer, inner=inner)
    elements = [
        f'<circle cx="{svg_number(a, 2)}" cy="{svg_number(b, 2)}" {circle}/>'
        for a, b in zip(x[whole].tolist(), y[whole].tolist())
    ]
    owners = np.concatenate((word[whole], word[cut_point]))
    return _grouped(owners, elements + _path_elements(cut, f'fill="{color}"'))


def _grouped(owner: np.ndarray, elements: list[str]) -> dict[int, str]:
    grouped: dict[int, list[str]] = {}
    for index, element in zip(owner.tolist(), elements):
        grouped.setdefault(index, []).append(element)
    return {index: "".join(items) for index, items in grouped.items()}


def _path_elements(polygons: np.ndarray, paint: str) -> list[str]:
    """One `<path>` per polygon, its rings as closed subpaths (holes drawn even-odd).

    The whole list is one %-format of every coordinate at once: a template of the elements
    (each ring "M%.2f %.2fL%.2f %.2f…Z", without the closing point that repeats its first,
    since "Z" closes it) filled in a single C-level pass, then split into elements."""
    rings, ring_polygon = shapely.get_rings(polygons, return_index=True)
    coordinates, ring_of = shapely.get_coordinates(rings, return_index=True)
    sizes = np.bincount(ring_of, minlength=len(rings)) - 1
    kept = np.delete(coordinates, np.cumsum(sizes + 1) - 1, axis=0)
    ring_text = ["M%.2f %.2f" + "L%.2f %.2f" * (size - 1) + "Z" for size in sizes.tolist()]
    head, tail = '<path d="', f'" fill-rule="evenodd" {paint.replace("%", "%%")}/>'
    paths = [head] * len(polygons)
    for ring, polygon in enumerate(ring_polygon.tolist()):
        paths[polygon] += ring_text[ring]
    template = "\0".join(path + tail for path in paths)
    return (template % tuple(kept.ravel().tolist())).split("\0") if paths else []
