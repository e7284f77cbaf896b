"""GET /api/jobs/<id>/custom.svg: its options read from the query (declared once in
`CUSTOM_SVG`: the reading, the schema's parameters and docs/lookup.md's table), the job looked
up, and the drawing (wordclouds/drawing/custom_svg.py) run in a forked child with the
heavy-work limits."""

from core.inputs import Boolean, Choice, Inputs, Number, Pattern
from core.isolated import run_heavy
from wordclouds.drawing.custom_svg import DENSE, CustomSvgOptions, custom_svg_drawn
from wordclouds.selectors import artifact_path, job_get

# A pitch below this is too dense on any word (and would overflow the grid counts); lengths
# above this are beyond any canvas.
PITCH_MIN = 0.01
LENGTH_MAX = 10_000.0
POSITIVE = "{name} must be a positive number"


def _length(name: str, description: str, *, pitch: bool = False) -> Number:
    """A length in px: above 0, at most LENGTH_MAX; a grid pitch at least PITCH_MIN."""
    return Number(
        name,
        description,
        low=0,
        high=LENGTH_MAX,
        above_low=True,
        not_number=POSITIVE,
        below=POSITIVE,
        above=f"{{name}} must be at most {LENGTH_MAX:g}",
        least=PITCH_MIN if pitch else None,
        below_least=DENSE if pitch else "",
    )


CUSTOM_SVG = Inputs(
    CustomSvgOptions,
    (
        Choice("fill", "the fill style of every word", choices=("fill", "dot", "line", "ring")),
        Boolean("stroke", "also the glyph outlines, stroked in color, width line_width"),
        Pattern(
            "color",
            "every mark's colour (written upper-case)",
            pattern="#[0-9A-Fa-f]{6}",
            refusal="color must be #RRGGBB",
            meaning="#RRGGBB",
            upper=True,
        ),
        _length("spacing", "dot grid pitch, px (grid anchored at the canvas origin)", pitch=True),
        _length("radius", "dot radius, px"),
        _length("line_spacing", "distance between line centres, px", pitch=True),
        _length("line_width", "line width, px; also the outline stroke width"),
        _length("ring_radius", "ring radius, px"),
        _length("ring_width", "ring line width, px"),
        _length("ring_spacing", "ring grid pitch, px", pitch=True),
        Number("line_angle", "degrees, clockwise from the x axis", low=-360, high=360),
    ),
)


def custom_svg_options(query) -> CustomSvgOptions:
    """Options from query parameters; absent or empty: the default. 400 naming the
    parameter for a bad value."""
    return CUSTOM_SVG.parse(query)


def custom_svg_render(*, job_id: str, options: CustomSvgOptions) -> str:
    """The SVG document: one `<g id="w<ID>">` per placement, in id order, drawn from the job's
    positions.db and wordcloud.svg in a forked child with the heavy-work limits."""
    job_get(job_id)
    db_path, svg_path = artifact_path(job_id, "db"), artifact_path(job_id, "svg")
    return run_heavy("custom.svg", custom_svg_drawn, db_path, svg_path, options)
