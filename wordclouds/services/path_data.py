"""SVG path data to geometry, vectorised over many paths at once.

A poster of 10,000 names has over a million path segments; a per-segment Python parser
(svgpathtools, fontTools) needs seconds for them, so the common commands are parsed with
numpy over the bytes of all paths together: M L H V C Q Z, absolute and relative, implicit
repeats, numbers without exponents. A path using anything else (S T A, exponents) is
parsed by svgpathtools instead, with the same result shape. The analysis of line spacing
and the styled re-export (custom.svg) both read outlines through here."""
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from svgpathtools import Arc, CubicBezier, Line, QuadraticBezier, parse_path

COMMANDS = "MLHVCQZ"
ARITY = np.array([2, 2, 1, 1, 6, 4, 0, 0])  # per COMMANDS index; 7 is the path separator
SEPARATOR = 7
# Path data the vectorised parser leaves to svgpathtools.
GENERAL_ONLY = re.compile(r"[SsTtAaEe]")
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
    general = [i for i, d in enumerate(path_data) if GENERAL_ONLY.search(d)]
    skipped = set(general)
    parts = [_parse_simple(["" if i in skipped else d for i, d in enumerate(path_data)])]
    if general:
        parts.append(_parse_general(path_data, general))
    controls, straight, contour, path, counts = zip(*parts)
    controls, straight, contour, path = map(np.concatenate, (controls, straight, contour, path))
    # Order by path, then by contour within the path; renumber contours 0..n-1.
    key = np.lexsort((contour, path))
    controls, straight, contour, path = controls[key], straight[key], contour[key], path[key]
    starts = np.ones(len(contour), dtype=bool)
    starts[1:] = (contour[1:] != contour[:-1]) | (path[1:] != path[:-1])
    return Segments(
        controls=controls, straight=straight, contour=np.cumsum(starts) - 1,
        contour_path=path[starts], segment_count=sum(counts),
    )


def _byte_table() -> np.ndarray:
    """Byte -> command code (COMMANDS index, SEPARATOR for the NUL between paths), -2 for a
    letter no command uses, -1 for anything else."""
    table = np.full(256, -1, dtype=np.int8)
    table[ord("A"):ord("Z") + 1] = -2
    table[ord("a"):ord("z") + 1] = -2
    for index, letter in enumerate(COMMANDS):
        table[ord(letter)] = table[ord(letter.lower())] = index
    table[0] = SEPARATOR
    return table


BYTE_CODE = _byte_table()
POWERS_OF_TEN = 10.0 ** np.arange(-40, 41)


