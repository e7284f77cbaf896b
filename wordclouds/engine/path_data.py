"""SVG path data: the project's one reader of it, for the engine, the drawing room and the
.ai exporter.

`parse_path` reads one path into absolute subpaths of lines and cubics (the whole grammar:
every command, arcs as cubics; as the SVG spec asks, an error ends the path but keeps what
came before it). The exporter reads tens of thousands of short paths with it, so it is a
hot loop: one split per path, numbers read by C code, and the builder a single function
over local variables.

`path_segments` reads many paths at once into numpy arrays. A poster of 10,000 names has
over a million path segments, so the common commands (M L H V C Q Z, absolute and relative,
implicit repeats) are read by one compiled pass (numba) over the bytes of all paths
together; a path using S, T or A goes through `parse_path`, with the same result shape. The
line-spacing analysis, the styled re-export (custom.svg) and `path_contours` (polygons of
one placement) all read outlines through here."""

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .compiled import njit
from .svg_geometry import NUMBER, Subpath, arc_to_cubics

COMMANDS = "MLHVCQZ"  # the codes of the compiled reader are indexes into this
ARITY = (2, 2, 1, 1, 6, 4, 0)
GENERAL_ONLY = re.compile(r"[SsTtAa]")  # paths left to parse_path
MAX_PIECES = 64


@dataclass(frozen=True)
class Segments:
    """Every drawing segment of a list of paths as a cubic Bézier (lines and quadratics
    converted exactly, arcs approximated), in order. Contours are numbered across all paths
    in order; `contour_path` tells the path of each."""

    controls: np.ndarray  # (n, 4) complex
    straight: np.ndarray  # (n,) bool
    contour: np.ndarray  # (n,) int64
    contour_path: np.ndarray  # (contours,) int64
    segment_count: int  # segments as written (an arc is one, though drawn as several cubics)

    @property
    def contour_count(self) -> int:
        return len(self.contour_path)


def path_segments(path_data: Sequence[str]) -> Segments:
    """The segments of every path in `path_data`. ValueError on malformed data."""
    general = []
    try:  # the common case: the compiled reader reads every path
        parts = [_parse_simple(path_data)]
    except ValueError:  # S, T or A somewhere, or an error that parse_path may forgive
        general = [i for i, d in enumerate(path_data) if GENERAL_ONLY.search(d)]
        skipped = set(general)
        parts = [_parse_simple(["" if i in skipped else d for i, d in enumerate(path_data)])]
        if general:
            parts.append(_parse_general(path_data, general))
    controls, straight, contour, path, counts = zip(*parts)
    if general:
        controls, straight, contour, path = map(np.concatenate, (controls, straight, contour, path))
        # Order by path, then by contour within the path.
        key = np.lexsort((contour, path))
        controls, straight, contour, path = controls[key], straight[key], contour[key], path[key]
    else:  # the compiled reader's segments alone: in that order already
        controls, straight, contour, path = controls[0], straight[0], contour[0], path[0]
    # Contours renumbered 0..n-1.
    starts = np.ones(len(contour), dtype=bool)
    starts[1:] = (contour[1:] != contour[:-1]) | (path[1:] != path[:-1])
    return Segments(
        controls=controls,
        straight=straight,
        contour=np.cumsum(starts) - 1,
        contour_path=path[starts],
        segment_count=sum(counts),
    )


ERRORS = {
    1: "path data must begin with a command",
    2: "wrong number of coordinates in path data",
    3: "unsupported path command",
}


def _parse_simple(path_data: Sequence[str]):
    data = np.frombuffer("\0".join(path_data).encode("ascii"), dtype=np.uint8)
    capacity = _segment_bound(data)
    controls, straight, contour, path, status, at = _scan(
        data, capacity, LETTER_CODE, COMMAND_ARITY
    )
    if status:
        raise ValueError(f"{ERRORS[status]} (at {chr(data[at]) if at < len(data) else 'end'!r})")
    return controls, straight, contour, path, len(controls)


def _letter_codes() -> np.ndarray:
    """ASCII byte -> index in COMMANDS, -1 for anything else."""
    code = np.full(128, -1, dtype=np.int64)
    for index, letter in enumerate(COMMANDS):
        code[ord(letter)] = code[ord(letter.lower())] = index
    return code


LETTER_CODE = _letter_codes()
COMMAND_ARITY = np.array(ARITY, dtype=np.int64)


@njit(cache=True)
def _segment_bound(data):
    """At least the number of segments `data` can hold: one per number, one per close."""
    bound = 1
    previous_in_number = False
    for byte in data:
        in_number = (48 <= byte <= 57) or byte == 46
        if (in_number and not previous_in_number) or byte == 46 or byte == 90 or byte == 122:
            bound += 1
        previous_in_number = in_number
    return bound


