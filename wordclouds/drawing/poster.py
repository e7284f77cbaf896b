"""Poster composition: a project drawn to PNG and to SVG from a `Poster` (services/projects.py
reads the project and its assets' files into one and runs this in a limited child).

The poster is the template's size, filled with the background colour; each sticker's asset is
then stretched to its box (`width`×`height`, top-left corner at `x`,`y`, canvas pixels, y down)
and rotated by `rotation` degrees clockwise about the box centre — the SVG `rotate()` sense —
in the order of the stickers, later ones on top. Stretching, not fitting, is what poster editors
do: the box is the sticker's frame, and a client that wants the aspect kept sends a box of that
aspect.

SVG stickers stay vector in render.svg (inlined as a nested `<svg>`) and are rasterised with
resvg for render.png; raster stickers are composited with Pillow, and embedded as data URIs in
render.svg.
"""

import base64
import math
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from xml.etree import ElementTree

import resvg_py
from PIL import Image, ImageOps

from core.errors import Unprocessable
from wordclouds import engine
from wordclouds.drawing.sticker_svg import SVG_NS, sticker_svg_element
from wordclouds.engine.svg_geometry import svg_number

SVG_CONTENT_TYPE = "image/svg+xml"
# A sticker far larger than the poster is rasterised at most at this multiple of the poster's
# longer side before being placed; only a part of it can show anyway.
RASTER_LIMIT_FACTOR = 2


@dataclass(frozen=True)
class Sticker:
    """One sticker: its box (`x`, `y`, `width`, `height`, `rotation`, as a project's stickers
    hold it), its place among the project's stickers (`index`, for ids and errors), and its
    asset: id, content type and a local file."""

    index: int
    box: dict
    asset_id: str
    content_type: str
    path: Path


@dataclass(frozen=True)
class Poster:
    width: int
    height: int
    background_color: str  # #RRGGBB
    stickers: tuple[Sticker, ...]  # in drawing order, later ones on top


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))


def render_png(poster: Poster, *, max_pixels: int) -> bytes:
    """The poster as an RGB PNG of its size; 422 when its stickers need more than
    `max_pixels` made."""
    width, height = poster.width, poster.height
    canvas = Image.new("RGBA", (width, height), (*_rgb(poster.background_color), 255))
    limit = RASTER_LIMIT_FACTOR * max(width, height)
    drawn = []
    for sticker in poster.stickers:
        region = _covered_region(sticker.box, canvas.size)
        if region is not None:
            size = (
                min(max(1, math.ceil(sticker.box["width"])), limit),
                min(max(1, math.ceil(sticker.box["height"])), limit),
            )
            drawn.append((sticker, region, size))
    _check_work(drawn, max_pixels)
    for sticker, region, size in drawn:
        _place(canvas, _sticker_raster(sticker, size), sticker.box, region)
    out = BytesIO()
    canvas.convert("RGB").save(out, "PNG")
    return out.getvalue()


def _check_work(drawn: list, max_pixels: int) -> None:
    """Refuse a poster whose stickers need more pixels made than `max_pixels` before
    drawing any: each sticker's raster at its box size, plus the decoded pixels of each
    raster asset (a small PNG file can hold 50 megapixels)."""
    pixels = 0
    for sticker, _region, size in drawn:
        pixels += size[0] * size[1]
        if sticker.content_type != SVG_CONTENT_TYPE:
            try:
                with Image.open(sticker.path) as image:
                    pixels += image.width * image.height
            except (OSError, ValueError) as error:
                raise _cannot_draw(sticker) from error
    if pixels > max_pixels:
        raise Unprocessable(
            f"the stickers need {pixels // 1_000_000} megapixels drawn; at most "
            f"{max_pixels // 1_000_000} are allowed",
            code="stickers_too_many_pixels",
        )


def _cannot_draw(sticker: Sticker) -> Unprocessable:
    return Unprocessable(
        f"stickers[{sticker.index}] asset {sticker.asset_id} cannot be drawn",
        code="sticker_not_drawable",
    )


