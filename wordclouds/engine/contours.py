"""Turning the engine's SVG path data back into closed polygons (for shapely and the like)."""

import math
import re

import numpy as np

_TOKEN = re.compile(r"[MmLlHhVvQqCcZz]|-?(?:\d+\.?\d*|\.\d+)")
_ARITY = {"m": 2, "l": 2, "h": 1, "v": 1, "q": 4, "c": 6, "z": 0}


def _curve_points(start, controls, tolerance):
    """Points after ``start`` along a quadratic or cubic Bézier, within ``tolerance`` px."""
    pts = np.array([start, *controls])
    deviation = np.abs(pts[1:-1] - (pts[0] + pts[-1]) / 2).max() if len(pts) > 2 else 0
    steps = max(1, math.ceil(math.sqrt(deviation / max(tolerance, 1e-6))))
    t = np.linspace(0, 1, steps + 1)[1:, None]
    if len(pts) == 3:
        return (1 - t) ** 2 * pts[0] + 2 * (1 - t) * t * pts[1] + t ** 2 * pts[2]
    return ((1 - t) ** 3 * pts[0] + 3 * (1 - t) ** 2 * t * pts[1]
            + 3 * (1 - t) * t ** 2 * pts[2] + t ** 3 * pts[3])


def path_contours(path_d: str, tolerance: float = 0.25) -> list[np.ndarray]:
    """The closed contours of path data written by the engine (M/m, l, h, v, q, c, z with
    implicit repeats) as (n, 2) arrays of canvas points, curves flattened to within
    ``tolerance`` px. Filling them with the nonzero rule gives the glyphs."""
    tokens = _TOKEN.findall(path_d)
    contours, current, start, x, y = [], [], (0.0, 0.0), 0.0, 0.0
    command, i = None, 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                if current:
                    contours.append(np.array(current))
                current, (x, y) = [], start
                continue
        lower = command.lower()
        values = [float(v) for v in tokens[i:i + _ARITY[lower]]]
        i += _ARITY[lower]
        if command == "M" or command == "m":
            if current:
                contours.append(np.array(current))
            x, y = (values[0], values[1]) if command == "M" else (x + values[0], y + values[1])
            start, current = (x, y), [(x, y)]
            command = "L" if command == "M" else "l"
            continue
        if command == "L":
            x, y = values
            current.append((x, y))
        elif lower == "l":
            x, y = x + values[0], y + values[1]
            current.append((x, y))
        elif lower == "h":
            x += values[0]
            current.append((x, y))
        elif lower == "v":
            y += values[0]
            current.append((x, y))
        else:
            controls = [(x + values[k], y + values[k + 1]) for k in range(0, len(values), 2)]
            current.extend(map(tuple, _curve_points((x, y), controls, tolerance)))
            x, y = controls[-1]
    if current:
        contours.append(np.array(current))
    return contours
