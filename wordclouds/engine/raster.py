"""Rasterising outlines (numba): exact area coverage of flattened polygons, used both for the
occupancy grid (any coverage is ink) and for painting the PNG."""

import numpy as np

from .compiled import njit
from .fonts import CLOSE, LINE, MOVE, QUAD

CURVE_STEPS = 8  # line segments per Bézier curve when flattening


@njit(cache=True, nogil=True)
def flatten(codes, points):
    """Flatten an outline (MOVE/LINE/QUAD/CUBIC/CLOSE) into polygons: returns the vertices
    and the end index of each contour."""
    count = 0
    for code in codes:
        count += 1 if code <= LINE else (CURVE_STEPS if code != CLOSE else 0)
    vertices = np.empty((count, 2))
    ends = np.empty(codes.size + 1, dtype=np.int64)
    n_vertices = n_contours = cursor = 0
    x = y = 0.0
    for code in codes:
        if code == MOVE or code == CLOSE:
            if n_vertices > 0 and (n_contours == 0 or ends[n_contours - 1] != n_vertices):
                ends[n_contours] = n_vertices
                n_contours += 1
            if code == CLOSE:
                continue
        if code == MOVE or code == LINE:
            x, y = points[cursor, 0], points[cursor, 1]
            vertices[n_vertices] = x, y
            n_vertices += 1
            cursor += 1
            continue
        for step in range(1, CURVE_STEPS + 1):
            t = step / CURVE_STEPS
            u = 1.0 - t
            if code == QUAD:
                px = u * u * x + 2 * u * t * points[cursor, 0] + t * t * points[cursor + 1, 0]
                py = u * u * y + 2 * u * t * points[cursor, 1] + t * t * points[cursor + 1, 1]
            else:
                a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                px = (
                    a * x
                    + b * points[cursor, 0]
                    + c * points[cursor + 1, 0]
                    + d * points[cursor + 2, 0]
                )
                py = (
                    a * y
                    + b * points[cursor, 1]
                    + c * points[cursor + 1, 1]
                    + d * points[cursor + 2, 1]
                )
            vertices[n_vertices] = px, py
            n_vertices += 1
        cursor += 2 if code == QUAD else 3
        x, y = vertices[n_vertices - 1, 0], vertices[n_vertices - 1, 1]
    if n_vertices > 0 and (n_contours == 0 or ends[n_contours - 1] != n_vertices):
        ends[n_contours] = n_vertices
        n_contours += 1
    return vertices[:n_vertices], ends[:n_contours]


@njit(cache=True)
def _accumulate_line(acc, x0, y0, x1, y1):
    # Signed-area accumulation of one edge (the font-rs method): after a running sum along
    # each row, |sum| is the pixel's coverage.
    if y0 == y1:
        return
    direction = 1.0
    if y0 > y1:
        direction = -1.0
        x0, y0, x1, y1 = x1, y1, x0, y0
    height, width = acc.shape[0], acc.shape[1] - 2
    dxdy = (x1 - x0) / (y1 - y0)
    x = x0
    row = int(np.floor(y0))
    if row < 0:
        x -= y0 * dxdy
        row = 0
    while row < height and row < y1:
        dy = min(row + 1.0, y1) - max(float(row), y0)
        x_next = x + dxdy * dy
        d = dy * direction
        left, right = min(x, x_next), max(x, x_next)
        left = min(max(left, 0.0), width)
        right = min(max(right, 0.0), width)
        left_floor = np.floor(left)
        i0 = int(left_floor)
        i1 = int(np.ceil(right))
        if i1 <= i0 + 1:
            middle = 0.5 * (left + right) - left_floor
            acc[row, i0] += d - d * middle
            acc[row, i0 + 1] += d * middle
        else:
            s = 1.0 / (right - left)
            f0 = left - left_floor
            a0 = 0.5 * s * (1.0 - f0) ** 2
            f1 = right - i1 + 1.0
            am = 0.5 * s * f1 * f1
            acc[row, i0] += d * a0
            if i1 == i0 + 2:
                acc[row, i0 + 1] += d * (1.0 - a0 - am)
            else:
                a1 = s * (1.5 - f0)
                acc[row, i0 + 1] += d * (a1 - a0)
                for i in range(i0 + 2, i1 - 1):
                    acc[row, i] += d * s
                a2 = a1 + (i1 - i0 - 3) * s
                acc[row, i1 - 1] += d * (1.0 - a2 - am)
            acc[row, i1] += d * am
        x = x_next
        row += 1


@njit(cache=True, nogil=True)
def coverage(vertices, ends, scale, origin_x, origin_y, height, width):
    """The share (0–1) of each pixel of a height×width bitmap covered by the polygons, with
    polygon point p at pixel position ``p * scale - origin``."""
    acc = np.zeros((height, width + 2), dtype=np.float32)
    start = 0
    for end in ends:
        for i in range(start, end):
            k = i + 1 if i + 1 < end else start
            _accumulate_line(
                acc,
                vertices[i, 0] * scale - origin_x,
                vertices[i, 1] * scale - origin_y,
                vertices[k, 0] * scale - origin_x,
                vertices[k, 1] * scale - origin_y,
            )
        start = end
    result = np.empty((height, width), dtype=np.float32)
    for r in range(height):
        total = 0.0
        for c in range(width):
            total += acc[r, c]
            result[r, c] = min(1.0, abs(total))
    return result


@njit(cache=True, nogil=True)
def paint(canvas, cover, x, y, red, green, blue):
    """Composite a word of colour (red, green, blue) with per-pixel ``cover`` onto an RGB or
    RGBA uint8 canvas at (x, y), source-over."""
    height, width = cover.shape
    channels = canvas.shape[2]
    color = (red, green, blue)
    for r in range(height):
        for c in range(width):
            alpha = cover[r, c]
            if alpha <= 0.0:
                continue
            pixel = canvas[y + r, x + c]
            if channels == 4:
                below = pixel[3] / 255.0
                out = alpha + below * (1.0 - alpha)
                opacity = np.uint8(min(255.0, out * 255.0 + 0.5))
                if opacity == 0:
                    # Too faint for 8 bits: stays (0, 0, 0, 0), since readers that drop
                    # alpha would show colour left in a transparent pixel.
                    continue
                for k in range(3):
                    mixed = (color[k] * alpha + pixel[k] * below * (1.0 - alpha)) / out
                    pixel[k] = np.uint8(min(255.0, mixed + 0.5))
                pixel[3] = opacity
            else:
                for k in range(3):
                    mixed = color[k] * alpha + pixel[k] * (1.0 - alpha)
                    pixel[k] = np.uint8(min(255.0, mixed + 0.5))
