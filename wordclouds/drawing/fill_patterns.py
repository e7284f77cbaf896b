"""Engraving fill patterns as real geometry inside the glyphs (shapely).

Each placed word becomes one (multi)polygon, holes included; a pattern is then plain
shapes cut to it: no `<pattern>`, `<clipPath>` or `<mask>` is ever needed, so the result can
be engraved and converted as it is. Everything works on arrays of words at once."""

import math
from collections.abc import Sequence

import numpy as np
import shapely

from wordclouds.engine.path_data import curve_pieces, path_segments

TOLERANCE = 0.05  # px: how far flattened curves may stray from the glyph outlines
CIRCLE_SEGMENTS = 16  # per quarter circle, for discs and rings cut at a glyph edge
POLYGON = 3


def glyph_shapes(path_data: Sequence[str], grid: float | None = None) -> np.ndarray:
    """One valid, prepared polygonal geometry per path (empty when it draws nothing),
    filled by the nonzero rule: a contour is a shell where the winding just outside it is
    zero, and a hole where the winding outside is not zero but inside it is.

    With `grid` (a pitch), only the paths with a point of that grid inside get their
    geometry, the others stay empty: making polygons is most of the cost, and on a poster of
    small names most words hold no grid point."""
    shapes = np.full(len(path_data), shapely.MultiPolygon(), dtype=object)
    segments = path_segments(path_data)
    starts, _, piece_contour = curve_pieces(segments, TOLERANCE)
    usable = np.bincount(piece_contour, minlength=segments.contour_count) >= 3
    if grid is not None:
        usable &= _holding_grid_points(starts, piece_contour, segments.contour_path, grid)
    keep = usable[piece_contour]
    if not keep.any():
        return shapes
    ring_of_point = (np.cumsum(usable) - 1)[piece_contour[keep]]
    points = starts[keep].view(np.float64).reshape(-1, 2)  # the complex points as (x, y) rows
    rings = shapely.linearrings(points, indices=ring_of_point)
    word = segments.contour_path[usable]
    orientation = np.where(shapely.is_ccw(rings), 1, -1)
    container, contained = _containment(rings, word)
    outside = np.bincount(contained, weights=orientation[container], minlength=len(rings))
    shell = outside == 0
    hole = (outside != 0) & (outside + orientation == 0)
    owner = _owning_shell(container, contained, shell, hole)

    chosen = np.flatnonzero(owner >= 0)
    chosen = chosen[np.lexsort((hole[chosen], owner[chosen]))]  # each shell, then its holes
    owners, rank = np.unique(owner[chosen], return_inverse=True)
    polygons = shapely.polygons(rings[chosen], indices=rank)
    present, word_rank = np.unique(word[owners], return_inverse=True)
    # One repair per word also mends its polygons (rounded outlines can self-intersect).
    shapes[present] = _valid(shapely.multipolygons(polygons, indices=word_rank))
    shapely.prepare(shapes)
    return shapes


def _holding_grid_points(points, contour, contour_path, pitch: float) -> np.ndarray:
    """For each contour, whether its path has a grid point inside (non-zero winding), found
    on the raw contours, before any polygon: only a grid point in a contour's box can be
    inside, and the winding at it sums over the path's contours whose boxes hold it."""
    first = np.flatnonzero(np.diff(contour, prepend=-1))
    size = np.diff(np.append(first, len(contour)))
    x, y = points.real, points.imag
    bounds = np.column_stack(
        [
            np.minimum.reduceat(x, first),
            np.minimum.reduceat(y, first),
            np.maximum.reduceat(x, first),
            np.maximum.reduceat(y, first),
        ]
    )
    box, gx, gy = _grid_points(bounds, pitch)
    # Every edge of the contour around each of its box's grid points (k: that pair).
    k = np.repeat(np.arange(len(box)), size[box])
    step = np.arange(len(k)) - np.repeat(np.cumsum(size[box]) - size[box], size[box])
    start = first[box[k]]
    a = start + step
    b = start + (step + 1) % size[box[k]]
    px, py = gx[k], gy[k]
    left = (x[b] - x[a]) * (py - y[a]) - (px - x[a]) * (y[b] - y[a])
    up = (y[a] <= py) & (y[b] > py) & (left > 0)
    down = (y[a] > py) & (y[b] <= py) & (left < 0)
    winding = np.bincount(k, weights=up.astype(float) - down, minlength=len(box))
    path = contour_path[contour[first[box]]]
    cells = np.column_stack((path, np.round(gx / pitch), np.round(gy / pitch)))
    cells, cell = np.unique(cells, axis=0, return_inverse=True)
    total = np.bincount(cell.ravel(), weights=winding, minlength=len(cells))
    return np.isin(contour_path, cells[total != 0, 0])


