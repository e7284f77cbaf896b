"""custom.svg: a finished job's words re-exported from positions.db and the job's font, in
an engraving fill style (docs/lookup.md, custom.svg). Patterns are real geometry cut to the
glyphs (services/fill_patterns.py): circles, polygons and paths in one solid colour, never
`<pattern>`, `<clipPath>`, `<mask>` or opacity, so every output converts to .ai."""

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import shapely

from config.errors import Conflict, InvalidInput, Unprocessable
from config.isolated import run_heavy
from wordclouds import engine
from wordclouds.selectors import JobView, artifact_path, job_get
from wordclouds.services.fill_patterns import (
    glyph_shapes,
    grid_centres,
    grid_counts,
    line_fill,
    round_marks,
)
from wordclouds.services.jobs import FontGone, job_font_path, job_input_folder
from wordclouds.services.lookup import canvas_size, positions_db

FILLS = ("fill", "dot", "line", "ring")
MAX_PRIMITIVES = 2_000_000
FONT_MISSING = "the job's font no longer exists"
COLOR = re.compile(r"#[0-9A-Fa-f]{6}")
TRUE, FALSE = ("1", "true"), ("0", "false")


@dataclass(frozen=True)
class CustomSvgOptions:
    """The query parameters of custom.svg with the spec's defaults (px unless said)."""

    fill: str = "fill"
    stroke: bool = False
    spacing: float = 10.0  # dot grid pitch
    radius: float = 2.0  # dot radius
    color: str = "#000000"
    line_spacing: float = 6.0
    line_width: float = 1.0  # also the width of the stroked outlines
    line_angle: float = 0.0  # degrees, clockwise from the x axis
    ring_radius: float = 3.0
    ring_width: float = 1.0
    ring_spacing: float = 8.0


POSITIVE = (
    "spacing",
    "radius",
    "line_spacing",
    "line_width",
    "ring_radius",
    "ring_width",
    "ring_spacing",
)
# A pitch below this is too dense on any word (and would overflow the grid counts); lengths
# above this are beyond any canvas.
PITCHES = ("spacing", "line_spacing", "ring_spacing")
PITCH_MIN = 0.01
DENSE = "pattern too dense"
LENGTH_MAX = 10_000.0


def custom_svg_options(query: Mapping[str, str]) -> CustomSvgOptions:
    """Options from query parameters; absent or empty: the default. 400 naming the
    parameter for a bad value."""
    given = {field.name: query.get(field.name, "").strip() for field in fields(CustomSvgOptions)}
    values = {}
    if given["fill"]:
        if given["fill"] not in FILLS:
            raise InvalidInput("fill must be one of fill, dot, line, ring")
        values["fill"] = given["fill"]
    if given["stroke"]:
        if given["stroke"].lower() not in TRUE + FALSE:
            raise InvalidInput("stroke must be 0, 1, true or false")
        values["stroke"] = given["stroke"].lower() in TRUE
    if given["color"]:
        if not COLOR.fullmatch(given["color"]):
            raise InvalidInput("color must be #RRGGBB")
        values["color"] = given["color"].upper()
    for name in (*POSITIVE, "line_angle"):
        if not given[name]:
            continue
        try:
            number = float(given[name])
        except ValueError:
            number = math.nan
        if name == "line_angle" and not math.isfinite(number):
            raise InvalidInput("line_angle must be a number")
        if name != "line_angle" and not (math.isfinite(number) and number > 0):
            raise InvalidInput(f"{name} must be a positive number")
        if name != "line_angle" and number > LENGTH_MAX:
            raise InvalidInput(f"{name} must be at most {LENGTH_MAX:g}")
        if name in PITCHES and number < PITCH_MIN:
            raise InvalidInput(DENSE)
        if name == "line_angle" and abs(number) > 360:
            raise InvalidInput("line_angle must be from -360 to 360")
        values[name] = number
    return CustomSvgOptions(**values)


def drawn_font_path(job: JobView, meta: dict) -> Path | None:
    """The font the job was drawn with (None: the bundled default): its uploaded file, its
    font id's file, or, for a folder without a record, the file `meta` names in the job's
    input folder. 409 when that font is gone."""
    if job.record is not None:
        try:
            return job_font_path(job.record)
        except FontGone:
            raise Conflict(FONT_MISSING) from None
    if meta.get("font") in (None, Path(engine.default_font_path()).name):
        return None
    path = job_input_folder(job.job_id) / meta["font"]
    if not path.is_file():
        raise Conflict(FONT_MISSING)
    return path


def estimated_primitives(rows: list[dict], options: CustomSvgOptions) -> int:
    """An upper estimate of the shapes the pattern draws, from the word boxes alone (before
    any geometry): grid points in each box for dots and rings; for lines, the strips
    crossing each box times its characters (a strip is cut once per glyph it crosses)."""
    bounds = np.array(
        [
            [r["box_x"], r["box_y"], r["box_x"] + r["box_width"], r["box_y"] + r["box_height"]]
            for r in rows
        ],
        dtype=float,
    ).reshape(-1, 4)
    count = len(rows) * (1 + options.stroke)
    if options.fill == "dot":
        count += int(grid_counts(bounds, options.spacing).sum())
    elif options.fill == "ring":
        count += int(grid_counts(bounds, options.ring_spacing).sum())
    elif options.fill == "line" and options.line_width < options.line_spacing:
        characters = np.array([max(1, len("".join(r["name"].split()))) for r in rows])
        count += int((_strips_across(bounds, options) * characters).sum())
    return count


