"""POST /api/jobs/<id>/analyze-line-spacing: the options read from the request, and the
figures of the job's SVG drawn in a forked child with the heavy-work limits (the geometry is
in wordclouds/drawing/line_spacing.py)."""

import math
from pathlib import Path

from core.errors import InvalidInput
from core.isolated import run_heavy
from wordclouds.drawing.line_spacing import line_spacing_summary, outlines_read
from wordclouds.selectors import artifact_path, job_get


def line_spacing_options(body, *, form: bool = False) -> dict:
    """The keyword arguments of line_spacing_analyze from the request's JSON body, or its
    form fields (`form`: numbers as text, empty meaning absent). Every field is optional
    (absent or null: its default); out of bounds or not a number: 400 naming the field."""
    if not isinstance(body, dict):
        raise InvalidInput("body must be a JSON object", code="body_not_object")
    bounds = {  # field: (keyword, low, high, low is allowed)
        "percentile": ("percentile", 0, 100, True),
        "sampleStep": ("sample_step", 0.25, 100, True),
        "elementWidth": ("element_width", 0, math.inf, False),
        "elementHeight": ("element_height", 0, math.inf, False),
    }
    options = {}
    for field, (keyword, low, high, low_allowed) in bounds.items():
        value = body.get(field)
        if form and isinstance(value, str):
            value = _form_number(value)
        if value is None:
            continue
        number = (
            value if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
        )
        if not (low <= number <= high and math.isfinite(number)) or (
            number == low and not low_allowed
        ):
            if math.isinf(high):
                raise InvalidInput(
                    f"{field} must be a number greater than 0", code="option_invalid"
                )
            raise InvalidInput(
                f"{field} must be a number from {low} to {high}", code="option_invalid"
            )
        options[keyword] = float(number)
    return options


def _form_number(text: str) -> float | None:
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        return math.nan


def line_spacing_analyze(
    *,
    job_id: str,
    percentile: float = 5,
    sample_step: float = 2,
    element_width: float | None = None,
    element_height: float | None = None,
) -> dict:
    """The LineSpacingAnalysisSummary of the job's svg artifact."""
    job_get(job_id)
    return run_heavy(
        "analyze-line-spacing",
        _analyzed,
        artifact_path(job_id, "svg"),
        percentile=percentile,
        sample_step=sample_step,
        element_width=element_width,
        element_height=element_height,
    )


def _analyzed(svg_path: Path, **options) -> dict:
    """Runs in a forked child with the heavy-work limits (core/isolated.py)."""
    return line_spacing_summary(outlines_read(svg_path), **options)