def _parse_simple(path_data: list[str]):
    data = np.frombuffer("\0".join(path_data).encode("ascii"), dtype=np.uint8)
    if not data.size:
        return _parse_general(path_data, [])
    byte_code = BYTE_CODE[data]
    if (byte_code == -2).any():
        raise ValueError(f"unsupported path command {chr(data[np.argmax(byte_code == -2)])!r}")
    numbers, number_at = _numbers(data)
    command_at = np.flatnonzero(byte_code >= 0)
    code = byte_code[command_at].astype(np.int64)
    relative = data[command_at] >= ord("a")

    owner = np.searchsorted(command_at, number_at, side="right") - 1
    if (owner < 0).any():
        raise ValueError("path data must begin with a command")
    count = np.bincount(owner, minlength=len(code))
    arity = ARITY[code]
    takes = arity > 0
    if (count[~takes] > 0).any() or (count[takes] % arity[takes]).any() or (count[takes] == 0).any():
        raise ValueError("wrong number of coordinates in path data")
    groups = np.where(takes, count // np.maximum(arity, 1), 1)
    first_segment = np.cumsum(groups) - groups
    segment_command = np.repeat(np.arange(len(code)), groups)
    group = np.arange(len(segment_command)) - first_segment[segment_command]
    kind = code[segment_command]
    kind[(kind == 0) & (group > 0)] = 1  # implicit repeats of a move are lines
    is_relative = relative[segment_command]
    previous_kind = np.concatenate(([SEPARATOR], kind[:-1]))
    is_relative[previous_kind == SEPARATOR] = False  # a path's first move is absolute

    args = np.zeros((len(kind), 6))
    within = np.arange(len(numbers)) - (np.cumsum(count) - count)[owner]
    number_arity = arity[owner]
    args[first_segment[owner] + within // number_arity, within % number_arity] = numbers
    return _resolve(kind, is_relative, args)


def _numbers(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every number in the bytes (digits with at most one dot, an optional minus sign just
    before) and the position where each starts."""
    digit = np.subtract(data, 48, dtype=np.uint8) < 10
    dot = data == 46
    body = digit | dot
    start = body.copy()
    start[1:] &= ~body[:-1]
    # A second dot in one run starts a new number ("1.5.5" is 1.5 and .5).
    dots = np.flatnonzero(dot)
    if len(dots) > 1:
        run = np.cumsum(start, dtype=np.int32)
        again = run[dots[1:]] == run[dots[:-1]]
        start[dots[1:][again]] = True
    at = np.flatnonzero(body)
    if not len(at):
        return np.zeros(0), at
    starts_here = start[at]
    token = np.cumsum(starts_here, dtype=np.int32) - 1
    starts = at[starts_here]
    last = np.ones(len(at), dtype=bool)
    last[:-1] = starts_here[1:]
    decimal_point = np.empty(len(starts), dtype=np.int64)
    decimal_point[token[last]] = at[last] + 1  # no dot: after the last digit
    is_dot = dot[at]
    decimal_point[token[is_dot]] = at[is_dot]
    is_digit = ~is_dot
    digit_at, digit_token = at[is_digit], token[is_digit]
    place = decimal_point[digit_token] - digit_at
    power = np.clip(np.where(place > 0, place - 1, place), -40, 40) + 40
    weights = (data[digit_at] - 48.0) * POWERS_OF_TEN[power]
    values = np.bincount(digit_token, weights=weights, minlength=len(starts))
    negative = data[np.maximum(starts - 1, 0)] == 45
    negative &= starts > 0
    return np.where(negative, -values, values), starts


def _resolve(kind, is_relative, args):
    """Absolute points for every segment (pointer jumping over `relative to the previous
    point` links, so a million segments take a few dozen vector steps), then the cubic
    control points of the drawing segments."""
    n = len(kind)
    index = np.arange(n)
    move_index = np.maximum.accumulate(np.where((kind == 0) | (kind == SEPARATOR), index, 0))
    coordinates = []
    for axis, lone in ((0, 2), (1, 3)):  # H sets x only, V sets y only
        value = np.where(kind == lone, args[:, 0], 0.0)
        value = np.where(np.isin(kind, (0, 1)), args[:, axis], value)
        value = np.where(kind == 4, args[:, 4 + axis], value)
        value = np.where(kind == 5, args[:, 2 + axis], value)
        sets_axis = np.isin(kind, (0, 1, 4, 5)) | (kind == lone)
        absolute = sets_axis & ~is_relative | (kind == SEPARATOR)
        link = np.where(absolute, -1, index - 1)
        link = np.where(kind == 6, move_index, link)  # close: back to the subpath's start
        value = np.where(kind == 6, 0.0, value)
        link[0] = -1
        coordinates.append(_follow(value, link))
    end = coordinates[0] + 1j * coordinates[1]
    start = np.concatenate(([0j], end[:-1]))
    origin = np.where(is_relative, start, 0)
    c1 = origin + args[:, 0] + 1j * args[:, 1]
    c2 = origin + args[:, 2] + 1j * args[:, 3]
    controls = np.column_stack((start, start + (end - start) / 3, start + 2 * (end - start) / 3, end))
    cubic, quad = kind == 4, kind == 5
    controls[cubic, 1], controls[cubic, 2] = c1[cubic], c2[cubic]
    controls[quad, 1] = start[quad] + 2 * (c1[quad] - start[quad]) / 3
    controls[quad, 2] = end[quad] + 2 * (c1[quad] - end[quad]) / 3

    path = np.cumsum(kind == SEPARATOR)
    opens = np.concatenate(([True], np.isin(kind[:-1], (0, 6, SEPARATOR))))
    # A line of no length draws nothing, like a close at its start (sums of decimals
    # round, hence the tolerance).
    drawing = np.isin(kind, (4, 5)) | (np.isin(kind, (1, 2, 3, 6)) & (np.abs(end - start) > 1e-6))
    contour = np.cumsum(opens & drawing) - 1
    straight = ~np.isin(kind, (4, 5))
    return (
        controls[drawing], straight[drawing], contour[drawing], path[drawing],
        int(drawing.sum()),
    )


def _follow(value: np.ndarray, link: np.ndarray) -> np.ndarray:
    """value[i] + value[link[i]] + value[link[link[i]]] + ... (link -1 ends the chain)."""
    value, link = value.copy(), link.copy()
    while True:
        pending = np.flatnonzero(link >= 0)
        if not len(pending):
            return value
        target = link[pending]
        value[pending] += value[target]
        link[pending] = link[target]


def _parse_general(path_data: Sequence[str], indices: list[int]):
    controls, straight, contour, path = [], [], [], []
    count = 0
    for index in indices:
        for number, subpath in enumerate(parse_path(path_data[index]).continuous_subpaths()):
            for segment in subpath:
                if isinstance(segment, Line) and abs(segment.end - segment.start) <= 1e-6:
                    continue
                count += 1
                for cubic in _as_cubics(segment):
                    controls.append(cubic)
                    straight.append(isinstance(segment, Line))
                    contour.append(number)
                    path.append(index)
    return (
        np.array(controls, dtype=complex).reshape(-1, 4), np.array(straight, dtype=bool),
        np.array(contour, dtype=np.int64), np.array(path, dtype=np.int64), count,
    )


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
    controls = segments.controls[owner]
    starts = _bezier(controls, index / pieces[owner])
    ends = _bezier(controls, (index + 1) / pieces[owner])
    return starts, ends, segments.contour[owner]


def _bezier(controls: np.ndarray, t: np.ndarray) -> np.ndarray:
    u = 1 - t
    p0, p1, p2, p3 = controls.T
    return u**3 * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t**3 * p3