def _strips_across(bounds: np.ndarray, options: CustomSvgOptions) -> np.ndarray:
    """How many strips of the line fill cross each box (its extent across the lines)."""
    theta = math.radians(options.line_angle)
    extent = np.abs(math.sin(theta)) * (bounds[:, 2] - bounds[:, 0]) + np.abs(math.cos(theta)) * (
        bounds[:, 3] - bounds[:, 1]
    )
    return np.floor((extent + options.line_width) / options.line_spacing) + 1


def custom_svg_render(*, job_id: str, options: CustomSvgOptions) -> str:
    """The SVG document: one `<g id="w<ID>">` per placement, in id order. The job and its font
    are looked up here; the drawing runs in a forked child with the heavy-work limits."""
    job = job_get(job_id)
    db_path = artifact_path(job_id, "db")
    with positions_db(db_path) as connection:
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    font_path = drawn_font_path(job, meta)
    return run_heavy("custom.svg", _drawn, db_path, font_path, options)


def _drawn(db_path: Path, font_path: Path | None, options: CustomSvgOptions) -> str:
    with positions_db(db_path) as connection:
        width, height = canvas_size(connection)
        rows = [
            dict(row)
            for row in connection.execute(
                "SELECT id, name, box_x, box_y, box_width, box_height FROM words ORDER BY id"
            )
        ]
    if estimated_primitives(rows, options) > MAX_PRIMITIVES:
        raise InvalidInput(DENSE)
    ids, outlines = [], []
    try:
        for row, path_d in engine.placement_outlines(db_path, font_path):
            ids.append(row["id"])
            outlines.append(path_d)
    except engine.InputError as error:  # the font file no longer reads as a font
        raise Unprocessable(str(error)) from error
    groups = _pattern_elements(outlines, options)
    paint = f'fill="none" stroke="{options.color}" stroke-width="{_number(options.line_width)}"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(width)}" '
        f'height="{_number(height)}" viewBox="0 0 {_number(width)} {_number(height)}">'
    ]
    for index, (word_id, path_d) in enumerate(zip(ids, outlines)):
        body = groups.get(index, "")
        if options.stroke and path_d:
            body += f'<path d="{path_d}" {paint}/>'
        if body:
            parts.append(f'<g id="w{word_id}">{body}</g>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def _pattern_elements(outlines: list[str], options: CustomSvgOptions) -> dict[int, str]:
    """The fill of each word as SVG elements, by the word's index in `outlines`."""
    color = options.color
    if options.fill == "fill":
        return {i: f'<path d="{d}" fill="{color}"/>' for i, d in enumerate(outlines) if d}
    shapes = glyph_shapes(outlines)
    if options.fill == "line":
        strips, owner = line_fill(
            shapes, pitch=options.line_spacing, width=options.line_width, angle=options.line_angle
        )
        return _grouped(owner, _path_elements(strips, f'fill="{color}"'))
    dots = options.fill == "dot"
    pitch = options.spacing if dots else options.ring_spacing
    word, x, y = grid_centres(shapes, pitch)
    if dots:
        outer, inner = options.radius, 0.0
        circle = f'r="{_number(options.radius)}" fill="{color}"'
    else:
        outer = options.ring_radius + options.ring_width / 2
        inner = max(0.0, options.ring_radius - options.ring_width / 2)
        circle = (
            f'r="{_number(options.ring_radius)}" fill="none" stroke="{color}" '
            f'stroke-width="{_number(options.ring_width)}"'
        )
    whole, cut, cut_point = round_marks(shapes, word, x, y, outer=outer, inner=inner)
    elements = [
        f'<circle cx="{_number(a)}" cy="{_number(b)}" {circle}/>'
        for a, b in zip(x[whole].tolist(), y[whole].tolist())
    ]
    owners = np.concatenate((word[whole], word[cut_point]))
    return _grouped(owners, elements + _path_elements(cut, f'fill="{color}"'))


def _grouped(owner: np.ndarray, elements: list[str]) -> dict[int, str]:
    grouped: dict[int, list[str]] = {}
    for index, element in zip(owner.tolist(), elements):
        grouped.setdefault(index, []).append(element)
    return {index: "".join(items) for index, items in grouped.items()}


def _path_elements(polygons: np.ndarray, paint: str) -> list[str]:
    """One `<path>` per polygon, its rings as closed subpaths (holes drawn even-odd)."""
    rings, ring_polygon = shapely.get_rings(polygons, return_index=True)
    coordinates, ring_of = shapely.get_coordinates(rings, return_index=True)
    text = [f"{x:.2f} {y:.2f}" for x, y in coordinates.tolist()]
    ring_text = [""] * len(rings)
    first = np.searchsorted(ring_of, np.arange(len(rings)))
    ends = np.append(first[1:], len(ring_of))
    for ring, (start, end) in enumerate(zip(first.tolist(), ends.tolist())):
        # The last point repeats the first: "Z" closes the ring instead.
        ring_text[ring] = "M" + text[start] + "L" + "L".join(text[start + 1 : end - 1]) + "Z"
    paths = [""] * len(polygons)
    for ring, polygon in enumerate(ring_polygon.tolist()):
        paths[polygon] += ring_text[ring]
    return [f'<path d="{d}" fill-rule="evenodd" {paint}/>' for d in paths]


def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text