@njit(cache=True)
def _number(data, i):
    """The number starting at data[i] (sign, digits, dot, exponent): (value, next index),
    or (0, -1) when there is none."""
    size = len(data)
    sign = 1.0
    if i < size and (data[i] == 45 or data[i] == 43):
        sign = -1.0 if data[i] == 45 else 1.0
        i += 1
    value, scale, digits, dot = 0.0, 0, 0, False
    while i < size:
        byte = data[i]
        if 48 <= byte <= 57:
            value = value * 10 + (byte - 48)
            digits += 1
            if dot:
                scale += 1
        elif byte == 46 and not dot:
            dot = True
        else:
            break
        i += 1
    if digits == 0:
        return 0.0, -1
    if i < size and (data[i] == 101 or data[i] == 69):
        exponent, after = _number(data, i + 1)
        if after >= 0:
            scale -= int(exponent)
            i = after
    return sign * value / 10.0**scale, i


@njit(cache=True)
def _skip_separators(data, i):
    """The index of the first byte from ``i`` on that is no space, tab, newline or comma."""
    while i < len(data) and (data[i] == 32 or data[i] == 44 or 9 <= data[i] <= 13):
        i += 1
    return i


@njit(cache=True)
def _cubic_controls(command, args, current, origin, relative):
    """The two inner control points and the end of a drawing segment (h 2, v 3, cubic 4,
    quadratic 5, else a line) from ``current``, as a cubic."""
    if command == 2:
        end = complex(args[0] + (current.real if relative else 0.0), current.imag)
    elif command == 3:
        end = complex(current.real, args[0] + (current.imag if relative else 0.0))
    elif command == 4:
        end = origin + complex(args[4], args[5])
    elif command == 5:
        end = origin + complex(args[2], args[3])
    else:
        end = origin + complex(args[0], args[1])
    if command == 4:
        c1, c2 = origin + complex(args[0], args[1]), origin + complex(args[2], args[3])
    elif command == 5:
        control = origin + complex(args[0], args[1])
        c1 = current + 2 * (control - current) / 3
        c2 = end + 2 * (control - end) / 3
    else:
        c1, c2 = current + (end - current) / 3, current + 2 * (end - current) / 3
    return c1, c2, end


@njit(cache=True)
def _scan(data, capacity, letter_code, arity):
    """One pass over the path data of many paths (NUL between paths): the drawing
    segments as cubic control points with their contour and path, and a status (0: fine,
    else an ERRORS key, with the index where it went wrong)."""
    segments = (
        np.empty((capacity, 4), dtype=np.complex128),  # controls
        np.empty(capacity, dtype=np.bool_),  # straight
        np.empty(capacity, dtype=np.int64),  # contour
        np.empty(capacity, dtype=np.int64),  # path
    )
    args = np.empty(6)
    count, contours, path_index = 0, -1, 0
    current = start = 0j
    command, relative, opens = -1, False, True
    i, size = 0, len(data)
    while True:
        i = _skip_separators(data, i)
        if i >= size:
            break
        byte = data[i]
        if byte == 0:
            path_index += 1
            current = start = 0j
            command, opens = -1, True
            i += 1
            continue
        if byte < 128 and letter_code[byte] >= 0:
            command, relative = letter_code[byte], byte >= 97
            i += 1
            if command == 6:  # close: a line back to the start when not already there
                if abs(current - start) > 1e-6:
                    contours, opens = (contours + 1, False) if opens else (contours, opens)
                    third = (start - current) / 3
                    count = _put(segments, count, current, current + third,
                                 current + 2 * third, start, True, contours, path_index)  # fmt: skip
                current, opens = start, True
            continue
        if byte >= 65 and byte < 128 and byte != 101 and byte != 69:
            return _cut(segments, count, 3, i)
        if command < 0 or command == 6:
            return _cut(segments, count, 1, i)
        for k in range(arity[command]):
            i = _skip_separators(data, i)
            value, after = _number(data, i)
            if after < 0:
                return _cut(segments, count, 2, i)
            args[k], i = value, after
        origin = current if relative else 0j  # a path's first move: current is the origin
        if command == 0:  # move; its implicit repeats are lines
            current = start = origin + complex(args[0], args[1])
            command, opens = 1, True
            continue
        c1, c2, end = _cubic_controls(command, args, current, origin, relative)
        if command in (4, 5) or abs(end - current) > 1e-6:
            contours, opens = (contours + 1, False) if opens else (contours, opens)
            count = _put(segments, count, current, c1, c2, end, command < 4, contours, path_index)
        current = end
    return _cut(segments, count, 0, size)


@njit(cache=True)
def _put(segments, count, p0, p1, p2, p3, straight, contour, path) -> int:
    """Segment ``count`` of ``segments`` set (its cubic's four points, whether it is a
    line, its contour and path); the count after it."""
    segments[0][count, 0], segments[0][count, 1] = p0, p1
    segments[0][count, 2], segments[0][count, 3] = p2, p3
    segments[1][count], segments[2][count], segments[3][count] = straight, contour, path
    return count + 1


