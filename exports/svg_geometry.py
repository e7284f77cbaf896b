"""SVG geometry: affine matrices, the `transform` attribute, path data and the basic shapes,
all reduced to subpaths of straight lines and cubic Béziers (the only curves the legacy
Illustrator format has)."""
import math
import re
from dataclasses import dataclass, field

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
KAPPA = 0.5522847498307936  # control-point distance of a quarter circle drawn as one cubic

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)
_TOKEN_RE = re.compile(rf"([MmZzLlHhVvCcSsQqTtAa])|({_NUMBER})")
_GROUP_RE = re.compile(r"([MmZzLlHhVvCcSsQqTtAa])([^MmZzLlHhVvCcSsQqTtAa]*)")
_GARBAGE_RE = re.compile(r"[^\s,0-9.eE+\-MmZzLlHhVvCcSsQqTtAa]|(?<![0-9.])[eE]")
_SEP = r"[\s,]*"
_ARC_RE = re.compile(_SEP + _SEP.join([f"({_NUMBER})"] * 3 + ["([01])"] * 2 + [f"({_NUMBER})"] * 2) + _SEP)
_TRANSFORM_RE = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


@dataclass
class Subpath:
    """A start point and segments: (x, y) for a line, (x1, y1, x2, y2, x, y) for a cubic."""

    start: tuple[float, float]
    segments: list[tuple[float, ...]] = field(default_factory=list)
    closed: bool = False


