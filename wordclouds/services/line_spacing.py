"""How close distinct outlines come in a job's SVG: can it be engraved at a physical size?

Every contour (subpath) of every `<path>` is sampled every `sample_step` px along its
length; for each sample, the distance to the nearest sample on a different contour. The
figures are the `percentile` of those distances and their minimum (decisions.md,
analyze-line-spacing). Sampling and the nearest-neighbour search are vectorised (numpy,
scipy's k-d tree) so a poster of 10,000 names takes seconds."""
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from defusedxml import ElementTree
from scipy.spatial import cKDTree
from svgpathtools import Arc, CubicBezier, Line, QuadraticBezier, parse_path
from svgpathtools.parser import parse_transform

from config.errors import InvalidInput, Unprocessable
from wordclouds.selectors import artifact_path, job_get

MM_PER_INCH = 25.4
CSS_DPI = 96
SVG_NS = "{http://www.w3.org/2000/svg}"
MAX_PIECES_PER_CURVE = 64


@dataclass(frozen=True)
class Outlines:
    """Every path segment of an SVG as a cubic Bézier (lines and quadratics converted
    exactly, arcs approximated), in document order, with the contour it belongs to."""

    controls: np.ndarray  # (segments, 4) complex control points, user units
    straight: np.ndarray  # (segments,) bool: the segment is a line
    contour: np.ndarray  # (segments,) int: index of its contour
    contour_count: int
    segment_count: int
    width: float
    height: float


def outlines_read(svg_path: Path) -> Outlines:
    """The outlines of every `<path>` in an SVG file, transforms applied, and the size of
    its viewBox (else its width and height). 422 when the file is not a readable SVG."""
    try:
        root = ElementTree.parse(svg_path).getroot()
        width, height = _svg_size(root)
    except (ElementTree.ParseError, ValueError) as error:
        raise Unprocessable(f"svg artifact is not readable: {error}") from error
    controls, straight, contour = [], [], []
    contour_count = segment_count = 0
    for d, matrix in _paths(root, np.identity(3)):
        start = len(controls)
        for subpath in parse_path(d).continuous_subpaths():
            for segment in subpath:
                segment_count += 1
                for cubic in _as_cubics(segment):
                    controls.append(cubic)
                    straight.append(isinstance(segment, Line))
                    contour.append(contour_count)
            contour_count += 1
        if not np.array_equal(matrix, np.identity(3)) and len(controls) > start:
            controls[start:] = _transformed(np.array(controls[start:]), matrix).tolist()
    return Outlines(
        controls=np.array(controls, dtype=complex).reshape(-1, 4),
        straight=np.array(straight, dtype=bool), contour=np.array(contour, dtype=np.int64),
        contour_count=contour_count, segment_count=segment_count, width=width, height=height,
    )


def _svg_size(root) -> tuple[float, float]:
    view_box = root.get("viewBox")
    if view_box:
        _, _, width, height = (float(part) for part in re.split(r"[\s,]+", view_box.strip()))
    else:
        width, height = (float(re.sub(r"px$", "", root.get(name, ""))) for name in ("width", "height"))
    if not (width > 0 and height > 0):
        raise ValueError("its size is not positive")
    return width, height


def _paths(element, matrix: np.ndarray):
    """(d, transform matrix) of every path under `element`, in document order."""
    for child in element:
        if not isinstance(child.tag, str) or child.tag.removeprefix(SVG_NS) in ("defs", "clipPath", "mask"):
            continue
        own = matrix @ parse_transform(child.get("transform")) if child.get("transform") else matrix
        if child.tag.removeprefix(SVG_NS) == "path" and child.get("d"):
            yield child.get("d"), own
        yield from _paths(child, own)


def _as_cubics(segment) -> list[tuple[complex, complex, complex, complex]]:
    if isinstance(segment, Line):
        a, b = segment.start, segment.end
        return [(a, a + (b - a) / 3, a + 2 * (b - a) / 3, b)]
    if isinstance(segment, QuadraticBezier):
        a, c, b = segment.start, segment.control, segment.end
        return [(a, a + 2 * (c - a) / 3, b + 2 * (c - b) / 3, b)]
    if isinstance(segment, CubicBezier):
        return [(segment.start, segment.control1, segment.control2, segment.end)]
    if isinstance(segment, Arc):
        curves = max(1, math.ceil(abs(segment.delta) / 90))
        return [(c.start, c.control1, c.control2, c.end) for c in segment.as_cubic_curves(curves)]
    raise ValueError(f"unknown path segment {type(segment).__name__}")