@njit(cache=True)
def _cut(segments, count, status, index):
    """:func:`_scan`'s answer: its first ``count`` segments, the status and the index."""
    controls, straight, contour, path = segments
    return controls[:count], straight[:count], contour[:count], path[:count], status, index


def _parse_general(path_data: Sequence[str], indices: list[int]):
    controls, straight, contour, path = [], [], [], []
    arc_pieces = 0
    for index in indices:
        for number, subpath in enumerate(parse_path(path_data[index])):
            arc_pieces += subpath.extra_arc_pieces
            current = subpath.start
            ends = subpath.segments
            if subpath.closed:
                ends = [*ends, subpath.start]  # the closing line (dropped when of no length)
            for end in ends:
                if len(end) == 2 and math.dist(current, end) <= 1e-6:
                    continue
                a, b = complex(*current), complex(*end[-2:])
                if len(end) == 2:
                    cubic = (a, a + (b - a) / 3, a + 2 * (b - a) / 3, b)
                else:
                    cubic = (a, complex(end[0], end[1]), complex(end[2], end[3]), b)
                controls.append(cubic)
                straight.append(len(end) == 2)
                contour.append(number)
                path.append(index)
                current = end[-2:]
    return (
        np.array(controls, dtype=complex).reshape(-1, 4),
        np.array(straight, dtype=bool),
        np.array(contour, dtype=np.int64),
        np.array(path, dtype=np.int64),
        len(controls) - arc_pieces,  # an arc is one segment as written
    )


def curve_pieces(segments: Segments, tolerance: float):
    """Each segment cut into straight pieces that stay within `tolerance` of the curve
    (lines stay whole): (piece starts, piece ends, contour of each piece), in order."""
    p0, p1, p2, p3 = segments.controls.T
    bend = np.maximum(np.abs(p0 - 2 * p1 + p2), np.abs(p1 - 2 * p2 + p3))
    # Uniform subdivision into n pieces strays at most 3/4 * bend / n^2 from a cubic.
    pieces = np.where(
        segments.straight, 1, np.clip(np.ceil(np.sqrt(0.75 * bend / tolerance)), 1, MAX_PIECES)
    ).astype(np.int64)
    owner = np.repeat(np.arange(len(pieces)), pieces)
    index = np.arange(len(owner)) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    # A segment's first piece starts at its start point: only the others are evaluated.
    starts = segments.controls[owner, 0]
    inner = np.flatnonzero(index)
    starts[inner] = _bezier(segments.controls[owner[inner]], index[inner] / pieces[owner[inner]])
    ends = np.empty_like(starts)
    ends[:-1] = starts[1:]
    last = np.cumsum(pieces) - 1  # a segment's last piece ends at its end point
    ends[last] = segments.controls[:, 3]
    return starts, ends, segments.contour[owner]


def _bezier(controls: np.ndarray, t: np.ndarray) -> np.ndarray:
    u = 1 - t
    p0, p1, p2, p3 = controls.T
    return u**3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t**3 * p3


def path_contours(path_d: str, tolerance: float = 0.25) -> list[np.ndarray]:
    """The contours of one path as (n, 2) arrays of canvas points (each implicitly closed),
    curves flattened to within `tolerance` px. Filling them with the nonzero rule gives the
    glyphs."""
    starts, _, contour = curve_pieces(path_segments([path_d]), tolerance)
    points = np.column_stack([starts.real, starts.imag])
    return np.split(points, np.flatnonzero(np.diff(contour)) + 1)


_NUMBER_RE = re.compile(NUMBER)
_COMMANDS = "MmZzLlHhVvCcSsQqTtAa"
_SPLIT_RE = re.compile(f"([{_COMMANDS}])")
_GARBAGE_RE = re.compile(rf"[^\s,0-9.eE+\-{_COMMANDS}]|(?<![0-9.])[eE]")
_SEP = r"[\s,]*"
_ARC_RE = re.compile(
    _SEP + _SEP.join([f"({NUMBER})"] * 3 + ["([01])"] * 2 + [f"({NUMBER})"] * 2) + _SEP
)
_COUNTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_COUNTS.update({key.lower(): value for key, value in _COUNTS.items()})


def parse_path(data: str | None) -> list[Subpath]:
    """Path data in absolute coordinates; as the SVG spec asks, an error ends the path but
    keeps what came before it."""
    data = (data or "").strip(" \t\r\n")
    bad = _GARBAGE_RE.search(data)
    if bad:
        data = data[: bad.start()]
    if not data or data[0] not in "Mm":
        return []
    return _build(_groups(data))