def multiply(outer: Matrix, inner: Matrix) -> Matrix:
    """The matrix that applies `inner` first, then `outer`."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def numbers(text: str) -> list[float]:
    return [float(n) for n in _NUMBER_RE.findall(text or "")]


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
        return multiply(multiply((1.0, 0.0, 0.0, 1.0, cx, cy), rotation), (1.0, 0.0, 0.0, 1.0, -cx, -cy))
    if name == "skewX" and len(args) == 1:
        return (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
    if name == "skewY" and len(args) == 1:
        return (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
    return None


def transform_subpaths(subpaths: list[Subpath], m: Matrix) -> list[Subpath]:
    if m == IDENTITY:
        return subpaths
    a, b, c, d, e, f = m
    result = []
    for sub in subpaths:
        x, y = sub.start
        segments = []
        for s in sub.segments:
            if len(s) == 2:
                segments.append((a * s[0] + c * s[1] + e, b * s[0] + d * s[1] + f))
            else:
                segments.append((a * s[0] + c * s[1] + e, b * s[0] + d * s[1] + f,
                                 a * s[2] + c * s[3] + e, b * s[2] + d * s[3] + f,
                                 a * s[4] + c * s[5] + e, b * s[4] + d * s[5] + f))
        result.append(Subpath((a * x + c * y + e, b * x + d * y + f), segments, sub.closed))
    return result


def _arc_numbers(raw: str) -> tuple[list[float], bool]:
    """Arc arguments; the two flags are single digits that need no separator ("1120 0")."""
    values, position = [], 0
    raw = raw.rstrip(" \t\r\n,")
    while position < len(raw):
        match = _ARC_RE.match(raw, position)
        if not match:
            return values, False
        values.extend(map(float, match.groups()))
        position = match.end()
    return values, True


def _groups(data: str) -> list[tuple[str, list[float], bool]]:
    """(command, numbers, ok) per command letter; ok is False where the numbers cannot be
    read (the path ends there). One tokenising pass, except for paths with arcs, whose flags
    need no separator ("a5 5 0 1120 0") and are read group by group."""
    if "a" not in data and "A" not in data:
        groups, values = [], []
        for command, number in _TOKEN_RE.findall(data):
            if command:
                values = []
                groups.append((command, values, True))
            else:
                values.append(float(number))
        return groups
    groups = []
    for command, raw in _GROUP_RE.findall(data):
        if command in "Aa":
            values, ok = _arc_numbers(raw)
        else:
            values, ok = list(map(float, _NUMBER_RE.findall(raw))), True
        groups.append((command, values, ok))
    return groups


def parse_path(data: str | None) -> list[Subpath]:
    """Path data in absolute coordinates; as the SVG spec asks, an error ends the path but
    keeps what came before it."""
    data = (data or "").strip(" \t\r\n")
    bad = _GARBAGE_RE.search(data)
    if bad:
        data = data[:bad.start()]
    builder = _PathBuilder()
    if not data or data[0] not in "Mm":
        return []
    for command, values, ok in _groups(data):
        if command in "Zz":
            builder.close()
            if values:
                break
            continue
        count = _ARGS[command.upper()]
        complete = len(values) - len(values) % count
        builder.extend(command, values[:complete] if complete != len(values) else values)
        if not ok or not values or complete != len(values):
            break
    return builder.subpaths


class _PathBuilder:
    def __init__(self):
        self.subpaths: list[Subpath] = []
        self.current: Subpath | None = None
        self.x = self.y = 0.0
        self.last_control: tuple[str, float, float] | None = None  # ("C"|"Q", x, y)

    def _ensure(self):
        if self.current is None:
            self.current = Subpath((self.x, self.y))
            self.subpaths.append(self.current)

    def close(self):
        if self.current is not None:
            self.current.closed = True
            self.x, self.y = self.current.start
            self.current = None
        self.last_control = None

    def extend(self, command: str, values: list[float]):
        """All the argument sets of one command letter; lines and cubics, the bulk of real
        paths, without a call per segment."""
        if command in "Mm":
            self.apply(command, values[:2])
            if len(values) > 2:
                self.extend("L" if command == "M" else "l", values[2:])
            return
        if command not in "LlCcHhVv":
            count = _ARGS[command.upper()]
            for index in range(0, len(values), count):
                self.apply(command, values[index:index + count])
            return
        self._ensure()
        append = self.current.segments.append
        x, y = self.x, self.y
        if command == "L":
            for i in range(0, len(values), 2):
                x, y = values[i], values[i + 1]
                append((x, y))
        elif command == "l":
            for i in range(0, len(values), 2):
                x, y = x + values[i], y + values[i + 1]
                append((x, y))
        elif command in "Hh":
            for value in values:
                x = x + value if command == "h" else value
                append((x, y))
        elif command in "Vv":
            for value in values:
                y = y + value if command == "v" else value
                append((x, y))
        else:
            relative = command == "c"
            for i in range(0, len(values), 6):
                ox, oy = (x, y) if relative else (0.0, 0.0)
                x1, y1, x2, y2 = ox + values[i], oy + values[i + 1], ox + values[i + 2], oy + values[i + 3]
                x, y = ox + values[i + 4], oy + values[i + 5]
                append((x1, y1, x2, y2, x, y))
            self.x, self.y = x, y
            self.last_control = ("C", x2, y2)
            return
        self.x, self.y = x, y
        self.last_control = None

    def apply(self, command: str, args: list[float]):
        """One argument set of M, S, Q, T or A."""
        relative = command.islower()
        upper = command.upper()
        ox, oy = (self.x, self.y) if relative else (0.0, 0.0)
        if upper == "M":
            self.x, self.y = ox + args[0], oy + args[1]
            self.current = Subpath((self.x, self.y))
            self.subpaths.append(self.current)
            self.last_control = None
            return
        self._ensure()
        segments = self.current.segments
        control = None
        if upper == "S":  # C, L, H and V take the fast path in extend()
            x1, y1 = self._reflect("C")
            x2, y2, x, y = ox + args[0], oy + args[1], ox + args[2], oy + args[3]
            segments.append((x1, y1, x2, y2, x, y))
            control = ("C", x2, y2)
            self.x, self.y = x, y
        elif upper in "QT":
            if upper == "Q":
                qx, qy = ox + args[0], oy + args[1]
                x, y = ox + args[2], oy + args[3]
            else:
                qx, qy = self._reflect("Q")
                x, y = ox + args[0], oy + args[1]
            segments.append(_quadratic_to_cubic(self.x, self.y, qx, qy, x, y))
            control = ("Q", qx, qy)
            self.x, self.y = x, y
        elif upper == "A":
            x, y = ox + args[5], oy + args[6]
            segments.extend(arc_to_cubics(self.x, self.y, args[0], args[1], args[2],
                                          bool(args[3]), bool(args[4]), x, y))
            self.x, self.y = x, y
        self.last_control = control

    def _reflect(self, kind: str) -> tuple[float, float]:
        if self.last_control and self.last_control[0] == kind:
            return 2 * self.x - self.last_control[1], 2 * self.y - self.last_control[2]
        return self.x, self.y


def _quadratic_to_cubic(x0, y0, qx, qy, x, y) -> tuple[float, ...]:
    return (x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
            x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)


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
    return Subpath((cx + rx, cy), [
        (cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        (cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        (cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        (cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
    ], closed=True)


def rect_subpath(x: float, y: float, w: float, h: float, rx: float, ry: float) -> Subpath:
    if rx <= 0 or ry <= 0:
        return Subpath((x, y), [(x + w, y), (x + w, y + h), (x, y + h)], closed=True)
    kx, ky = rx * (1 - KAPPA), ry * (1 - KAPPA)
    r, b = x + w, y + h
    return Subpath((x + rx, y), [
        (r - rx, y), (r - kx, y, r, y + ky, r, y + ry),
        (r, b - ry), (r, b - ky, r - kx, b, r - rx, b),
        (x + rx, b), (x + kx, b, x, b - ky, x, b - ry),
        (x, y + ry), (x, y + ky, x + kx, y, x + rx, y),
    ], closed=True)


def points_subpath(values: list[float], *, closed: bool) -> list[Subpath]:
    pairs = list(zip(values[0::2], values[1::2]))
    if len(pairs) < 2:
        return []
    return [Subpath(pairs[0], pairs[1:], closed=closed)]