def _sticker_raster(sticker: Sticker, size: tuple[int, int]) -> Image.Image:
    """The sticker's pixels at `size` (its box, bounded), premultiplied for resampling."""
    try:
        if sticker.content_type == SVG_CONTENT_TYPE:
            element = sticker_svg_element(sticker.path, sticker.index)
            element.set("width", str(size[0]))
            element.set("height", str(size[1]))
            svg = ElementTree.tostring(element, encoding="unicode")
            png = resvg_py.svg_to_bytes(
                svg_string=svg,
                skip_system_fonts=True,
                font_files=[str(engine.default_font_path())],
            )
            image = Image.open(BytesIO(png))
        else:
            image = ImageOps.exif_transpose(Image.open(sticker.path))
            image = image.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
        return image.convert("RGBa")
    except (OSError, ValueError, SyntaxError) as error:
        raise _cannot_draw(sticker) from error


def _turn(sticker: dict) -> tuple[float, float, float, float]:
    """(centre x, centre y, cos, sin) of the sticker's box and rotation."""
    theta = math.radians(sticker.get("rotation", 0))
    return (
        sticker["x"] + sticker["width"] / 2,
        sticker["y"] + sticker["height"] / 2,
        math.cos(theta),
        math.sin(theta),
    )


def _covered_region(sticker: dict, canvas_size: tuple[int, int]):
    """(left, top, right, bottom) of the canvas pixels the rotated box touches, or None
    when it lies wholly off the poster."""
    cx, cy, cos, sin = _turn(sticker)
    w, h = sticker["width"], sticker["height"]
    corners = [
        (cx + cos * dx - sin * dy, cy + sin * dx + cos * dy)
        for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    ]
    left = max(0, math.floor(min(px for px, _ in corners)))
    top = max(0, math.floor(min(py for _, py in corners)))
    right = min(canvas_size[0], math.ceil(max(px for px, _ in corners)))
    bottom = min(canvas_size[1], math.ceil(max(py for _, py in corners)))
    return None if right <= left or bottom <= top else (left, top, right, bottom)


def _place(canvas: Image.Image, image: Image.Image, sticker: dict, region) -> None:
    """Composite `image` stretched to the sticker's box and rotated about its centre,
    resampling only the `region` of the canvas the rotated box covers."""
    cx, cy, cos, sin = _turn(sticker)
    w, h = sticker["width"], sticker["height"]
    left, top, right, bottom = region
    # Canvas point (left + u, top + v), turned back by the rotation into the box, then scaled
    # into the image: the inverse map Pillow's affine transform wants.
    sx, sy = image.width / w, image.height / h
    dx, dy = left - cx, top - cy
    coefficients = (
        cos * sx,
        sin * sx,
        (cos * dx + sin * dy + w / 2) * sx,
        -sin * sy,
        cos * sy,
        (-sin * dx + cos * dy + h / 2) * sy,
    )
    layer = image.transform(
        (right - left, bottom - top),
        Image.Transform.AFFINE,
        coefficients,
        resample=Image.Resampling.BICUBIC,
    )
    canvas.alpha_composite(layer.convert("RGBA"), dest=(left, top))


def render_svg(poster: Poster) -> bytes:
    """The poster as SVG: SVG stickers inline (vector), raster stickers as data URIs."""
    width, height = poster.width, poster.height
    root = ElementTree.Element(
        f"{{{SVG_NS}}}svg",
        {
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
        },
    )
    ElementTree.SubElement(
        root,
        f"{{{SVG_NS}}}rect",
        {
            "width": str(width),
            "height": str(height),
            "fill": poster.background_color,
        },
    )
    for sticker in poster.stickers:
        box = sticker.box
        group = ElementTree.SubElement(root, f"{{{SVG_NS}}}g", {"id": f"sticker-{sticker.index}"})
        if box.get("rotation"):
            centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            turn = " ".join(svg_number(value) for value in (box["rotation"], *centre))
            group.set("transform", f"rotate({turn})")
        group.append(_svg_sticker(sticker))
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)


def _svg_sticker(sticker: Sticker) -> ElementTree.Element:
    box = {key: svg_number(sticker.box[key]) for key in ("x", "y", "width", "height")}
    if sticker.content_type == SVG_CONTENT_TYPE:
        element = sticker_svg_element(sticker.path, sticker.index)
        for key, value in box.items():
            element.set(key, value)
        return element
    data = base64.b64encode(sticker.path.read_bytes()).decode("ascii")
    return ElementTree.Element(
        f"{{{SVG_NS}}}image",
        {
            **box,
            "preserveAspectRatio": "none",
            "href": f"data:{sticker.content_type};base64,{data}",
        },
    )
