"""How close distinct outlines come in a job's SVG: can it be engraved at a physical size?

Every contour (subpath) of every `<path>` is sampled every `sample_step` px along its
length; for each sample, the distance to the nearest sample on a different contour. The
figures are the `percentile` of those distances and their minimum (docs/lookup.md,
analyze-line-spacing). Sampling and the nearest-neighbour search are vectorised (numpy,
scipy's k-d tree) so a poster of 10,000 names takes seconds."""

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from defusedxml import ElementTree

from core.errors import InvalidInput, Unprocessable
from wordclouds.engine.path_data import Segments, curve_pieces, path_segments
from wordclouds.engine.svg_geometry import CSS_DPI, MM_PER_INCH, parse_transform

SVG_NS = "{http://www.w3.org/2000/svg}"
IDENTITY = np.identity(3)
# Samples one analysis may take (about 100 MB of neighbour queries and a few seconds).
MAX_SAMPLES = 2_000_000
NEIGHBOURS_PER_QUERY = 4_000_000  # bounds the memory of one k-d tree query (~100 MB)


@dataclass(frozen=True)
class Outlines:
    """The segments of every `<path>` of an SVG, transforms applied, and its size."""

    segments: Segments
    width: float
    height: float


def outlines_read(svg_path: Path) -> Outlines:
    """The outlines of every `<path>` in an SVG file, transforms applied, and the size of
    its viewBox (else its width and height). 422 when the file is not a readable SVG."""
    try:
        root = ElementTree.parse(svg_path).getroot()
        width, height = _svg_size(root)
        paths = list(_paths(root, IDENTITY))
        segments = path_segments([d for d, _ in paths])
    except (ElementTree.ParseError, ValueError) as error:
        raise Unprocessable(
            f"svg artifact is not readable: {error}", code="svg_artifact_unreadable"
        ) from error
    matrices = [matrix for _, matrix in paths]
    if any(not np.array_equal(matrix, IDENTITY) for matrix in matrices):
        segments = _transformed(segments, np.array(matrices))
    return Outlines(segments=segments, width=width, height=height)


def _svg_size(root) -> tuple[float, float]:
    view_box = root.get("viewBox")
    if view_box:
        _, _, width, height = (float(part) for part in re.split(r"[\s,]+", view_box.strip()))
    else:
        width, height = (
            float(re.sub(r"px$", "", root.get(name, ""))) for name in ("width", "height")
        )
    if not (width > 0 and height > 0):
        raise ValueError("its size is not positive")
    return width, height


def _paths(element, matrix: np.ndarray):
    """(d, transform matrix) of every path under `element`, in document order."""
    for child in element:
        if not isinstance(child.tag, str) or child.tag.removeprefix(SVG_NS) in (
            "defs",
            "clipPath",
            "mask",
        ):
            continue
        own = matrix @ _matrix(child.get("transform")) if child.get("transform") else matrix
        if child.tag.removeprefix(SVG_NS) == "path" and child.get("d"):
            yield child.get("d"), own
        yield from _paths(child, own)


def _matrix(transform: str) -> np.ndarray:
    """The `transform` attribute as a 3×3 matrix."""
    a, b, c, d, e, f = parse_transform(transform)
    return np.array([[a, c, e], [b, d, f], [0.0, 0.0, 1.0]])


def _transformed(segments: Segments, matrices: np.ndarray) -> Segments:
    """The segments with each path's transform matrix applied."""
    matrix = matrices[segments.contour_path[segments.contour]][:, None]
    x, y = segments.controls.real, segments.controls.imag
    controls = (matrix[..., 0, 0] * x + matrix[..., 0, 1] * y + matrix[..., 0, 2]) + 1j * (
        matrix[..., 1, 0] * x + matrix[..., 1, 1] * y + matrix[..., 1, 2]
    )
    return replace(segments, controls=controls)


