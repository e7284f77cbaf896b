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
SLACK = 1e-6  # strips: how far a strip's line may be off an edge's end by rounding
MIN_AREA = 1e-9  # px²: a clipped ring with less encloses nothing drawable
GRID_TESTED = 64  # grid points in a contour's box up to which glyph_shapes tests them


def glyph_shapes(path_data: Sequence[str], grid: float | None = None) -> np.ndarray:
    """One valid, prepared polygonal geometry per path (empty when it draws nothing),
    filled by the nonzero rule (see `_filled`).

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
    filled, present = _filled(points, ring_of_point, segments.contour_path[usable])
    shapes[present] = filled
    shapely.prepare(shapes)
    return shapes


def _filled(points: np.ndarray, ring_of_point: np.ndarray, group: np.ndarray):
    """The area the rings of each group enclose by the nonzero rule, as one valid
    (multi)polygon per group that has rings: (geometries, group of each). `ring_of_point`
    numbers the rings 0..n-1 in order; `group` gives each ring's group.

    A ring is a shell where the winding just outside it is zero, and a hole where the
    winding outside is not zero but inside it is."""
    rings = shapely.linearrings(points, indices=ring_of_point)
    # From the signed area: GEOS's local test at the highest point misreads rings that run
    # back along themselves (the clipped strips of line_fill).
    orientation = np.where(_ring_areas(points, ring_of_point, len(rings)) > 0, 1, -1)
    container, contained = _containment(rings, group)
    outside = np.bincount(contained, weights=orientation[container], minlength=len(rings))
    shell = outside == 0
    hole = (outside != 0) & (outside + orientation == 0)
    owner = _owning_shell(container, contained, shell, hole)

    chosen = np.flatnonzero(owner >= 0)
    chosen = chosen[np.lexsort((hole[chosen], owner[chosen]))]  # each shell, then its holes
    owners, rank = np.unique(owner[chosen], return_inverse=True)
    polygons = shapely.polygons(rings[chosen], indices=rank)
    present, group_rank = np.unique(group[owners], return_inverse=True)
    by_group = np.argsort(group_rank, kind="stable")
    # One repair per group also mends its polygons (rounded outlines can self-intersect).
    return _valid(shapely.multipolygons(polygons[by_group], indices=group_rank[by_group])), present


def _holding_grid_points(points, contour, contour_path, pitch: float) -> np.ndarray:
    """For each contour, whether its path has a grid point inside (non-zero winding), found
    on the raw contours, before any polygon: only a grid point in a contour's box can be
    inside, and the winding at it sums over the path's contours whose boxes hold it.

    The test costs each grid point in a box times the contour's edges: a path with a contour
    whose box holds more than GRID_TESTED points is taken as it is, without the test (it
    nearly always holds one, and its polygon is then needed for the points anyway); on a
    grid finer than a pixel the test would cost more than the polygons it saves."""
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
    untested = contour_path[contour[first[grid_counts(bounds, pitch) > GRID_TESTED]]]
    bounds[np.isin(contour_path[contour[first]], untested)] = np.nan  # no point to test
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
    return np.isin(contour_path, cells[total != 0, 0]) | np.isin(contour_path, untested)


def _containment(rings: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i, j) of contours of the same group where contour i encloses contour j.
    Polygons are built only for the few contours whose box holds another's."""
    j, i = shapely.STRtree(rings).query(rings)  # boxes that meet: few pairs, any word size
    bounds = shapely.bounds(rings)
    candidate = (
        (i != j)
        & (group[i] == group[j])
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
    the others are cut to the shape, but for rings whose hole holds all of the shape's box,
    which draw nothing there and cost nothing (a ring wider than the canvas around a point
    of a word): (whole mask, cut polygons, index of each cut polygon into the points)."""
    boundaries = shapely.boundary(shapes)
    shapely.prepare(boundaries)
    reaching = np.flatnonzero(_farthest_in_box(shapely.bounds(shapes)[word], x, y) > inner)
    points = shapely.points(x[reaching], y[reaching])
    inside = ~shapely.dwithin(boundaries[word[reaching]], points, outer)
    whole = np.zeros(len(word), dtype=bool)
    whole[reaching[inside]] = True
    edge = reaching[~inside]
    marks = shapely.buffer(points[~inside], outer, quad_segs=CIRCLE_SEGMENTS)
    if inner > 0:
        marks = shapely.difference(
            marks, shapely.buffer(points[~inside], inner, quad_segs=CIRCLE_SEGMENTS)
        )
    cut, index = _polygon_parts(shapely.intersection(marks, shapes[word[edge]]))
    return whole, cut, edge[index]


def _farthest_in_box(bounds: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """How far each point (x, y) is from the farthest corner of its box (minx, miny, maxx,
    maxy): nothing in the box is farther."""
    dx = np.maximum(x - bounds[:, 0], bounds[:, 2] - x)
    dy = np.maximum(y - bounds[:, 1], bounds[:, 3] - y)
    return np.hypot(dx, dy)


def line_fill(path_data: Sequence[str], *, pitch: float, width: float, angle: float):
    """The glyphs of each path cut into the strips of a line fill: lines at `angle` degrees
    (clockwise from the x axis, y pointing down), one every `pitch` px measured across them
    (one passes through the origin), `width` px wide. Returns (polygons, index of the path
    of each).

    The outlines are turned so the lines run along the x axis, and each contour is clipped
    to each strip it meets before any polygon is made (`_strip_rings`): the polygons, their
    nonzero filling and their repairs then cost what the strips hold, a fraction of the
    glyphs, instead of making whole glyphs to cut them afterwards."""
    if width >= pitch:  # the strips touch or overlap: the fill is solid
        return _polygon_parts(glyph_shapes(path_data))
    segments = path_segments(path_data)
    starts, _, contour = curve_pieces(segments, TOLERANCE)
    theta = math.radians(angle)
    if angle % 360:
        starts = starts * complex(math.cos(theta), -math.sin(theta))
    points, ring_of_point, ring_contour, ring_strip = _strip_rings(starts, contour, pitch, width)
    if not len(points):
        return np.empty(0, dtype=object), np.empty(0, dtype=np.int64)
    word = segments.contour_path[ring_contour]
    strip_of_word, group = np.unique(
        np.column_stack((word, ring_strip)), axis=0, return_inverse=True
    )
    strips, present = _filled(points, ring_of_point, group.ravel())
    pieces, index = _polygon_parts(strips)
    along = np.array([math.cos(theta), math.sin(theta)])
    across = np.array([-math.sin(theta), math.cos(theta)])
    pieces = _turned(pieces, lambda xy: xy[:, :1] * along + xy[:, 1:] * across, angle)
    return pieces, strip_of_word[present[index], 0]


def _strip_rings(points: np.ndarray, contour: np.ndarray, pitch: float, width: float):
    """Each contour (complex points in order, contours consecutive, each implicitly closed)
    clipped to each strip it meets: the band of y within `width` / 2 of a multiple of
    `pitch`. Returns the clipped rings' (x, y) rows, the ring of each row (0..n-1), and each
    ring's contour and strip (the multiple).

    This is Sutherland-Hodgman clipping to the band, every edge at once: an edge adds the
    points where it crosses the band's lines (in its direction) and its end when that is in
    the band. Where a contour leaves the band and comes back, the ring runs along the band's
    line in between, so it keeps the contour's winding number at every point of the band:
    filled by the nonzero rule, the rings are exactly the glyphs' part in the band (those
    running along a line are invalid polygons, mended with the glyphs' other repairs). Rings
    of under three points or no area (a contour touching a line) are dropped."""
    half = width / 2
    a, b = points, points[_following(contour)]
    # The strips each edge meets, with a slack for rounding (a strip too many adds nothing).
    low = np.ceil((np.minimum(a.imag, b.imag) - half) / pitch - SLACK).astype(np.int64)
    high = np.floor((np.maximum(a.imag, b.imag) + half) / pitch + SLACK).astype(np.int64)
    counts = np.clip(high - low + 1, 0, None)
    edge = np.repeat(np.arange(len(points)), counts)
    # low, low + 1, ... for each edge: counting on from each edge's first instance
    strip = np.repeat(low - np.cumsum(counts) + counts, counts) + np.arange(len(edge))
    order = np.lexsort((edge, strip, contour[edge]))  # by contour, then strip, then edge
    edge, strip = edge[order], strip[order]
    a, b = a[edge], b[edge]
    lo, hi = strip * pitch - half, strip * pitch + half
    crosses_lo = (a.imag < lo) != (b.imag < lo)
    crosses_hi = (a.imag > hi) != (b.imag > hi)
    with np.errstate(divide="ignore", invalid="ignore"):  # no crossing there: not used
        slope = (b.real - a.real) / (b.imag - a.imag)
        at_lo = a.real + (lo - a.imag) * slope + 1j * lo
        at_hi = a.real + (hi - a.imag) * slope + 1j * hi
    lo_first = crosses_lo & ((a.imag < b.imag) | ~crosses_hi)
    candidates = np.column_stack(
        (np.where(lo_first, at_lo, at_hi), np.where(lo_first, at_hi, at_lo), b)
    )
    added = np.column_stack(
        (crosses_lo | crosses_hi, crosses_lo & crosses_hi, (b.imag >= lo) & (b.imag <= hi))
    )
    opens = np.ones(len(edge), dtype=bool)
    opens[1:] = (contour[edge[1:]] != contour[edge[:-1]]) | (strip[1:] != strip[:-1])
    ring = np.broadcast_to((np.cumsum(opens) - 1)[:, None], added.shape)[added]
    rows = candidates[added].view(np.float64).reshape(-1, 2)
    sizes = np.bincount(ring, minlength=opens.sum())
    kept = (sizes >= 3) & (np.abs(_ring_areas(rows, ring, len(sizes))) > MIN_AREA)
    chosen = kept[ring]
    return (
        rows[chosen],
        (np.cumsum(kept) - 1)[ring[chosen]],
        contour[edge[opens]][kept],
        strip[opens][kept],
    )


def _following(group: np.ndarray) -> np.ndarray:
    """For points in rings (`group` numbers them, each ring's points consecutive), the index
    of the next point of the same ring, the last going back to the first."""
    following = np.arange(1, len(group) + 1)
    following[np.flatnonzero(np.diff(group, append=-1))] = np.flatnonzero(
        np.diff(group, prepend=-1)
    )
    return following


def _ring_areas(points: np.ndarray, ring: np.ndarray, count: int) -> np.ndarray:
    """Signed area of each of `count` rings of (x, y) rows, `ring` numbering them in order
    (shoelace: positive counter-clockwise with y up; 0 for a ring without points)."""
    x, y = points.T
    following = _following(ring)
    cross = x * y[following] - y * x[following]
    return np.bincount(ring, weights=cross, minlength=count) / 2


def _turned(geometries: np.ndarray, turn, angle: float) -> np.ndarray:
    """The geometries with `turn` applied to their coordinates; as they are when the lines
    are horizontal (the turn would give the same numbers, at a cost on every coordinate)."""
    return shapely.transform(geometries, turn) if angle % 360 else geometries
