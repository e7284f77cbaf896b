"""custom.svg drawn: a finished job's words re-exported from wordcloud.svg's outlines (with
positions.db's boxes for the estimate) in an engraving fill style (docs/lookup.md,
custom.svg). Patterns are real geometry cut to the glyphs (fill_patterns.py): circles,
polygons and paths in one solid colour, never `<pattern>`, `<clipPath>`, `<mask>` or
opacity, so every output converts to .ai."""

import math
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import shapely

from core.errors import InvalidInput
from core.isolated import in_two_processes
from wordclouds.drawing.fill_patterns import (
    glyph_shapes,
    grid_centres,
    grid_counts,
    line_fill,
    round_marks,
)
from wordclouds.engine import svg_outlines
from wordclouds.engine.svg_geometry import svg_number

MAX_PRIMITIVES = 2_000_000
SPLIT_MIN_BYTES = 1_000_000  # less path data is drawn in one process: a fork costs more
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


def custom_svg_drawn(
    canvas: tuple[float, float], rows: list[dict], svg_path: Path, options: CustomSvgOptions
) -> str:
    """The SVG document of the words `rows` (positions.db's id, name and box of each, in id
    order) on a canvas of (width, height), their outlines read from `svg_path` (the job's
    wordcloud.svg); 400 when the pattern would draw too many shapes."""
    width, height = canvas
    if estimated_primitives(rows, options) > MAX_PRIMITIVES:
        raise InvalidInput(DENSE)
    ids = [row["id"] for row in rows]
    drawn = svg_outlines(svg_path.read_text(encoding="utf-8"))
    outlines = [drawn[word_id] for word_id in ids]
    with _geos_out_of_memory_as_memory_error():
        groups = _pattern_elements_on_two_cores(outlines, options)
    stroke_width, width, height = (svg_number(v, 2) for v in (options.line_width, width, height))
    paint = f'fill="none" stroke="{options.color}" stroke-width="{stroke_width}"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    ]
    for index, (word_id, path_d) in enumerate(zip(ids, outlines)):
        body = groups.get(index, "")
        if options.stroke and path_d:
            body += f'<path d="{path_d}" {paint}/>'
        if body:
            parts.append(f'<g id="w{word_id}">{body}</g>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def _pattern_elements_on_two_cores(
    outlines: list[str], options: CustomSvgOptions
) -> dict[int, str]:
    """`_pattern_elements`, the words split in two halves of about equal path data drawn at
    the same time (core.isolated.in_two_processes): words are independent, and on a quiet
    server the request's child is alone on the machine's two cores."""
    sizes = np.cumsum([len(d) for d in outlines])
    if options.fill == "fill" or not len(sizes) or sizes[-1] < SPLIT_MIN_BYTES:
        return _pattern_elements(outlines, options)
    half = int(np.searchsorted(sizes, sizes[-1] / 2)) + 1
    first, second = in_two_processes(
        partial(_pattern_elements, options=options), outlines[:half], outlines[half:]
    )
    return first | {half + index: body for index, body in second.items()}


@contextmanager
def _geos_out_of_memory_as_memory_error():
    """GEOS out of memory raises GEOSException `std::bad_alloc`; as MemoryError it is
    answered like Python's (422, core/isolated.py), not as a bug (500)."""
    try:
        yield
    except shapely.errors.GEOSException as error:
        if "bad_alloc" in str(error):
            raise MemoryError(str(error)) from error
        raise


def _pattern_elements(outlines: list[str], options: CustomSvgOptions) -> dict[int, str]:
    """The fill of each word as SVG elements, by the word's index in `outlines`."""
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