def contour_samples(outlines: Outlines, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every `step` along every contour (starting at its first point), as an (n, 2)
    array, and the contour of each. Curves are first cut into straight pieces no longer
    than `step`, so the samples lie on the curve to well within a step."""
    segments = outlines.segments
    if not len(segments.controls):
        return np.empty((0, 2)), np.empty(0, dtype=np.int64)
    starts, ends, piece_contour = curve_pieces(segments, tolerance=min(step, 1) / 20)
    lengths = np.abs(ends - starts)

    contour_length = np.bincount(piece_contour, weights=lengths, minlength=segments.contour_count)
    counts = np.where(contour_length > 0, np.maximum(np.ceil(contour_length / step), 1), 0)
    counts = counts.astype(np.int64)
    sample_contour = np.repeat(np.arange(segments.contour_count), counts)
    along = (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)) * step

    travelled = np.cumsum(lengths)
    contours = np.arange(segments.contour_count)
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


def spacing_figures(
    points: np.ndarray, contour: np.ndarray, percentile: float
) -> tuple[float, float]:
    """The `percentile` and the minimum, over all samples, of the distance to the nearest
    sample of a different contour; (0, 0) without two contours.

    A k-d tree gives each sample its k nearest samples. Where all of them lie on the
    sample's own contour, the k-th distance is only a lower bound; such a sample is asked
    again with a larger k only while that bound could still change the answer (it is not
    above the order statistic the percentile needs), so the result is exact while most
    samples cost one query. High percentiles at small steps need many samples resolved
    and take longer; queries are chunked so memory stays bounded."""
    if len(np.unique(contour)) < 2:
        return 0.0, 0.0
    count = len(points)
    from scipy.spatial import cKDTree  # here: it costs every process ~0.4 s to import

    tree = cKDTree(points, balanced_tree=False, compact_nodes=False)
    distance = np.empty(count)
    exact = np.zeros(count, dtype=bool)
    needed = min(count - 1, math.ceil(percentile / 100 * (count - 1)))
    pending, k = np.arange(count), 4
    while len(pending):
        k = min(k, count)
        for chunk in np.array_split(pending, math.ceil(len(pending) * k / NEIGHBOURS_PER_QUERY)):
            found, neighbours = tree.query(points[chunk], k=k, workers=-1)
            other = contour[neighbours] != contour[chunk][:, None]
            hit = other.any(axis=1)
            first = np.where(hit, other.argmax(axis=1), k - 1)
            distance[chunk] = found[np.arange(len(chunk)), first]
            exact[chunk[hit]] = True
        # The needed order statistic is at most `bound`, computed as if every unresolved
        # sample were infinitely far; only a lower bound at or below it can still matter.
        bound = np.partition(np.where(exact, distance, np.inf), needed)[needed]
        pending = np.flatnonzero(~exact & (distance <= bound))
        k *= 4
    return float(np.percentile(distance, percentile)), float(distance.min())


def line_spacing_summary(
    outlines: Outlines,
    *,
    percentile: float,
    sample_step: float,
    element_width: float | None,
    element_height: float | None,
) -> dict:
    """The summary of the spec: pixel figures, and millimetres at elementWidth ÷ sourceWidth
    mm per px; element sizes default to the source size at 96 dpi."""
    element_width = element_width or outlines.width * MM_PER_INCH / CSS_DPI
    element_height = element_height or outlines.height * MM_PER_INCH / CSS_DPI
    points, contour = contour_samples(outlines, sample_step)
    if len(points) > MAX_SAMPLES:
        raise InvalidInput(
            f"sampleStep {sample_step:g} gives more than {MAX_SAMPLES:,} samples "
            "on this job; use a larger step",
            code="sample_step_too_small",
        )
    spacing, least = spacing_figures(points, contour, percentile)
    mm_per_px = element_width / outlines.width
    return {
        "percentile": percentile,
        "spacingPx": spacing,
        "spacingMm": spacing * mm_per_px,
        "minSpacingPx": least,
        "minSpacingMm": least * mm_per_px,
        "curveCount": outlines.segments.contour_count,
        "segmentCount": outlines.segments.segment_count,
        "sourceWidth": outlines.width,
        "sourceHeight": outlines.height,
        "elementWidth": element_width,
        "elementHeight": element_height,
    }