def _transformed(controls: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    x, y = controls.real, controls.imag
    return (matrix[0, 0] * x + matrix[0, 1] * y + matrix[0, 2]) + 1j * (
        matrix[1, 0] * x + matrix[1, 1] * y + matrix[1, 2]
    )


def contour_samples(outlines: Outlines, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every `step` along every contour (starting at its first point), as an (n, 2)
    array, and the contour of each. Curves are first cut into straight pieces no longer
    than `step`, so the samples lie on the curve to well within a step."""
    if outlines.segment_count == 0:
        return np.empty((0, 2)), np.empty(0, dtype=np.int64)
    p0, p1, p2, p3 = outlines.controls.T
    polygon = np.abs(p1 - p0) + np.abs(p2 - p1) + np.abs(p3 - p2)
    pieces = np.where(
        outlines.straight, 1, np.clip(np.ceil(polygon / step), 1, MAX_PIECES_PER_CURVE)
    ).astype(np.int64)
    owner = np.repeat(np.arange(len(pieces)), pieces)
    first = np.repeat(np.cumsum(pieces) - pieces, pieces)
    index = np.arange(len(owner)) - first
    t0 = index / pieces[owner]
    t1 = (index + 1) / pieces[owner]
    starts = _bezier(outlines.controls[owner], t0)
    ends = _bezier(outlines.controls[owner], t1)
    lengths = np.abs(ends - starts)
    piece_contour = outlines.contour[owner]

    contour_length = np.bincount(piece_contour, weights=lengths, minlength=outlines.contour_count)
    counts = np.where(contour_length > 0, np.maximum(np.ceil(contour_length / step), 1), 0)
    counts = counts.astype(np.int64)
    sample_contour = np.repeat(np.arange(outlines.contour_count), counts)
    along = (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)) * step

    travelled = np.cumsum(lengths)
    contours = np.arange(outlines.contour_count)
    first_piece = np.searchsorted(piece_contour, contours, side="left")[sample_contour]
    last_piece = np.searchsorted(piece_contour, contours, side="right")[sample_contour] - 1
    offset = travelled[first_piece] - lengths[first_piece]
    piece = np.searchsorted(travelled, offset + along, side="right")
    # Rounding must never move a sample onto a neighbouring contour.
    piece = np.clip(piece, first_piece, last_piece)
    into = offset + along - (travelled[piece] - lengths[piece])
    fraction = np.divide(into, lengths[piece], out=np.zeros_like(into), where=lengths[piece] > 0)
    points = starts[piece] + np.clip(fraction, 0, 1) * (ends[piece] - starts[piece])
    return np.column_stack([points.real, points.imag]), sample_contour


def _bezier(controls: np.ndarray, t: np.ndarray) -> np.ndarray:
    u = 1 - t
    p0, p1, p2, p3 = controls.T
    return u**3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t**3 * p3


def nearest_other_contour(points: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """For each sample, the distance to the nearest sample of a different contour
    (inf when there is no other contour). A k-d tree is asked for the k nearest; samples
    whose k nearest are all on their own contour are asked again with a larger k."""
    distances = np.full(len(points), np.inf)
    if len(np.unique(contour)) < 2:
        return distances
    tree = cKDTree(points)
    pending = np.arange(len(points))
    k = 16
    while len(pending):
        k = min(k, len(points))
        found, neighbours = tree.query(points[pending], k=k, workers=-1)
        other = contour[neighbours] != contour[pending][:, None]
        hit = other.any(axis=1)
        first = other.argmax(axis=1)
        distances[pending[hit]] = found[hit, first[hit]]
        pending = pending[~hit]
        if k == len(points):
            break
        k *= 4
    return distances


def line_spacing_options(body) -> dict:
    """The keyword arguments of line_spacing_analyze from the request's JSON body. Every
    field is optional (absent or null: its default); out of bounds or not a number: 400
    naming the field."""
    if not isinstance(body, dict):
        raise InvalidInput("body must be a JSON object")
    bounds = {  # field: (keyword, low, high, low is allowed)
        "percentile": ("percentile", 0, 100, True),
        "sampleStep": ("sample_step", 0.25, 100, True),
        "elementWidth": ("element_width", 0, math.inf, False),
        "elementHeight": ("element_height", 0, math.inf, False),
    }
    options = {}
    for field, (keyword, low, high, low_allowed) in bounds.items():
        value = body.get(field)
        if value is None:
            continue
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
        if not (low <= number <= high and math.isfinite(number)) or (number == low and not low_allowed):
            if math.isinf(high):
                raise InvalidInput(f"{field} must be a number greater than 0")
            raise InvalidInput(f"{field} must be a number from {low} to {high}")
        options[keyword] = float(number)
    return options


def line_spacing_analyze(
    *, job_id: str, percentile: float = 5, sample_step: float = 2,
    element_width: float | None = None, element_height: float | None = None,
) -> dict:
    """The LineSpacingAnalysisSummary of the job's svg artifact."""
    job_get(job_id)
    outlines = outlines_read(artifact_path(job_id, "svg"))
    return line_spacing_summary(
        outlines, percentile=percentile, sample_step=sample_step,
        element_width=element_width, element_height=element_height,
    )


def line_spacing_summary(
    outlines: Outlines, *, percentile: float, sample_step: float,
    element_width: float | None, element_height: float | None,
) -> dict:
    """The summary of the spec: pixel figures, and millimetres at elementWidth ÷ sourceWidth
    mm per px; element sizes default to the source size at 96 dpi."""
    element_width = element_width or outlines.width * MM_PER_INCH / CSS_DPI
    element_height = element_height or outlines.height * MM_PER_INCH / CSS_DPI
    points, contour = contour_samples(outlines, sample_step)
    distances = nearest_other_contour(points, contour)
    distances = distances[np.isfinite(distances)]
    spacing = float(np.percentile(distances, percentile)) if len(distances) else 0.0
    least = float(distances.min()) if len(distances) else 0.0
    mm_per_px = element_width / outlines.width
    return {
        "percentile": percentile,
        "spacingPx": spacing,
        "spacingMm": spacing * mm_per_px,
        "minSpacingPx": least,
        "minSpacingMm": least * mm_per_px,
        "curveCount": outlines.contour_count,
        "segmentCount": outlines.segment_count,
        "sourceWidth": outlines.width,
        "sourceHeight": outlines.height,
        "elementWidth": element_width,
        "elementHeight": element_height,
    }
