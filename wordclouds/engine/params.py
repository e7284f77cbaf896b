"""The ``params`` object of a job: one table of every key (type, range, default, meaning) that
both the validation here and the API's OpenAPI schema read.

Every numeric key has a finite range, so the work of a job stays bounded whatever is sent.
"""

import math
import re
from dataclasses import dataclass, field

from .errors import InputError

MAX_CANVAS_SIDE = 10_000
MAX_CANVAS_PIXELS = 50_000_000
DEFAULT_CANVAS = 2000
MAX_SEED = 2**63 - 1  # fits a signed 64-bit integer; the random generators take it as is
DEFAULT_PALETTE = (
    "#1F4E79",
    "#C0392B",
    "#D68910",
    "#1E8449",
    "#7D3C98",
    "#2874A6",
    "#B03A2E",
    "#117864",
    "#AF601A",
    "#5B2C6F",
)
MAX_PALETTE = 256
COLOR_PATTERN = re.compile(r"#[0-9A-Fa-f]{6}")
LOCALES = ("zh-Hans", "zh-Hant", "ja", "ko")
SHOWN_KEY_CHARS = 40  # a detail text never echoes more of an unknown key than this
MAX_KEEP_OUT = 20  # keep-out shapes of a job or a revision


@dataclass(frozen=True)
class Key:
    """One ``params`` key. ``kind`` is integer, number, boolean, choice, color, palette or
    background; numbers lie in ``low``..``high`` (above ``low`` when ``above_low``). Its
    default is the field ``attribute`` of :class:`Params`; ``absent`` says in words what an
    absent key means when that is not one value."""

    name: str
    attribute: str
    kind: str
    description: str
    low: float | None = None
    high: float | None = None
    above_low: bool = False
    choices: tuple[str, ...] = ()
    absent: str = ""

    @property
    def default(self):
        return Params.__dataclass_fields__[self.attribute].default

    @property
    def wording(self) -> str:
        """What a valid value is, as the 400 detail text says it."""
        if self.kind in ("integer", "number"):
            article = "an integer" if self.kind == "integer" else "a number"
            if self.high == MAX_SEED:
                return f"{article} from {self.low} to 2^63-1"
            if self.above_low:
                return f"{article} above {self.low} and at most {self.high}"
            return f"{article} from {self.low} to {self.high}"
        if self.kind == "choice":
            return f"{', '.join(self.choices[:-1])} or {self.choices[-1]}"
        return {
            "boolean": "true or false",
            "color": "#RRGGBB",
            "palette": f"an array of 1 to {MAX_PALETTE} #RRGGBB colours",
            "background": "#RRGGBB or transparent",
            "shapes": f"an array of at most {MAX_KEEP_OUT} shapes "
            '{"shape": "rect" or "ellipse", "x", "y", "width", "height"} in canvas px',
        }[self.kind]

    def parse(self, value):
        """The value as :class:`Params` keeps it; raises :class:`InputError` when invalid."""
        parsed = _PARSERS[self.kind](self, value)
        if parsed is None:
            raise InputError(f"params.{self.name} must be {self.wording}")
        return parsed

    def schema(self) -> dict:
        """This key as an OpenAPI 3.0 schema object."""
        schema = dict(_SCHEMAS[self.kind])
        if self.kind in ("integer", "number"):
            schema.update(minimum=self.low, maximum=self.high)
            if self.above_low:
                schema["exclusiveMinimum"] = True
        if self.kind == "choice":
            schema["enum"] = list(self.choices)
        if self.default is not None:
            schema["default"] = list(self.default) if self.kind == "palette" else self.default
        absent = f" Default: {self.absent}." if self.default is None and self.absent else ""
        schema["description"] = self.description + absent
        return schema

    def row(self) -> dict[str, str]:
        """This key's row in docs/api.md's table."""
        default = self.default
        if self.absent:
            shown = self.absent
        elif isinstance(default, bool):
            shown = str(default).lower()
        elif isinstance(default, str):
            shown = f"`{default}`"
        else:
            shown = f"{default:g}"
        accepted = self.wording
        if self.kind == "choice":
            accepted = " or ".join(
                [", ".join(f"`{c}`" for c in self.choices[:-1]), f"`{self.choices[-1]}`"]
            )
        return {
            "key": self.name,
            "accepted": accepted,
            "default": shown,
            "meaning": self.description,
        }


def _in_range(key: Key, value) -> bool:
    # Compared before any float conversion: a huge JSON integer must not overflow.
    if key.above_low and value <= key.low or value < key.low or value > key.high:
        return False
    return not isinstance(value, float) or math.isfinite(value)


def _parse_integer(key, value):
    if isinstance(value, int) and not isinstance(value, bool) and _in_range(key, value):
        return value
    return None


