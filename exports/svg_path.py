"""SVG path data to absolute subpaths of lines and cubics. Word clouds are tens of
thousands of short paths, so this is the converter's hot loop: one split per path, numbers
read by C code, and the builder a single function over local variables."""

import re

from exports.svg_geometry import NUMBER, Subpath, arc_to_cubics

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
        append = current.segments.append
        relative = command.islower()
        if command in "LlHhVv":
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
                append((x, y))
            last = None
        elif command in "CcSs":
            while i < n:
                ox, oy = (x, y) if relative else (0.0, 0.0)
                if command in "Cc":
                    x1, y1 = ox + v[i], oy + v[i + 1]
                    i += 2
                else:
                    x1, y1 = (
                        (2 * x - last[1], 2 * y - last[2]) if last and last[0] == "C" else (x, y)
                    )
                x2, y2, x, y = ox + v[i], oy + v[i + 1], ox + v[i + 2], oy + v[i + 3]
                append((x1, y1, x2, y2, x, y))
                last = ("C", x2, y2)
                i += 4
        elif command in "QqTt":
            while i < n:
                ox, oy = (x, y) if relative else (0.0, 0.0)
                if command in "Qq":
                    qx, qy = ox + v[i], oy + v[i + 1]
                    i += 2
                else:
                    qx, qy = (
                        (2 * x - last[1], 2 * y - last[2]) if last and last[0] == "Q" else (x, y)
                    )
                nx, ny = ox + v[i], oy + v[i + 1]
                append(
                    (
                        x + 2 / 3 * (qx - x),
                        y + 2 / 3 * (qy - y),
                        nx + 2 / 3 * (qx - nx),
                        ny + 2 / 3 * (qy - ny),
                        nx,
                        ny,
                    )
                )
                x, y, last = nx, ny, ("Q", qx, qy)
                i += 2
        else:
            while i < n:
                ox, oy = (x, y) if relative else (0.0, 0.0)
                nx, ny = ox + v[i + 5], oy + v[i + 6]
                current.segments.extend(
                    arc_to_cubics(
                        x, y, v[i], v[i + 1], v[i + 2], bool(v[i + 3]), bool(v[i + 4]), nx, ny
                    )
                )
                x, y = nx, ny
                i += 7
            last = None
        if not ok or n != len(v):
            break
    return subpaths
