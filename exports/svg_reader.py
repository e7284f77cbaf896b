"""Reads an SVG document into a Drawing: solid-painted shapes whose geometry is already in
page points (y down), the form the Illustrator writer needs. XML is parsed with defusedxml:
entity declarations and external references are refused before anything is expanded."""

import base64
import binascii
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import ParseError

import defusedxml
from defusedxml.ElementTree import fromstring

from core.errors import InvalidInput, Unprocessable
from exports.svg_style import (
    DEFAULT_STYLE,
    RGB,
    cascade,
    colour_is_translucent,
    declarations,
    length,
    opacity_below_one,
    parse_paint,
)
from exports.svg_text import text_runs
from wordclouds.engine.path_data import parse_path
from wordclouds.engine.svg_geometry import (
    IDENTITY,
    Matrix,
    Subpath,
    ellipse_subpath,
    multiply,
    numbers,
    parse_transform,
    points_subpath,
    rect_subpath,
)

NOT_SVG = "svg is not valid SVG"
PX_TO_PT = 0.75  # CSS: 96 px per inch, 72 pt per inch; 100 mm in the SVG stay 100 mm
MAX_DEPTH = 256
MAX_USE_EXPANSIONS = 100_000
FORBIDDEN_ELEMENTS = {
    "image",
    "pattern",
    "linearGradient",
    "radialGradient",
    "clipPath",
    "mask",
    "filter",
    "foreignObject",
    "marker",
    "style",
    "meshgradient",
    "hatch",
}
_REFERENCE_PROPERTIES = {
    "clip-path": "clipPath",
    "mask": "mask",
    "filter": "filter",
    "marker": "marker",
    "marker-start": "marker",
    "marker-mid": "marker",
    "marker-end": "marker",
}
_SCANNED_ATTRIBUTES = {
    "style",
    "href",
    "{http://www.w3.org/1999/xlink}href",
    "fill",
    "stroke",
    "color",
    "opacity",
    "fill-opacity",
    "stroke-opacity",
    *_REFERENCE_PROPERTIES,
}
_SKIPPED = {"defs", "title", "desc", "metadata", "symbol", "script"}
_CONTAINERS = {"g", "a", "switch"}
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "miter-clip": 0, "arcs": 0, "round": 1, "bevel": 2}
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"


def layer_name(element) -> str | None:
    """The name of the layer a `<g>` is, None for a plain group: a group Inkscape marks as
    a layer (`inkscape:groupmode="layer"`), named as Inkscape shows it (`inkscape:label`),
    else as Illustrator does (`data-name`, else the id)."""
    if element.get(INKSCAPE + "groupmode") != "layer":
        return None
    return element.get(INKSCAPE + "label") or element.get("data-name") or element.get("id") or ""


@dataclass(slots=True)
class Shape:
    """Subpaths in their element's user space; `matrix` takes them to page points (y down).
    Stroke width and dashes are already in points."""

    subpaths: list[Subpath]
    matrix: Matrix
    fill: RGB | None
    stroke: RGB | None
    fill_rule: str = "nonzero"
    stroke_width: float = 1.0
    linecap: int = 0
    linejoin: int = 0
    miterlimit: float = 4.0
    dash: list[float] = field(default_factory=list)
    dash_offset: float = 0.0
    layer: str | None = None  # the name of the layer it is drawn in (layer_name), if any


@dataclass(slots=True)
class Picture:
    """An embedded raster image (a data: URI's bytes); `matrix` takes its unit square, y up
    as in PDF's image space, to page points (y down)."""

    data: bytes
    matrix: Matrix


@dataclass(slots=True)
class Clip:
    """What follows, up to the matching ClipEnd, is clipped to this quadrilateral (page
    points, y down): a nested `<svg>`'s viewport."""

    corners: list[tuple[float, float]]


class ClipEnd:
    """Closes the latest Clip."""


@dataclass
class Drawing:
    width: float  # points
    height: float
    # produced while the writer consumes them: memory stays flat; Pictures, Clips and
    # ClipEnds only when the document was read with project=True
    shapes: Iterator[Shape | Picture | Clip | ClipEnd]
    # the names of its layers in document order (layer_name): each Shape's `layer` is one
    layers: list[str] = field(default_factory=list)