def _containment(rings: np.ndarray, word: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i, j) of contours of the same word where contour i encloses contour j.
    Polygons are built only for the few contours whose box holds another's."""
    j, i = shapely.STRtree(rings).query(rings)  # boxes that meet: few pairs, any word size
    bounds = shapely.bounds(rings)
    candidate = (
        (i != j)
        & (word[i] == word[j])
        & np.all(bounds[i, :2] <= bounds[j, :2], axis=1)
        & np.all(bounds[i, 2:] >= bounds[j, 2:], axis=1)
    )
    i, j = i[candidate], j[candidate]
    areas = np.empty(len(rings), dtype=object)
    containers, inner = np.unique(i), np.unique(j)
    areas[np.union1d(containers, inner)] = shapely.polygons(rings[np.union1d(containers, inner)])
    shapely.prepare(areas[containers])
    inner_point = np.empty((len(rings), 2))
    inner_point[inner] = shapely.get_coordinates(shapely.point_on_surface(areas[inner]))
    inside = shapely.contains_xy(areas[i], inner_point[j, 0], inner_point[j, 1])
    return i[inside], j[inside]


def _owning_shell(container, contained, shell, hole) -> np.ndarray:
    """For each contour, the shell whose polygon it belongs to: itself for a shell, the
    innermost enclosing shell for a hole, -1 for a contour that bounds nothing."""
    owner = np.where(shell, np.arange(len(shell)), -1)
    depth = np.bincount(contained, minlength=len(shell))
    pairs = hole[contained] & shell[container]
    container, contained = container[pairs], contained[pairs]
    order = np.lexsort((depth[container], contained))
    container, contained = container[order], contained[order]
    last = np.append(contained[1:] != contained[:-1], True) if len(contained) else contained
    owner[contained[last]] = container[last]
    return owner


def _valid(geometries: np.ndarray) -> np.ndarray:
    """The geometries with the invalid ones repaired. At poster sizes, neighbouring glyphs
    and strokes overlap or touch; buffer(0) unions such parts, like the nonzero fill
    does, at a fifth of the cost of make_valid."""
    geometries = geometries.copy()
    invalid = ~shapely.is_valid(geometries)
    if invalid.any():
        geometries[invalid] = shapely.buffer(geometries[invalid], 0)
    return geometries