def _parse_number(key, value):
    if isinstance(value, (int, float)) and not isinstance(value, bool) and _in_range(key, value):
        return float(value)
    return None


def _parse_color(key, value):
    if isinstance(value, str) and COLOR_PATTERN.fullmatch(value):
        return value.upper()
    return None


_PARSERS = {
    "integer": _parse_integer,
    "number": _parse_number,
    "boolean": lambda key, value: value if isinstance(value, bool) else None,
    "choice": lambda key, value: value if value in key.choices else None,
    "color": _parse_color,
    "palette": lambda key, value: (
        tuple(c.upper() for c in value)
        if isinstance(value, list)
        and 0 < len(value) <= MAX_PALETTE
        and all(_parse_color(key, c) for c in value)
        else None
    ),
    "background": lambda key, value: (
        value if value == "transparent" else _parse_color(key, value)
    ),
    "shapes": lambda key, value: _parse_shapes(key, value),
}


def finite_number(value, where: str) -> float:
    """``value`` as a float; raises :class:`InputError` naming ``where`` unless it is a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{where} must be a number")
    return float(value)


def parse_shape(value, where: str) -> dict:
    """A keep-out shape ``{"shape": "rect"|"ellipse", "x", "y", "width", "height"}`` (a box in
    canvas px, x, y its top-left); raises :class:`InputError` naming ``where``."""
    fields = ("shape", "x", "y", "width", "height")
    if not isinstance(value, dict) or set(value) != set(fields):
        raise InputError(f"{where} must be an object with {', '.join(fields)}")
    if value["shape"] not in ("rect", "ellipse"):
        raise InputError(f"{where}.shape must be rect or ellipse")
    shape = {"shape": value["shape"]}
    for name in fields[1:]:
        shape[name] = finite_number(value[name], f"{where}.{name}")
    if shape["width"] <= 0 or shape["height"] <= 0:
        raise InputError(f"{where} must have a width and a height above 0")
    return shape


def check_shapes(shapes, where: str, width: int, height: int) -> None:
    """Raise :class:`InputError` when a shape does not lie wholly on the canvas."""
    for k, shape in enumerate(shapes):
        x, y = shape["x"], shape["y"]
        if x < 0 or y < 0 or x + shape["width"] > width or y + shape["height"] > height:
            raise InputError(f"{where}[{k}] lies outside the canvas ({width}×{height} px)")


def _parse_shapes(key, value):
    if not isinstance(value, list) or len(value) > MAX_KEEP_OUT:
        return None
    return tuple(parse_shape(shape, f"params.{key.name}[{k}]") for k, shape in enumerate(value))


_COLOR_SCHEMA = {"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"}
_SCHEMAS = {
    "integer": {"type": "integer", "format": "int64"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "choice": {"type": "string"},
    "color": _COLOR_SCHEMA,
    "palette": {"type": "array", "items": _COLOR_SCHEMA, "minItems": 1, "maxItems": MAX_PALETTE},
    "background": {"type": "string", "pattern": "^(#[0-9A-Fa-f]{6}|transparent)$"},
    "shapes": {
        "type": "array",
        "maxItems": MAX_KEEP_OUT,
        "items": {
            "type": "object",
            "required": ["shape", "x", "y", "width", "height"],
            "additionalProperties": False,
            "properties": {
                "shape": {"type": "string", "enum": ["rect", "ellipse"]},
                **{name: {"type": "number", "minimum": 0} for name in ("x", "y")},
                **{
                    name: {"type": "number", "minimum": 0, "exclusiveMinimum": True}
                    for name in ("width", "height")
                },
            },
        },
    },
}

_SIDE = (
    f"Canvas {{}} in px. In IMAGE mode a side not given follows the mask's aspect, and a "
    f"canvas made from the mask is scaled down (keeping its aspect) to {MAX_CANVAS_SIDE} px a "
    f"side and {MAX_CANVAS_PIXELS:,} pixels. WIDTH×HEIGHT at most {MAX_CANVAS_PIXELS:,}."
)
_CANVAS = f"{DEFAULT_CANVAS}; in IMAGE mode the mask's own size"
_FONT = "{} font size in px, at most the canvas's smaller side."
_FONT_CHOSEN = "chosen from the canvas and the number of names"
_COLUMNS = 16_383  # the last column of a worksheet, 0-based
KEYS = (
    Key(
        "MODE",
        "mode",
        "choice",
        "RECT fills the WIDTH×HEIGHT rectangle; IMAGE fills the shape of mask_image.",
        choices=("RECT", "IMAGE"),
    ),
    Key("WIDTH", "width", "integer", _SIDE.format("width"), 64, MAX_CANVAS_SIDE, absent=_CANVAS),
    Key("HEIGHT", "height", "integer", _SIDE.format("height"), 64, MAX_CANVAS_SIDE, absent=_CANVAS),
    Key(
        "DATA_COL_INDEX",
        "data_col_index",
        "integer",
        "0-based column of the names in the first worksheet.",
        0,
        _COLUMNS,
    ),
    Key("SKIP_ROWS", "skip_rows", "integer", "Header rows to skip.", 0, 1_048_576),
    Key(
        "WEIGHT_COL_INDEX",
        "weight_col_index",
        "integer",
        "0-based column of each name's weight, a number of at least 0 (an empty cell is 1), "
        "not DATA_COL_INDEX; heavier names are placed first and drawn larger, and equal names "
        "are one name with their weights added (docs/engine.md, Weights).",
        0,
        _COLUMNS,
        absent="none: every name weight 1, duplicates repeated",
    ),
    Key(
        "RELATIVE_SCALING",
        "relative_scaling",
        "number",
        "How much font size follows weight: 0 by rank only, 1 in proportion to the weight.",
        0,
        1,
    ),
    Key(
        "LOCALE",
        "locale",
        "choice",
        "The glyph forms of Han characters (the face of a CJK collection and the OpenType "
        "language): Simplified or Traditional Chinese, Japanese or Korean. A name with kana is "
        "drawn Japanese and one with Hangul Korean, whatever the locale (docs/engine.md, "
        "Glyph forms by language).",
        choices=LOCALES,
    ),
    Key(
        "SEED",
        "seed",
        "integer",
        "Same inputs and SEED give the same layout.",
        0,
        MAX_SEED,
        absent="random, recorded in the metrics",
    ),
    Key(
        "N_REPETITIONS",
        "n_repetitions",
        "integer",
        "Each name appears up to this many times; repeats fill leftover space, smaller.",
        1,
        50,
    ),
    Key(
        "FONT_COLOR",
        "font_color",
        "color",
        "One colour for every word.",
        absent="none: PALETTE is used",
    ),
    Key(
        "PALETTE",
        "palette",
        "palette",
        "Word colours when FONT_COLOR is absent.",
        absent="ten built-in colours",
    ),
    Key(
        "COLOR_FROM_MASK",
        "color_from_mask",
        "boolean",
        "Take each word's colour from the mask image under it.",
    ),
    Key(
        "BACKGROUND_COLOR",
        "background_color",
        "background",
        "Background colour; transparent leaves the PNG's background transparent (RGBA).",
    ),
    Key(
        "MIN_FONT_SIZE",
        "min_font_size",
        "number",
        _FONT.format("Smallest"),
        1,
        MAX_CANVAS_SIDE,
        absent=_FONT_CHOSEN,
    ),
    Key(
        "MAX_FONT_SIZE",
        "max_font_size",
        "number",
        _FONT.format("Largest") + " At least MIN_FONT_SIZE.",
        1,
        MAX_CANVAS_SIDE,
        absent=_FONT_CHOSEN,
    ),
    Key("PREFER_HORIZONTAL", "prefer_horizontal", "number", "Share of horizontal words.", 0, 1),
    Key(
        "VERTICAL_STYLE",
        "vertical_style",
        "choice",
        "Vertical words rotated 90° (rotate) or upright stacked characters (stack); auto "
        "stacks CJK names and rotates the rest.",
        choices=("rotate", "stack", "auto"),
    ),
    Key("MARGIN", "margin", "number", "Least gap between words, in px.", 0, 100),
    Key(
        "NAME_GAP",
        "name_gap",
        "number",
        "Least gap between two words side by side along their reading direction (neighbours "
        "on a shared line, or along a column for vertical words), in em of the smaller word; "
        "such neighbours also never share a colour. MARGIN stays the least gap elsewhere "
        "(docs/engine.md, The name gap).",
        0,
        2,
    ),
    Key(
        "STROKE_WIDTH",
        "stroke_width",
        "number",
        "Outline width in px in the svg_stroke artifact.",
        0,
        100,
        above_low=True,
    ),
    Key(
        "ENABLE_STROKE_WEIGHTS",
        "enable_stroke_weights",
        "boolean",
        "Outline width in svg_stroke scales with each word's font size (STROKE_WIDTH at the "
        "median size) instead of one width.",
    ),
    Key(
        "PRINT_WIDTH_MM",
        "print_width_mm",
        "number",
        "The printed width in mm: with it (or PRINT_HEIGHT_MM) no name is smaller than "
        "MIN_NAME_PT at that size. Both given: the poster fits inside them.",
        10,
        10000,
        absent="none: no printed size",
    ),
    Key(
        "PRINT_HEIGHT_MM",
        "print_height_mm",
        "number",
        "The printed height in mm (the width follows the canvas's aspect when not given).",
        10,
        10000,
        absent="none: no printed size",
    ),
    Key(
        "MIN_NAME_PT",
        "min_name_pt",
        "number",
        "The smallest name at the printed size, pt (1 pt = 1/72 inch); overrides a smaller "
        "MIN_FONT_SIZE. Printers ask for 6.",
        1,
        72,
    ),
    Key(
        "KEEP_OUT",
        "keep_out",
        "shapes",
        "Areas no word may enter (a logo's place): rect or ellipse boxes in canvas px, x, y "
        "their top-left, wholly on the canvas.",
        absent="none",
    ),
    Key(
        "MASK_THRESHOLD",
        "mask_threshold",
        "integer",
        "A mask pixel is inside the shape when opaque (alpha at least 128) and its luminance "
        "is below this.",
        0,
        255,
    ),
)
_BY_NAME = {key.name: key for key in KEYS}


@dataclass(frozen=True)
class Params:
    """The validated job configuration; ``None`` means the engine chooses."""

    mode: str = "RECT"
    width: int | None = None
    height: int | None = None
    data_col_index: int = 0
    skip_rows: int = 1
    weight_col_index: int | None = None
    relative_scaling: float = 0.5
    locale: str = "zh-Hans"
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
    name_gap: float = 0.3
    stroke_width: float = 1.0
    enable_stroke_weights: bool = False
    mask_threshold: int = 240
    keep_out: tuple = ()
    print_width_mm: float | None = None
    print_height_mm: float | None = None
    min_name_pt: float = 6.0
    raw: dict = field(default_factory=dict, compare=False)

    @property
    def transparent(self) -> bool:
        """Whether the background is left transparent."""
        return self.background_color == "transparent"


def parse_params(raw: dict) -> Params:
    """Validate a ``params`` object and return it as :class:`Params`.

    Raises :class:`InputError` with the 400 detail text on the first unknown key or bad value,
    checking keys in the order they were sent. Font sizes are checked against the canvas here
    when the canvas is known without the mask, else by :func:`check_canvas` once it is.
    """
    if not isinstance(raw, dict):
        raise InputError("params must be JSON object")
    values = {}
    for name, value in raw.items():
        key = _BY_NAME.get(name)
        if key is None:
            shown = name if len(name) <= SHOWN_KEY_CHARS else name[:SHOWN_KEY_CHARS] + "…"
            raise InputError(f"unknown params key: {shown}")
        values[key.attribute] = key.parse(value)
    width, height = values.get("width"), values.get("height")
    if width and height and width * height > MAX_CANVAS_PIXELS:
        raise InputError(
            f"params.HEIGHT must be such that WIDTH×HEIGHT is at most {MAX_CANVAS_PIXELS:,}"
        )
    params = Params(**values, raw=dict(raw))
    if params.weight_col_index is not None and params.weight_col_index == params.data_col_index:
        raise InputError("params.WEIGHT_COL_INDEX must differ from DATA_COL_INDEX")
    low, high = params.min_font_size, params.max_font_size
    if low is not None and high is not None and high < low:
        raise InputError("params.MAX_FONT_SIZE must be at least MIN_FONT_SIZE")
    if params.mode == "RECT" or (width and height):
        check_canvas(params, width or DEFAULT_CANVAS, height or DEFAULT_CANVAS)
    return params


def check_canvas(params: Params, width: int, height: int) -> None:
    """Raise :class:`InputError` when a font size exceeds the canvas's smaller side."""
    side = min(width, height)
    for name, size in (
        ("MIN_FONT_SIZE", params.min_font_size),
        ("MAX_FONT_SIZE", params.max_font_size),
    ):
        if size is not None and size > side:
            raise InputError(f"params.{name} must be at most the canvas's smaller side ({side} px)")


def fit_canvas(width: float, height: float) -> tuple[int, int]:
    """A canvas derived from a mask's size, scaled down (keeping its aspect) to at most
    MAX_CANVAS_SIDE a side and MAX_CANVAS_PIXELS in all."""
    scale = min(
        1.0,
        MAX_CANVAS_SIDE / width,
        MAX_CANVAS_SIDE / height,
        math.sqrt(MAX_CANVAS_PIXELS / (width * height)),
    )
    rounded = max(1, round(width * scale)), max(1, round(height * scale))
    if rounded[0] * rounded[1] <= MAX_CANVAS_PIXELS and max(rounded) <= MAX_CANVAS_SIDE:
        return rounded
    return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


def params_rows() -> list[dict[str, str]]:
    """docs/api.md's table of the keys, one row each (written by `manage.py docs_tables`)."""
    return [key.row() for key in KEYS]


def params_schema() -> dict:
    """The ``params`` object as an OpenAPI 3.0 schema, read from :data:`KEYS`."""
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {key.name: key.schema() for key in KEYS},
        "description": "The job's configuration; every key is optional.",
    }
