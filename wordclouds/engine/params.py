"""Validation of the ``params`` object of a job (see decisions.md, Job creation)."""

import math
import re
from dataclasses import dataclass, field

from .errors import InputError

MAX_CANVAS_PIXELS = 50_000_000
DEFAULT_CANVAS = 2000
DEFAULT_PALETTE = (
    "#1F4E79", "#C0392B", "#D68910", "#1E8449", "#7D3C98",
    "#2874A6", "#B03A2E", "#117864", "#AF601A", "#5B2C6F",
)
COLOR_PATTERN = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True)
class Params:
    """The validated job configuration; ``None`` means the engine chooses."""

    mode: str = "RECT"
    width: int | None = None
    height: int | None = None
    data_col_index: int = 0
    skip_rows: int = 1
    seed: int | None = None
    n_repetitions: int = 1
    font_color: str | None = None
    palette: tuple[str, ...] = DEFAULT_PALETTE
    color_from_mask: bool = False
    background_color: str = "#FFFFFF"
    min_font_size: float | None = None
    max_font_size: float | None = None
    prefer_horizontal: float = 0.9
    vertical_style: str = "auto"
    margin: float = 2.0
    stroke_width: float = 1.0
    enable_stroke_weights: bool = False
    mask_threshold: int = 240
    raw: dict = field(default_factory=dict, compare=False)

    @property
    def transparent(self) -> bool:
        """Whether the background is left transparent."""
        return self.background_color == "transparent"


def _integer(key, value, low=None, high=None, wording=None):
    ok = isinstance(value, int) and not isinstance(value, bool)
    if ok and ((low is not None and value < low) or (high is not None and value > high)):
        ok = False
    if not ok:
        raise InputError(f"params.{key} must be {wording or 'an integer'}")
    return value


def _number(key, value, wording, *, low=None, high=None, positive=False):
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok and ((low is not None and value < low) or (high is not None and value > high)
               or (positive and value <= 0)):
        ok = False
    if not ok:
        raise InputError(f"params.{key} must be {wording}")
    return float(value)


def _boolean(key, value):
    if not isinstance(value, bool):
        raise InputError(f"params.{key} must be true or false")
    return value


def _color(key, value):
    if not isinstance(value, str) or not COLOR_PATTERN.fullmatch(value):
        raise InputError(f"params.{key} must be #RRGGBB")
    return value.upper()


def _choice(key, value, choices):
    if value not in choices:
        raise InputError(f"params.{key} must be {', '.join(choices[:-1])} or {choices[-1]}")
    return value


def _palette(value):
    if (not isinstance(value, list) or not value
            or not all(isinstance(c, str) and COLOR_PATTERN.fullmatch(c) for c in value)):
        raise InputError("params.PALETTE must be a non-empty array of #RRGGBB colours")
    return tuple(c.upper() for c in value)


def _background(value):
    if value == "transparent":
        return value
    if not isinstance(value, str) or not COLOR_PATTERN.fullmatch(value):
        raise InputError("params.BACKGROUND_COLOR must be #RRGGBB or transparent")
    return value.upper()


_CANVAS = "an integer from 64 to 10000"
_VALIDATORS = {
    "MODE": ("mode", lambda v: _choice("MODE", v, ("RECT", "IMAGE"))),
    "WIDTH": ("width", lambda v: _integer("WIDTH", v, 64, 10000, _CANVAS)),
    "HEIGHT": ("height", lambda v: _integer("HEIGHT", v, 64, 10000, _CANVAS)),
    "DATA_COL_INDEX": ("data_col_index",
                       lambda v: _integer("DATA_COL_INDEX", v, 0, None, "an integer >= 0")),
    "SKIP_ROWS": ("skip_rows", lambda v: _integer("SKIP_ROWS", v, 0, None, "an integer >= 0")),
    "SEED": ("seed", lambda v: _integer("SEED", v)),
    "N_REPETITIONS": ("n_repetitions",
                      lambda v: _integer("N_REPETITIONS", v, 1, 50, "an integer from 1 to 50")),
    "FONT_COLOR": ("font_color", lambda v: _color("FONT_COLOR", v)),
    "PALETTE": ("palette", _palette),
    "COLOR_FROM_MASK": ("color_from_mask", lambda v: _boolean("COLOR_FROM_MASK", v)),
    "BACKGROUND_COLOR": ("background_color", _background),
    "MIN_FONT_SIZE": ("min_font_size",
                      lambda v: _number("MIN_FONT_SIZE", v, "a positive number", positive=True)),
    "MAX_FONT_SIZE": ("max_font_size",
                      lambda v: _number("MAX_FONT_SIZE", v, "a positive number", positive=True)),
    "PREFER_HORIZONTAL": ("prefer_horizontal", lambda v: _number(
        "PREFER_HORIZONTAL", v, "a number from 0 to 1", low=0, high=1)),
    "VERTICAL_STYLE": ("vertical_style",
                       lambda v: _choice("VERTICAL_STYLE", v, ("rotate", "stack", "auto"))),
    "MARGIN": ("margin", lambda v: _number("MARGIN", v, "a number >= 0", low=0)),
    "STROKE_WIDTH": ("stroke_width",
                     lambda v: _number("STROKE_WIDTH", v, "a positive number", positive=True)),
    "ENABLE_STROKE_WEIGHTS": ("enable_stroke_weights",
                              lambda v: _boolean("ENABLE_STROKE_WEIGHTS", v)),
    "MASK_THRESHOLD": ("mask_threshold", lambda v: _integer(
        "MASK_THRESHOLD", v, 0, 255, "an integer from 0 to 255")),
}


def parse_params(raw: dict) -> Params:
    """Validate a ``params`` object and return it as :class:`Params`.

    Raises :class:`InputError` with the decisions.md detail text on the first unknown key or
    bad value, checking keys in the order they were sent.
    """
    if not isinstance(raw, dict):
        raise InputError("params must be JSON object")
    values = {}
    for key, value in raw.items():
        if key not in _VALIDATORS:
            raise InputError(f"unknown params key: {key}")
        attribute, validate = _VALIDATORS[key]
        values[attribute] = validate(value)
    width, height = values.get("width"), values.get("height")
    if width and height and width * height > MAX_CANVAS_PIXELS:
        raise InputError("params.HEIGHT must be such that WIDTH×HEIGHT is at most 50,000,000")
    low, high = values.get("min_font_size"), values.get("max_font_size")
    if low is not None and high is not None and high < low:
        raise InputError("params.MAX_FONT_SIZE must be at least MIN_FONT_SIZE")
    return Params(**values, raw=dict(raw))
