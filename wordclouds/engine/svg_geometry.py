"""SVG geometry: affine matrices, the `transform` attribute and the basic shapes, all
reduced to subpaths of straight lines and cubic Béziers (the only curves the legacy
Illustrator format has); CSS length units, and numbers written back into SVG. The one copy of
each for the engine, the drawing room and the .ai exporter."""

import math
import re
from dataclasses import dataclass, field

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
KAPPA = 0.5522847498307936  # control-point distance of a quarter circle drawn as one cubic

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
CSS_DPI = 96  # CSS px per inch
MM_PER_INCH = 25.4
# CSS absolute lengths in user units (px).
UNITS_PX = {
    "": 1.0,
    "px": 1.0,
    "pt": CSS_DPI / 72,
    "pc": CSS_DPI / 6,
    "in": float(CSS_DPI),
    "mm": CSS_DPI / MM_PER_INCH,
    "cm": CSS_DPI / (MM_PER_INCH / 10),
    "q": CSS_DPI / (MM_PER_INCH * 4),
}
_NUMBER_RE = re.compile(NUMBER)
_TRANSFORM_RE = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


@dataclass(slots=True)
class Subpath:
    """A start point and segments: (x, y) for a line, (x1, y1, x2, y2, x, y) for a cubic."""

    start: tuple[float, float]
    segments: list[tuple[float, ...]] = field(default_factory=list)
    closed: bool = False
    extra_arc_pieces: int = 0  # cubics beyond one per arc: segments as written are fewer


def multiply(outer: Matrix, inner: Matrix) -> Matrix:
    """The matrix that applies `inner` first, then `outer`."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def numbers(text: str) -> list[float]:
    return [v for v in map(float, _NUMBER_RE.findall(text or "")) if math.isfinite(v)]


def parse_transform(text: str | None) -> Matrix:
    """The `transform` attribute as one matrix; an unreadable list counts as no transform,
    as in browsers."""
    matrix = IDENTITY
    for name, raw in _TRANSFORM_RE.findall(text or ""):
        args = numbers(raw)
        step = _transform_step(name, args)
        if step is None:
            return IDENTITY
        matrix = multiply(matrix, step)
    return matrix


def _transform_step(name: str, args: list[float]) -> Matrix | None:
    if name == "matrix" and len(args) == 6:
        return tuple(args)
    if name == "translate" and len(args) in (1, 2):
        return (1.0, 0.0, 0.0, 1.0, args[0], args[1] if len(args) == 2 else 0.0)
    if name == "scale" and len(args) in (1, 2):
        return (args[0], 0.0, 0.0, args[-1], 0.0, 0.0)
    if name == "rotate" and len(args) in (1, 3):
        angle = math.radians(args[0])
        cos, sin = math.cos(angle), math.sin(angle)
        rotation = (cos, sin, -sin, cos, 0.0, 0.0)
        if len(args) == 1:
            return rotation
        cx, cy = args[1], args[2]
        return multiply(
            multiply((1.0, 0.0, 0.0, 1.0, cx, cy), rotation), (1.0, 0.0, 0.0, 1.0, -cx, -cy)
        )
    if name == "skewX" and len(args) == 1:
        return (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
    if name == "skewY" and len(args) == 1:
        return (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
    return None


def arc_to_cubics(x0, y0, rx, ry, rotation, large, sweep, x, y) -> list[tuple[float, ...]]:
    """An elliptical arc (SVG endpoint parameterisation, implementation notes F.6) as cubics
    of at most 90 degrees each."""
    if (x0, y0) == (x, y):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [(x, y)]
    phi = math.radians(rotation % 360)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    dx, dy = (x0 - x) / 2, (y0 - y) / 2
    x1p = cos_phi * dx + sin_phi * dy
    y1p = -sin_phi * dx + cos_phi * dy
    scale = x1p * x1p / (rx * rx) + y1p * y1p / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    factor = math.sqrt(max(0.0, numerator / denominator))
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x0 + x) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y0 + y) / 2
    theta1 = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    theta2 = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx)
    delta = theta2 - theta1
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    count = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / count
    alpha = 4 / 3 * math.tan(step / 4)
    segments = []
    angle = theta1
    for i in range(count):
        a1, a2 = angle, angle + step
        c1, s1, c2, s2 = math.cos(a1), math.sin(a1), math.cos(a2), math.sin(a2)
        points = [(c1 - alpha * s1, s1 + alpha * c1), (c2 + alpha * s2, s2 - alpha * c2), (c2, s2)]
        flat = []
        for ux, uy in points:
            ex, ey = rx * ux, ry * uy
            flat += [cos_phi * ex - sin_phi * ey + cx, sin_phi * ex + cos_phi * ey + cy]
        if i == count - 1:
            flat[4], flat[5] = x, y
        segments.append(tuple(flat))
        angle = a2
    return segments


def ellipse_subpath(cx: float, cy: float, rx: float, ry: float) -> Subpath:
    kx, ky = rx * KAPPA, ry * KAPPA
    return Subpath(
        (cx + rx, cy),
        [
            (cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            (cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            (cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            (cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ],
        closed=True,
    )


def rect_subpath(x: float, y: float, w: float, h: float, rx: float, ry: float) -> Subpath:
    if rx <= 0 or ry <= 0:
        return Subpath((x, y), [(x + w, y), (x + w, y + h), (x, y + h)], closed=True)
    kx, ky = rx * (1 - KAPPA), ry * (1 - KAPPA)
    r, b = x + w, y + h
    return Subpath(
        (x + rx, y),
        [
            (r - rx, y),
            (r - kx, y, r, y + ky, r, y + ry),
            (r, b - ry),
            (r, b - ky, r - kx, b, r - rx, b),
            (x + rx, b),
            (x + kx, b, x, b - ky, x, b - ry),
            (x, y + ry),
            (x, y + ky, x + kx, y, x + rx, y),
        ],
        closed=True,
    )


def points_subpath(values: list[float], *, closed: bool) -> list[Subpath]:
    pairs = list(zip(values[0::2], values[1::2]))
    if len(pairs) < 2:
        return []
    return [Subpath(pairs[0], pairs[1:], closed=closed)]


def svg_number(value: float, places: int = 4) -> str:
    """A number for SVG: plain decimal notation, at most `places` decimals, no "-0"."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
