"""POST /api/jobs/<id>/analyze-line-spacing: the options read from the request, and the
figures of the job's SVG drawn in a forked child with the heavy-work limits (the geometry is
in wordclouds/drawing/line_spacing.py)."""

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from core.errors import InvalidInput
from core.inputs import Inputs, Number, said_alike
from core.isolated import run_heavy
from wordclouds.drawing.line_spacing import line_spacing_summary, outlines_read
from wordclouds.selectors import artifact_path, job_get


@dataclass(frozen=True)
class LineSpacingOptions:
    percentile: float = 5.0
    sample_step: float = 2.0
    element_width: float | None = None  # mm; None: the SVG's width at 96 dpi
    element_height: float | None = None


_FROM = "{name} must be a number from {low} to {high}"
_MM = "{name} must be a number greater than 0"
# A piece wider than this is no print (it keeps the schema's bound finite).
ELEMENT_MAX_MM = 100_000.0
LINE_SPACING = Inputs(
    LineSpacingOptions,
    (
        Number(
            "percentile",
            "which percentile of the gaps is reported",
            attribute="percentile",
            low=0,
            high=100,
            **said_alike(_FROM),
        ),
        Number(
            "sampleStep",
            "the step along each outline, px",
            attribute="sample_step",
            low=0.25,
            high=100,
            **said_alike(_FROM),
        ),
        *(
            Number(
                name,
                f"millimetres, > 0; absent: the SVG {side} at 96 dpi",
                attribute=f"element_{side}",
                low=0,
                above_low=True,
                high=ELEMENT_MAX_MM,
                not_number=_MM,
                below=_MM,
                above=f"{{name}} must be at most {ELEMENT_MAX_MM:g}",
            )
            for name, side in (("elementWidth", "width"), ("elementHeight", "height"))
        ),
    ),  # fmt: skip
    text=False,
)


def line_spacing_options(body, *, form: bool = False) -> LineSpacingOptions:
    """The options of line_spacing_analyze from the request's JSON body, or its
    form fields (`form`: numbers as text, empty meaning absent), as `LINE_SPACING` declares
    them: every field optional (absent or null: its default); out of bounds or not a number:
    400 naming the field."""
    if not isinstance(body, dict):
        raise InvalidInput("body must be a JSON object", code="body_not_object")
    return LINE_SPACING.parse(body, text=form)


def line_spacing_analyze(*, job_id: str, options: LineSpacingOptions) -> dict:
    """The LineSpacingAnalysisSummary of the job's svg artifact."""
    job_get(job_id)
    return run_heavy(
        "analyze-line-spacing",
        _analyzed,
        artifact_path(job_id, "svg"),
        **dataclasses.asdict(options),
    )


def _analyzed(svg_path: Path, **options) -> dict:
    """Runs in a forked child with the heavy-work limits (core/isolated.py)."""
    return line_spacing_summary(outlines_read(svg_path), **options)
