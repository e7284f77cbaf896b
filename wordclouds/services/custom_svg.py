"""GET /api/jobs/<id>/custom.svg: its options read from the query (declared once in
`CUSTOM_SVG`: the reading, the schema's parameters and docs/lookup.md's table), the job looked
up, its words read from positions.db (here: a forked child must not open SQLite), and in a
forked child with the heavy-work limits their outlines read from wordcloud.svg and drawn
(wordclouds/drawing/custom_svg.py), on two cores when they are many."""

from contextlib import contextmanager
from functools import partial
from pathlib import Path

import numpy as np
import shapely

from core.errors import InvalidInput
from core.inputs import Boolean, Choice, Color, Inputs, Number
from core.isolated import in_two_processes, run_heavy
from wordclouds.drawing.custom_svg import (
    DENSE,
    MAX_PRIMITIVES,
    CustomSvgOptions,
    custom_svg_document,
    estimated_primitives,
    pattern_elements,
)
from wordclouds.engine import svg_outlines
from wordclouds.engine.positions import read_words
from wordclouds.selectors import artifact_path, canvas_size, job_get

# A pitch below this is too dense on any word (and would overflow the grid counts); lengths
# above this are beyond any canvas.
PITCH_MIN = 0.01
LENGTH_MAX = 10_000.0
# What the drawing reads of each word: its outline's id in wordcloud.svg, and its box.
WORD_COLUMNS = ("id", "name", "box_x", "box_y", "box_width", "box_height")
SPLIT_MIN_BYTES = 1_000_000  # less path data is drawn in one process: a fork costs more
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
        Color("color", "every mark's colour (written upper-case)"),
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
    positions.db and wordcloud.svg in a forked child with the heavy-work limits. The words
    are read here: a forked child must not open SQLite, whose allocator mutex another thread
    of this process may have held at the fork (core/isolated.py)."""
    job_get(job_id)
    db_path, svg_path = artifact_path(job_id, "db"), artifact_path(job_id, "svg")
    canvas, rows = canvas_size(db_path), read_words(db_path, WORD_COLUMNS)
    # Before a heavy-work slot is waited for: a pattern too dense is a 400 at once.
    if estimated_primitives(rows, options) > MAX_PRIMITIVES:
        raise InvalidInput(DENSE, code="pattern_too_dense")
    return run_heavy("custom.svg", _custom_svg_drawn, canvas, rows, svg_path, options)


def _custom_svg_drawn(
    canvas: tuple[float, float], rows: list[dict], svg_path: Path, options: CustomSvgOptions
) -> str:
    """The document of the words `rows` (positions.db's id, name and box of each, in id
    order) on a canvas of (width, height), their outlines read from `svg_path` (the job's
    wordcloud.svg); the caller checked the pattern draws at most MAX_PRIMITIVES shapes."""
    width, height = canvas
    ids = [row["id"] for row in rows]
    drawn = svg_outlines(svg_path.read_text(encoding="utf-8"))
    outlines = [drawn[word_id] for word_id in ids]
    with _geos_out_of_memory_as_memory_error():
        fills = _pattern_elements_on_two_cores(outlines, options)
    return custom_svg_document(width, height, ids, outlines, fills, options)


def _pattern_elements_on_two_cores(
    outlines: list[str], options: CustomSvgOptions
) -> dict[int, str]:
    """`pattern_elements`, the words split in two halves of about equal path data drawn at
    the same time (core.isolated.in_two_processes): words are independent, and on a quiet
    server the request's child is alone on the machine's two cores."""
    sizes = np.cumsum([len(d) for d in outlines])
    if options.fill == "fill" or not len(sizes) or sizes[-1] < SPLIT_MIN_BYTES:
        return pattern_elements(outlines, options)
    half = int(np.searchsorted(sizes, sizes[-1] / 2)) + 1
    first, second = in_two_processes(
        partial(pattern_elements, options=options), outlines[:half], outlines[half:]
    )
    return first | {half + index: body for index, body in second.items()}


@contextmanager
def _geos_out_of_memory_as_memory_error():
    """GEOS out of memory raises GEOSException `std::bad_alloc`; as MemoryError it is
    answered like Python's (422, core/isolated.py), not as a bug (500)."""
    try:
        yield
    except shapely.errors.GEOSException as error:
        if "bad_alloc" in str(error):
            raise MemoryError(str(error)) from error
        raise