def _groups(data: str) -> list[tuple[str, list[float], bool]]:
    """(command, numbers, ok) per command letter; ok is False where the numbers cannot all
    be read (the path ends there, after the ones before)."""
    parts = _SPLIT_RE.split(data)
    if "e" not in data and "E" not in data and "a" not in data and "A" not in data:
        try:  # the common case: no exponents, no arc flags; "1-2" is two numbers
            return [
                (
                    parts[i],
                    [*map(float, parts[i + 1].replace("-", " -").replace(",", " ").split())],
                    True,
                )
                for i in range(1, len(parts), 2)
            ]
        except ValueError:  # "0.5.5" (two numbers) and friends: read with the full grammar
            pass
    groups = []
    for i in range(1, len(parts), 2):
        command, raw = parts[i], parts[i + 1]
        if command in "Aa":
            groups.append((command, *_arc_numbers(raw)))
        else:
            groups.append((command, [*map(float, _NUMBER_RE.findall(raw))], True))
    return groups


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


def _build(groups: list[tuple[str, list[float], bool]]) -> list[Subpath]:
    subpaths: list[Subpath] = []
    current = None
    x = y = 0.0
    last = None  # ("C" | "Q", x, y): the previous segment's last control point, for S and T
    for command, v, ok in groups:
        if command in "Zz":
            if current is not None:
                current.closed = True
                x, y = current.start
                current = None
            last = None
            if v:
                break
            continue
        count = _COUNTS[command]
        n = len(v) - len(v) % count
        if n == 0:
            break
        i = 0
        if command in "Mm":
            x, y = (x + v[0], y + v[1]) if command == "m" else (v[0], v[1])
            current = Subpath((x, y))
            subpaths.append(current)
            command, i, last = ("l" if command == "m" else "L"), 2, None
        if current is None:  # drawing on after Z starts a new subpath at the closed one's start
            current = Subpath((x, y))
            subpaths.append(current)
        draw = _DRAWERS[next(letters for letters in _DRAWERS if command in letters)]
        x, y, last = draw(current, command, v, i, n, (x, y), last)
        if not ok or n != len(v):
            break
    return subpaths


def _lines(current, command, v, i, n, at, last):
    """L, H, V and their repeats from number ``i`` to ``n`` of ``v``, drawn on from ``at``
    into ``current``; the new point, and no control point for S or T."""
    x, y = at
    relative = command.islower()
    while i < n:
        if command in "Ll":
            x, y = (x + v[i], y + v[i + 1]) if relative else (v[i], v[i + 1])
            i += 2
        else:
            if command in "Hh":
                x = x + v[i] if relative else v[i]
            else:
                y = y + v[i] if relative else v[i]
            i += 1
        current.segments.append((x, y))
    return x, y, None


def _curves(current, command, v, i, n, at, last):
    """C, S, Q and T (as :func:`_lines`), each as a cubic (a quadratic raised to one); the
    last control point kept for an S or T after them. An S or T starts from the previous
    segment's last control point reflected about the current point when that segment was
    of its kind, else from the current point."""
    x, y = at
    relative = command.islower()
    kind = "C" if command in "CcSs" else "Q"
    while i < n:
        ox, oy = (x, y) if relative else (0.0, 0.0)
        if command in "CcQq":
            cx, cy = ox + v[i], oy + v[i + 1]
            i += 2
        else:
            cx, cy = (2 * x - last[1], 2 * y - last[2]) if last and last[0] == kind else (x, y)
        if kind == "C":
            x2, y2, nx, ny = ox + v[i], oy + v[i + 1], ox + v[i + 2], oy + v[i + 3]
            current.segments.append((cx, cy, x2, y2, nx, ny))
            last = ("C", x2, y2)
            i += 4
        else:
            nx, ny = ox + v[i], oy + v[i + 1]
            raised = (x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y))
            current.segments.append(
                (*raised, nx + 2 / 3 * (cx - nx), ny + 2 / 3 * (cy - ny), nx, ny)
            )
            last = ("Q", cx, cy)
            i += 2
        x, y = nx, ny
    return x, y, last


def _arcs(current, command, v, i, n, at, last):
    """A (as :func:`_lines`), each arc as the cubics that follow it."""
    x, y = at
    relative = command.islower()
    while i < n:
        ox, oy = (x, y) if relative else (0.0, 0.0)
        nx, ny = ox + v[i + 5], oy + v[i + 6]
        cubics = arc_to_cubics(
            x, y, v[i], v[i + 1], v[i + 2], bool(v[i + 3]), bool(v[i + 4]), nx, ny
        )
        current.segments.extend(cubics)
        current.extra_arc_pieces += max(0, len(cubics) - 1)
        x, y = nx, ny
        i += 7
    return x, y, None


_DRAWERS = {"LlHhVv": _lines, "CcSsQqTt": _curves, "Aa": _arcs}
