"""GET /api/jobs/<id>/custom.svg: its options read from the query, the job looked up, and the
drawing (wordclouds/drawing/custom_svg.py) run in a forked child with the heavy-work limits."""

import math
import re
from collections.abc import Mapping
from dataclasses import fields

from core.errors import InvalidInput
from core.isolated import run_heavy
from wordclouds.drawing.custom_svg import DENSE, CustomSvgOptions, custom_svg_drawn
from wordclouds.selectors import artifact_path, canvas_size, job_get, positions_db

FILLS = ("fill", "dot", "line", "ring")
COLOR = re.compile(r"#[0-9A-Fa-f]{6}")
TRUE, FALSE = ("1", "true"), ("0", "false")
WORDS = "SELECT id, name, box_x, box_y, box_width, box_height FROM words ORDER BY id"
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


def custom_svg_render(*, job_id: str, options: CustomSvgOptions) -> str:
    """The SVG document: one `<g id="w<ID>">` per placement, in id order, drawn from the job's
    positions.db and wordcloud.svg in a forked child with the heavy-work limits. The words
    are read here: a forked child must not open SQLite, whose allocator mutex another thread
    of this process may have held at the fork (core/isolated.py)."""
    job_get(job_id)
    db_path, svg_path = artifact_path(job_id, "db"), artifact_path(job_id, "svg")
    with positions_db(db_path) as connection:
        canvas = canvas_size(connection)
        rows = [dict(row) for row in connection.execute(WORDS)]
    return run_heavy("custom.svg", custom_svg_drawn, canvas, rows, svg_path, options)