def local_name(element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def read_svg(data: bytes, *, project: bool = False) -> Drawing:
    """The drawing in an SVG document. 400 `svg is not valid SVG` for XML that does not
    parse or is not an <svg>; 422 naming everything unsupported that the document uses.
    `project`: a project's render.svg, whose raster stickers are `<image>` elements holding
    a data: URI, read as Pictures (otherwise they are unsupported), and whose SVG stickers
    are nested `<svg>` elements clipped to their box as render.png draws them (Clip ...
    ClipEnd around their shapes)."""
    try:
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except defusedxml.EntitiesForbidden:
        raise unsupported({"XML entity declarations"}) from None
    except (defusedxml.ExternalReferenceForbidden, defusedxml.DTDForbidden):
        raise unsupported({"external reference"}) from None
    except (ParseError, ValueError):
        raise InvalidInput(NOT_SVG, code="svg_not_svg") from None
    if local_name(root) != "svg":
        raise InvalidInput(NOT_SVG, code="svg_not_svg")
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    if project:
        _refuse_unsupported_stickers(root, ids)
    found = unsupported_content(root, ids)
    if project:
        found.discard("image")
    if found:
        raise unsupported(found)
    return _Reader(root, ids, clip=project).read()


def _refuse_unsupported_stickers(root, ids: dict):
    """422 naming the first sticker of a render.svg (`<g id="sticker-<i>">`) that uses
    content the reader cannot hold, so that the client knows which one to change."""
    for group in root:
        index = (group.get("id") or "").removeprefix("sticker-")
        if not index.isdigit():
            continue
        found = unsupported_content(group, ids) - {"image"}
        if found:
            raise Unprocessable(
                f"stickers[{index}] uses unsupported content: {', '.join(sorted(found))}",
                code="svg_unsupported_content",
            )


def unsupported(names: set[str]) -> Unprocessable:
    return Unprocessable(
        f"svg uses unsupported content: {', '.join(sorted(names))}", code="svg_unsupported_content"
    )


def unsupported_content(root, ids: dict) -> set[str]:
    """Names of everything the legacy format cannot hold: images, paint servers, clipping,
    masks, filters, markers, style sheets, any opacity below 1, external references."""
    found = set()
    for element in root.iter():
        name = local_name(element)
        if name in FORBIDDEN_ELEMENTS:
            found.add("style sheet" if name == "style" else name)
        if _SCANNED_ATTRIBUTES.isdisjoint(element.attrib):
            continue
        href = element.get("href") or element.get(XLINK_HREF)
        if href is not None and not href.strip().startswith(("#", "data:")):
            found.add("external reference")
        for prop, value in declarations(element).items():
            if prop in _REFERENCE_PROPERTIES and value != "none":
                found.add(_REFERENCE_PROPERTIES[prop])
            elif prop in ("opacity", "fill-opacity", "stroke-opacity") and opacity_below_one(value):
                found.add(prop)
            elif prop in ("fill", "stroke", "color"):
                found |= _paint_problems(value, ids)
    return found


def _paint_problems(value: str, ids: dict) -> set[str]:
    value = value.strip()
    if value.startswith("url("):
        target = value[4:].split(")", 1)[0].strip().strip("'\"")
        if not target.startswith("#"):
            return {"external reference"}
        element = ids.get(target[1:])
        return {local_name(element) if element is not None else "paint server"}
    return {"opacity"} if colour_is_translucent(value) else set()


class _Reader:
    def __init__(self, root, ids: dict, *, clip: bool = False):
        self.root = root
        self.ids = ids
        self.clip = clip  # nested viewports as Clip ... ClipEnd
        self.expansions = 0
        self.layer: str | None = None  # the layer being read (the nearest one around)

    def read(self) -> Drawing:
        style = cascade(DEFAULT_STYLE, self.root)
        width = _root_length(self.root.get("width"), self.root, 2) or 300.0
        height = _root_length(self.root.get("height"), self.root, 3) or 150.0
        page = (PX_TO_PT, 0.0, 0.0, PX_TO_PT, 0.0, 0.0)
        viewport = multiply(page, _viewbox_matrix(self.root, width, height))
        layers = [layer_name(g) for g in self.root.iter() if local_name(g) == "g"]
        return Drawing(
            width * PX_TO_PT,
            height * PX_TO_PT,
            self._children(self.root, style, viewport, 0),
            [name for name in layers if name is not None],
        )

    def _children(self, element, style, ctm: Matrix, depth: int) -> Iterator[Shape]:
        for child in element:
            yield from self._element(child, style, ctm, depth + 1)

    def _element(self, element, parent_style, ctm: Matrix, depth: int) -> Iterator[Shape]:
        if depth > MAX_DEPTH:
            raise unsupported({"nesting deeper than 256 levels"})
        name = local_name(element)
        if name in _SKIPPED or not name:
            return
        style = cascade(parent_style, element)
        if style["display"] == "none":
            return
        transform = element.get("transform")
        if transform:
            ctm = multiply(ctm, parse_transform(transform))
        if name in _CONTAINERS:
            yield from self._layer(element, self._children(element, style, ctm, depth))
        elif name == "svg":
            yield from self._nested_svg(element, style, ctm, depth)
        elif name == "use":
            yield from self._use(element, style, ctm, depth)
        elif name == "text":
            for run_style, subpaths in text_runs(element, style):
                yield from _shape(subpaths, run_style, ctm, self.layer)
        elif name == "image":
            yield from _picture(element, style, ctm)
        else:
            yield from _shape(_shape_subpaths(name, element, style), style, ctm, self.layer)

    def _layer(self, element, items: Iterator) -> Iterator:
        """``items`` (a group's) read as in the layer the group is, if it is one
        (layer_name): each Shape among them carries that layer's name."""
        name = layer_name(element) if local_name(element) == "g" else None
        if name is None:
            yield from items
            return
        outer, self.layer = self.layer, name
        try:
            yield from items
        finally:
            self.layer = outer

    def _nested_svg(self, element, style, ctm: Matrix, depth: int) -> Iterator[Shape]:
        x = length(element.get("x")) or 0.0
        y = length(element.get("y")) or 0.0
        width = length(element.get("width") or "100%", reference=100.0) or 0.0
        height = length(element.get("height") or "100%", reference=100.0) or 0.0
        inner = multiply((1.0, 0.0, 0.0, 1.0, x, y), _viewbox_matrix(element, width, height))
        if not self.clip:
            yield from self._children(element, style, multiply(ctm, inner), depth)
            return
        a, b, c, d, e, f = ctm
        box = ((x, y), (x + width, y), (x + width, y + height), (x, y + height))
        yield Clip([(a * px + c * py + e, b * px + d * py + f) for px, py in box])
        yield from self._children(element, style, multiply(ctm, inner), depth)
        yield ClipEnd()

    def _use(self, element, style, ctm: Matrix, depth: int) -> Iterator[Shape]:
        href = element.get("href") or element.get(XLINK_HREF) or ""
        target = self.ids.get(href[1:]) if href.startswith("#") else None
        if target is None:
            return
        self.expansions += 1
        if self.expansions > MAX_USE_EXPANSIONS:
            raise unsupported({"more than 100000 <use> expansions"})
        offset = (
            1.0,
            0.0,
            0.0,
            1.0,
            length(element.get("x")) or 0.0,
            length(element.get("y")) or 0.0,
        )
        ctm = multiply(ctm, offset)
        if local_name(target) == "symbol":
            width = length(element.get("width") or "100%", reference=100.0) or 0.0
            height = length(element.get("height") or "100%", reference=100.0) or 0.0
            symbol_style = cascade(style, target)
            yield from self._children(
                target, symbol_style, multiply(ctm, _viewbox_matrix(target, width, height)), depth
            )
        else:
            yield from self._element(target, style, ctm, depth + 1)


def _shape(
    subpaths: list[Subpath], style: dict[str, str], ctm: Matrix, layer: str | None = None
) -> Iterator[Shape]:
    """The painted shape, if it has ink: nothing for hidden or unpainted elements."""
    subpaths = [sub for sub in subpaths if sub.segments]
    if not subpaths or style["visibility"] in ("hidden", "collapse"):
        return
    fill = parse_paint(style["fill"], style["color"])
    stroke = parse_paint(style["stroke"], style["color"])
    scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
    width = (length(style["stroke-width"], reference=100.0) or 0.0) * scale
    if width <= 0:
        stroke = None
    if fill is None and stroke is None:
        return
    shape = Shape(
        subpaths, ctm, fill, stroke, "evenodd" if style["fill-rule"] == "evenodd" else "nonzero"
    )
    shape.layer = layer
    if stroke is not None:
        shape.stroke_width = width
        shape.linecap = _CAPS.get(style["stroke-linecap"], 0)
        shape.linejoin = _JOINS.get(style["stroke-linejoin"], 0)
        shape.miterlimit = max(1.0, length(style["stroke-miterlimit"]) or 4.0)
        shape.dash, shape.dash_offset = _dash(style, scale)
    yield shape


def _picture(element, style: dict[str, str], ctm: Matrix) -> Iterator[Picture]:
    """An `<image>` stretched to its box (`preserveAspectRatio="none"`, as render.svg writes
    it); one that is not base64 data is refused."""
    href = (element.get("href") or element.get(XLINK_HREF) or "").strip()
    header, _, payload = href.partition(",")
    if not header.startswith("data:") or not header.endswith(";base64"):
        raise unsupported({"image without base64 data"})
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise unsupported({"image without base64 data"}) from None
    width, height = length(element.get("width")) or 0.0, length(element.get("height")) or 0.0
    if width <= 0 or height <= 0 or style["visibility"] in ("hidden", "collapse"):
        return
    x, y = length(element.get("x")) or 0.0, length(element.get("y")) or 0.0
    yield Picture(data, multiply(ctm, (width, 0.0, 0.0, -height, x, y + height)))


def _dash(style: dict[str, str], scale: float) -> tuple[list[float], float]:
    values = (
        style["stroke-dasharray"].replace(",", " ").split()
        if style["stroke-dasharray"] != "none"
        else []
    )
    dash = [(length(v, reference=100.0) or 0.0) * scale for v in values]
    if any(v < 0 for v in dash) or sum(dash) <= 0:
        return [], 0.0
    if len(dash) % 2:
        dash = dash * 2
    return dash, (length(style["stroke-dashoffset"], reference=100.0) or 0.0) * scale


def _root_length(value: str | None, root, viewbox_index: int) -> float | None:
    if value and not value.strip().endswith("%"):
        return length(value)
    box = numbers(root.get("viewBox") or "")
    return box[viewbox_index] if len(box) == 4 and box[viewbox_index] > 0 else None


def _viewbox_matrix(element, width: float, height: float) -> Matrix:
    """viewBox and preserveAspectRatio as a matrix into a width x height viewport."""
    box = numbers(element.get("viewBox") or "")
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        return IDENTITY
    vx, vy, vw, vh = box
    sx, sy = width / vw, height / vh
    aspect = (element.get("preserveAspectRatio") or "xMidYMid meet").split()
    align = aspect[0] if aspect else "xMidYMid"
    if align != "none":
        sx = sy = max(sx, sy) if len(aspect) > 1 and aspect[1] == "slice" else min(sx, sy)
    tx, ty = -vx * sx, -vy * sy
    if align != "none":
        free_x, free_y = width - vw * sx, height - vh * sy
        tx += free_x / 2 if "xMid" in align else free_x if "xMax" in align else 0.0
        ty += free_y / 2 if "YMid" in align else free_y if "YMax" in align else 0.0
    return (sx, 0.0, 0.0, sy, tx, ty)


def _shape_subpaths(name: str, element, style: dict[str, str]) -> list[Subpath]:
    def attr(key: str, reference: float = 100.0) -> float:
        return (
            length(element.get(key), reference=reference, font_size=float(style["font-size"]))
            or 0.0
        )

    if name == "path":
        return parse_path(element.get("d"))
    if name == "rect":
        w, h = attr("width"), attr("height")
        if w <= 0 or h <= 0:
            return []
        rx_raw, ry_raw = element.get("rx"), element.get("ry")
        rx = attr("rx") if rx_raw not in (None, "auto") else None
        ry = attr("ry") if ry_raw not in (None, "auto") else None
        rx, ry = (rx if rx is not None else ry or 0.0), (ry if ry is not None else rx or 0.0)
        return [
            rect_subpath(
                attr("x"), attr("y"), w, h, min(max(rx, 0.0), w / 2), min(max(ry, 0.0), h / 2)
            )
        ]
    if name == "circle":
        r = attr("r")
        return [ellipse_subpath(attr("cx"), attr("cy"), r, r)] if r > 0 else []
    if name == "ellipse":
        rx, ry = attr("rx"), attr("ry")
        return [ellipse_subpath(attr("cx"), attr("cy"), rx, ry)] if rx > 0 and ry > 0 else []
    if name == "line":
        return [Subpath((attr("x1"), attr("y1")), [(attr("x2"), attr("y2"))])]
    if name in ("polyline", "polygon"):
        return points_subpath(numbers(element.get("points") or ""), closed=name == "polygon")
    return []