def _polygon_parts(geometries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The polygons in each geometry (multi-parts and collections opened, lines and points
    dropped) and the index of the geometry each came from."""
    parts, index = shapely.get_parts(geometries, return_index=True)
    while len(parts) and (shapely.get_type_id(parts) > POLYGON).any():
        nested = shapely.get_type_id(parts) > POLYGON
        inner, inner_index = shapely.get_parts(parts[nested], return_index=True)
        parts = np.concatenate((parts[~nested], inner))
        index = np.concatenate((index[~nested], index[nested][inner_index]))
    polygonal = (shapely.get_type_id(parts) == POLYGON) & ~shapely.is_empty(parts)
    order = np.argsort(index[polygonal], kind="stable")
    return parts[polygonal][order], index[polygonal][order]


def grid_counts(bounds: np.ndarray, pitch: float) -> np.ndarray:
    """How many points of the square grid of `pitch` (anchored at the origin) lie in each
    box (minx, miny, maxx, maxy); 0 for empty boxes (NaN)."""
    low = np.ceil(bounds[:, :2] / pitch)
    high = np.floor(bounds[:, 2:] / pitch)
    counts = np.clip(high - low + 1, 0, None)
    return np.nan_to_num(counts[:, 0] * counts[:, 1]).astype(np.int64)


def grid_centres(shapes: np.ndarray, pitch: float):
    """The grid points (multiples of `pitch` on both axes) inside each shape:
    (shape index, x, y) arrays."""
    word, x, y = _grid_points(shapely.bounds(shapes), pitch)
    inside = shapely.contains_xy(shapes[word], x, y)
    return word[inside], x[inside], y[inside]


def _grid_points(bounds: np.ndarray, pitch: float):
    """The grid points in each box (minx, miny, maxx, maxy; NaN: empty): (box index, x, y)."""
    counts = grid_counts(bounds, pitch)
    box = np.repeat(np.arange(len(bounds)), counts)
    low = np.nan_to_num(np.ceil(bounds[:, :2] / pitch)).astype(np.int64)
    columns = np.nan_to_num(np.floor(bounds[:, 2] / pitch) - low[:, 0] + 1).astype(np.int64)
    offset = np.arange(len(box)) - np.repeat(np.cumsum(counts) - counts, counts)
    x = (low[box, 0] + offset % np.maximum(columns[box], 1)) * pitch
    y = (low[box, 1] + offset // np.maximum(columns[box], 1)) * pitch
    return box, x, y


def round_marks(shapes, word, x, y, *, outer: float, inner: float = 0.0):
    """Discs (inner 0) or rings of radii inner..outer centred on the given points of each
    shape. Those that lie wholly inside their shape are left as centres (drawn as circles);
    the others are cut to the shape: (whole mask, cut polygons, index of each cut polygon
    into the points)."""
    boundaries = shapely.boundary(shapes)
    shapely.prepare(boundaries)
    points = shapely.points(x, y)
    whole = ~shapely.dwithin(boundaries[word], points, outer)
    edge = np.flatnonzero(~whole)
    marks = shapely.buffer(points[edge], outer, quad_segs=CIRCLE_SEGMENTS)
    if inner > 0:
        marks = shapely.difference(
            marks, shapely.buffer(points[edge], inner, quad_segs=CIRCLE_SEGMENTS)
        )
    cut, index = _polygon_parts(shapely.intersection(marks, shapes[word[edge]]))
    return whole, cut, edge[index]


def line_fill(shapes: np.ndarray, *, pitch: float, width: float, angle: float):
    """Each shape cut into the strips of a line fill: lines at `angle` degrees (clockwise
    from the x axis, y pointing down), one every `pitch` px measured across them (one
    passes through the origin), `width` px wide. Returns (polygons, index of the shape of
    each).

    The shapes are turned so the lines run along the x axis; there each strip is a band
    between two y values, and cutting a glyph polygon to a band's rectangle is a cheap clip
    instead of a general polygon intersection."""
    if width >= pitch:  # the strips touch or overlap: the fill is solid
        return _polygon_parts(shapes)
    theta = math.radians(angle)
    along = np.array([math.cos(theta), math.sin(theta)])
    across = np.array([-math.sin(theta), math.cos(theta)])
    turned = _turned(shapes, lambda xy: np.column_stack((xy @ along, xy @ across)), angle)
    parts, owner = _polygon_parts(turned)
    bounds = shapely.bounds(parts)
    first = np.ceil((bounds[:, 1] - width / 2) / pitch)
    last = np.floor((bounds[:, 3] + width / 2) / pitch)
    counts = np.clip(last - first + 1, 0, None).astype(np.int64)
    part = np.repeat(np.arange(len(parts)), counts)
    band = (
        np.repeat(first, counts)
        + np.arange(len(part))
        - np.repeat(np.cumsum(counts) - counts, counts)
    )
    left, right = bounds[:, 0].min() - 1, bounds[:, 2].max() + 1
    pieces = np.empty(len(part), dtype=object)
    order = np.argsort(band, kind="stable")
    starts = np.flatnonzero(np.diff(band[order], prepend=np.nan) != 0)
    for start, end in zip(starts.tolist(), np.append(starts[1:], len(order)).tolist()):
        chosen = order[start:end]
        low, high = band[chosen[0]] * pitch - width / 2, band[chosen[0]] * pitch + width / 2
        try:
            pieces[chosen] = shapely.clip_by_rect(parts[part[chosen]], left, low, right, high)
        except shapely.errors.GEOSException:
            # GEOS's fast rectangle clip rejects some slivers it makes; overlay them instead.
            pieces[chosen] = shapely.intersection(
                parts[part[chosen]], shapely.box(left, low, right, high)
            )
    pieces, index = _polygon_parts(pieces)
    pieces = _turned(pieces, lambda xy: xy[:, :1] * along + xy[:, 1:] * across, angle)
    return pieces, owner[part[index]]


def _turned(geometries: np.ndarray, turn, angle: float) -> np.ndarray:
    """The geometries with `turn` applied to their coordinates; as they are when the lines
    are horizontal (the turn would give the same numbers, at a cost on every coordinate)."""
    return shapely.transform(geometries, turn) if angle % 360 else geometries
