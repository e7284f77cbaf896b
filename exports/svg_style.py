"""SVG presentation properties: where they are declared (attributes, the `style`
attribute), how they inherit, and how colours and lengths read."""

import colorsys
import math
import re
from functools import lru_cache

from PIL.ImageColor import colormap

from wordclouds.engine.svg_geometry import UNITS_PX, numbers

RGB = tuple[float, float, float]

INHERITED = {
    "fill": "black",
    "stroke": "none",
    "fill-rule": "nonzero",
    "stroke-width": "1",
    "stroke-linecap": "butt",
    "stroke-linejoin": "miter",
    "stroke-miterlimit": "4",
    "stroke-dasharray": "none",
    "stroke-dashoffset": "0",
    "fill-opacity": "1",
    "stroke-opacity": "1",
    "visibility": "visible",
    "font-size": "16",
    "text-anchor": "start",
    "color": "black",
    "font-family": "",
}
NOT_INHERITED = {
    "opacity": "1",
    "display": "inline",
    "clip-path": "none",
    "mask": "none",
    "filter": "none",
    "marker-start": "none",
    "marker-mid": "none",
    "marker-end": "none",
    "marker": "none",
}
PROPERTIES = set(INHERITED) | set(NOT_INHERITED)
DEFAULT_STYLE = dict(INHERITED)

_LENGTH_RE = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zA-Z%]*)\s*$")
_PLAIN_NUMBER_RE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_HEX_RE = re.compile(r"[0-9a-f]+")
_FUNCTION_RE = re.compile(r"^(rgba?|hsla?)\((.*)\)$")


def declarations(element) -> dict[str, str]:
    """Properties the element declares itself: presentation attributes, overridden by the
    `style` attribute (which wins, as in CSS)."""
    declared = {name: value.strip() for name, value in element.attrib.items() if name in PROPERTIES}
    for item in (element.get("style") or "").split(";"):
        name, sep, value = item.partition(":")
        name = name.strip().lower()
        if sep and name in PROPERTIES:
            declared[name] = value.replace("!important", "").strip()
    return declared


def cascade(parent: dict[str, str], element) -> dict[str, str]:
    """The element's computed style from its parent's and its own declarations."""
    style = parent.copy()  # then reset what does not inherit: both C-level, per element
    style.update(NOT_INHERITED)
    for name, value in declarations(element).items():
        if value == "inherit":
            style[name] = parent.get(name, style[name])
        elif name in ("fill", "stroke") and parse_paint(value, "black") is _INVALID:
            continue
        elif name == "font-size":
            style[name] = str(
                length(
                    value,
                    reference=float(parent["font-size"]),
                    font_size=float(parent["font-size"]),
                )
                or parent["font-size"]
            )
        else:
            style[name] = value
    return style


def length(value: str | None, *, reference: float = 0.0, font_size: float = 16.0) -> float | None:
    """A CSS length in user units (px); percentages of `reference`; None when unreadable."""
    if value and _PLAIN_NUMBER_RE.fullmatch(value):  # most coordinates: no unit, no regex groups
        number = float(value)
        return number if math.isfinite(number) else None
    match = _LENGTH_RE.match(value or "")
    if not match or not math.isfinite(float(match.group(1))):
        return None
    number, unit = float(match.group(1)), match.group(2).lower()
    if unit == "%":
        return number * reference / 100
    if unit in ("em", "ex"):
        return number * font_size * (1.0 if unit == "em" else 0.5)
    factor = UNITS_PX.get(unit)
    return None if factor is None else number * factor


class _Invalid:
    pass


_INVALID = _Invalid()


@lru_cache(maxsize=4096)
def parse_paint(value: str, current_color: str) -> RGB | None | _Invalid:
    """A solid paint as RGB in 0..1, None for no paint, _INVALID when unreadable. Paint
    servers (url(...)) and translucent colours are refused earlier by the reader."""
    value = value.strip()
    lowered = value.lower()
    if lowered in ("none", "transparent"):
        return None
    if lowered == "currentcolor":
        return parse_paint(current_color, "black")
    colour = parse_colour(lowered)
    return _INVALID if colour is None else colour[:3]


@lru_cache(maxsize=4096)
def parse_colour(value: str) -> tuple[float, float, float, float] | None:
    """A CSS colour as (r, g, b, alpha) in 0..1, or None."""
    value = value.strip().lower()
    if value.startswith("#"):
        digits = value[1:]
        if len(digits) in (3, 4):
            digits = "".join(ch * 2 for ch in digits)
        if len(digits) not in (6, 8) or not _HEX_RE.fullmatch(digits):
            return None
        n = int(digits, 16)
        alpha = 1.0
        if len(digits) == 8:
            n, alpha = n >> 8, (n & 255) / 255
        return ((n >> 16) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255, alpha)
    match = _FUNCTION_RE.match(value)
    if match:
        return _colour_function(match.group(1), match.group(2))
    named = colormap.get(value)
    if isinstance(named, tuple):
        # Pillow's ImageColor.getrgb() replaces the names it has parsed by their (r, g, b).
        return (named[0] / 255, named[1] / 255, named[2] / 255, 1.0)
    return None if named is None else parse_colour(named)


def _colour_function(name: str, body: str):
    parts = [p for p in re.split(r"[\s,/]+", body.strip()) if p]
    if len(parts) not in (3, 4):
        return None
    alpha = _fraction(parts[3]) if len(parts) == 4 else 1.0
    if name.startswith("rgb"):
        channels = [
            min(1.0, max(0.0, float(numbers(p)[0]) / (100 if p.endswith("%") else 255)))
            for p in parts[:3]
            if numbers(p)
        ]
        return (*channels, alpha) if len(channels) == 3 and alpha is not None else None
    values = [numbers(p) for p in parts[:3]]
    if not all(values) or alpha is None:
        return None
    return (*_hsl_to_rgb(values[0][0] / 360, values[1][0] / 100, values[2][0] / 100), alpha)


def _fraction(text: str) -> float | None:
    found = numbers(text)
    if not found:
        return None
    return found[0] / 100 if text.strip().endswith("%") else found[0]


def _hsl_to_rgb(h: float, s: float, lightness: float) -> RGB:
    return colorsys.hls_to_rgb(h % 1.0, min(1.0, max(0.0, lightness)), min(1.0, max(0.0, s)))


def opacity_below_one(value: str) -> bool:
    fraction = _fraction(value)
    return fraction is not None and fraction < 1


def colour_is_translucent(value: str) -> bool:
    colour = parse_colour(value)
    return colour is not None and colour[3] < 1
