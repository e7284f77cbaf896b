"""The ``params`` object of a job: every key declared once (:data:`PARAMS`, in the service's
one language of inputs, core/inputs.py: type, range, default, meaning, the sentence of its
400) that the validation here, the API's OpenAPI schema and docs/api.md's table read.

Every numeric key has a finite range, so the work of a job stays bounded whatever is sent.
"""

import math
from dataclasses import dataclass, field

from core.inputs import (
    Boolean,
    Choice,
    Color,
    Either,
    Inputs,
    Items,
    Keyed,
    Number,
    Object,
    Refused,
    Text,
    said_alike,
)

from .errors import InputError

MAX_CANVAS_SIDE = 10_000
MAX_CANVAS_PIXELS = 50_000_000
DEFAULT_CANVAS = 2000
MAX_SEED = 2**63 - 1  # fits a signed 64-bit integer; the random generators take it as is
# Pairwise at least 23 apart in CIEDE2000 and 15 under deuteranopia (colors.alike), each of
# WCAG contrast 3.2:1 or more on white: no two read as one (docs/engine.md, Colours).
DEFAULT_PALETTE = (
    "#123060",
    "#B40006",
    "#AE8A0C",
    "#0C6C48",
    "#7E1E5A",
    "#1272BA",
    "#F01872",
    "#4E9C9C",
    "#423000",
    "#C666EA",
)
MAX_PALETTE = 256
MAX_MASK_TEXT = 24  # characters of MASK_TEXT, a line break counting as one
LOCALES = ("zh-Hans", "zh-Hant", "ja", "ko")
SHOWN_KEY_CHARS = 40  # a detail text never echoes more of an unknown key than this
MAX_KEEP_OUT = 20  # keep-out shapes of a job or a revision
CODE = "params_invalid"  # the code of every refused key (core/error_codes.py)
ACCEPTED = "{name} must be {accepted}"  # a key's refusal says what a valid value is


def _key(kind, name: str, attribute: str, description: str, *args, **declared):
    """One ``params`` key as a declared input (core/inputs.py): its 400 says what a valid
    value is (``params.WIDTH must be an integer from 64 to 10000``), code params_invalid."""
    if kind in (Number, "integer"):
        low, high = args
        declared = dict(low=low, high=high, **said_alike(ACCEPTED), **declared)
        declared["integer"] = kind == "integer"
        kind = Number
    elif kind is Boolean:
        declared = dict(refusal="{name} must be {accepted}", words="true or false", **declared)
    elif kind is Choice:
        declared = dict(refusal="{name} must be {accepted}", **declared)
    elif kind == "background":
        kind, declared = Color, dict(also=("transparent",), **declared)
    elif kind == "palette":
        colour = Color("colour", "", code=CODE)
        kind = Items
        declared = dict(
            item=colour,
            low=1,
            high=MAX_PALETTE,
            item_words="#RRGGBB colours",
            refusal_items=True,
            **declared,
        )
    elif kind == "shapes":
        kind, declared = Items, dict(item=SHAPE, high=MAX_KEEP_OUT, item_words=SHAPES, **declared)
    return kind(name, description, code=CODE, attribute=attribute, **declared)


def _side(name: str) -> Number:
    """A side of a keep-out box, or of the canvas it lies on, in canvas px."""
    bounded = {**said_alike(ACCEPTED), "not_number": "{name} must be a number"}
    above_low = name in ("width", "height")
    return Number(name, "", code=CODE, low=0, high=MAX_CANVAS_SIDE, above_low=above_low, **bounded)


SHAPE = Object(
    "shape",
    "",
    code=CODE,
    words='{"shape": "rect" or "ellipse", "x", "y", "width", "height"} in canvas px',
    fields=(
        Choice(
            "shape", "", code=CODE, choices=("rect", "ellipse"), refusal="{name} must be {accepted}"
        ),
        *(_side(name) for name in ("x", "y", "width", "height")),
    ),
)
SHAPES = 'shapes {"shape": "rect" or "ellipse", "x", "y", "width", "height"} in canvas px'
MAX_GROUPS = 24  # groups of a list (a letter each at most: MASK_TEXT's 24 characters)
GROUP = Text(
    "group",
    "",
    code=CODE,
    high=100,
    empty="{name} must not be empty",
    meaning="a group's name of 1 to 100 characters",
)
LETTERS = Items(
    "letters",
    "",
    code=CODE,
    item=Number("letter", "", code=CODE, low=0, high=23, integer=True, **said_alike(ACCEPTED)),
    low=1,
    high=24,
    item_words="letter indexes from 0 to 23",
)
# With MASK_TEXT a group's letters, with a mask image one of its flat colours
GROUP_REGION = Either(
    "group region", "", code=CODE, whole=LETTERS, other=Color("colour", "", code=CODE), by=list
)


def check_shapes(shapes, where: str, width: int, height: int) -> None:
    """Raise :class:`InputError` when a shape does not lie wholly on the canvas."""
    for k, shape in enumerate(shapes):
        x, y = shape["x"], shape["y"]
        if x < 0 or y < 0 or x + shape["width"] > width or y + shape["height"] > height:
            raise InputError(f"{where}[{k}] lies outside the canvas ({width}×{height} px)")


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
    _key(
        Choice,
        "MODE",
        "mode",
        "RECT fills the WIDTH×HEIGHT rectangle; IMAGE fills the shape of mask_image; TEXT "
        "fills the letters of MASK_TEXT (a mask_image then only gives colours, as in RECT).",
        choices=("RECT", "IMAGE", "TEXT"),
        absent="TEXT with MASK_TEXT, else RECT",
    ),
    _key(
        Text,
        "MASK_TEXT",
        "mask_text",
        "The text whose letters are the shape (MODE=TEXT): 1 to 24 characters of any script "
        "the mask font draws, lines broken by \\n; the letters' outlines are the shape "
        "exactly, counters included (docs/engine.md, Text as the mask).",
        high=MAX_MASK_TEXT,
        empty="{name} must not be empty",
        meaning="a text of 1 to 24 characters, a line break counting as one",
        absent="none",
    ),
    _key(
        Text,
        "MASK_FONT_ID",
        "mask_font_id",
        "The font MASK_TEXT is drawn in: an uploaded font's id, or __default__ (the bundled "
        "Noto Sans CJK).",
        high=64,
        meaning="a font id",
        absent="the job's font",
    ),
    _key(
        Number,
        "MASK_TEXT_SPACING",
        "mask_text_spacing",
        "Space added between MASK_TEXT's letters, in em of the text.",
        0,
        2,
    ),
    _key("integer", "WIDTH", "width", _SIDE.format("width"), 64, MAX_CANVAS_SIDE, absent=_CANVAS),
    _key(
        "integer", "HEIGHT", "height", _SIDE.format("height"), 64, MAX_CANVAS_SIDE, absent=_CANVAS
    ),
    _key(
        "integer",
        "DATA_COL_INDEX",
        "data_col_index",
        "0-based column of the names in the first worksheet.",
        0,
        _COLUMNS,
    ),
    _key("integer", "SKIP_ROWS", "skip_rows", "Header rows to skip.", 0, 1_048_576),
    _key(
        "integer",
        "WEIGHT_COL_INDEX",
        "weight_col_index",
        "0-based column of each name's weight, a number of at least 0 (an empty cell is 1), "
        "not DATA_COL_INDEX; heavier names are placed first and drawn larger, and equal names "
        "are one name with their weights added (docs/engine.md, Weights).",
        0,
        _COLUMNS,
        absent="none: every name weight 1, duplicates repeated",
    ),
    _key(
        "integer",
        "GROUP_COL_INDEX",
        "group_col_index",
        "0-based column of each name's group (a class, a department), not DATA_COL_INDEX: "
        "each group is placed in its own region of the shape, in one colour (docs/engine.md, "
        "Groups).",
        0,
        _COLUMNS,
        absent="none: no groups",
    ),
    _key(
        Keyed,
        "GROUP_COLORS",
        "group_colors",
        "A group's colour, kept as given; the other groups take palette colours in order.",
        key=GROUP,
        value=Color("colour", "", code=CODE),
        high=MAX_GROUPS,
        entry_words='{group: "#RRGGBB"}',
        absent="none",
    ),
    _key(
        Keyed,
        "GROUP_REGIONS",
        "group_regions",
        "Each group's region: with MASK_TEXT its letters (0-based, in reading order), with a "
        "mask image one of its flat colours; every group given, no letter or colour twice, "
        "none left over (docs/engine.md, Groups).",
        key=GROUP,
        value=GROUP_REGION,
        high=MAX_GROUPS,
        entry_words='{group: [letter indexes]} or {group: "#RRGGBB"}',
        absent="the letters or colours in reading order, groups in spreadsheet order",
    ),
    _key(
        Number,
        "RELATIVE_SCALING",
        "relative_scaling",
        "How much font size follows weight: 0 by rank only, 1 in proportion to the weight.",
        0,
        1,
    ),
    _key(
        Choice,
        "LOCALE",
        "locale",
        "The glyph forms of Han characters (the face of a CJK collection and the OpenType "
        "language): Simplified or Traditional Chinese, Japanese or Korean. A name with kana is "
        "drawn Japanese and one with Hangul Korean, whatever the locale (docs/engine.md, "
        "Glyph forms by language).",
        choices=LOCALES,
    ),
    _key(
        "integer",
        "SEED",
        "seed",
        "Same inputs and SEED give the same layout.",
        0,
        MAX_SEED,
        high_shown="2^63-1",
        absent="random, recorded in the metrics",
    ),
    _key(
        "integer",
        "N_REPETITIONS",
        "n_repetitions",
        "Each name appears up to this many times; repeats fill leftover space, smaller.",
        1,
        50,
    ),
    _key(
        Color,
        "FONT_COLOR",
        "font_color",
        "One colour for every word.",
        absent="none: PALETTE is used",
    ),
    _key(
        "palette",
        "PALETTE",
        "palette",
        "Word colours when FONT_COLOR is absent.",
        absent="ten built-in colours",
    ),
    _key(
        Boolean,
        "COLOR_FROM_MASK",
        "color_from_mask",
        "Take each word's colour from the mask image under it.",
    ),
    _key(
        "background",
        "BACKGROUND_COLOR",
        "background_color",
        "Background colour; transparent leaves the PNG's background transparent (RGBA).",
    ),
    _key(
        Number,
        "MIN_FONT_SIZE",
        "min_font_size",
        _FONT.format("Smallest"),
        1,
        MAX_CANVAS_SIDE,
        absent=_FONT_CHOSEN,
    ),
    _key(
        Number,
        "MAX_FONT_SIZE",
        "max_font_size",
        _FONT.format("Largest") + " At least MIN_FONT_SIZE.",
        1,
        MAX_CANVAS_SIDE,
        absent=_FONT_CHOSEN,
    ),
    _key(Number, "PREFER_HORIZONTAL", "prefer_horizontal", "Share of horizontal words.", 0, 1),
    _key(
        Choice,
        "VERTICAL_STYLE",
        "vertical_style",
        "Vertical words rotated 90° (rotate) or upright stacked characters (stack); auto "
        "stacks CJK names and rotates the rest.",
        choices=("rotate", "stack", "auto"),
    ),
    _key(Number, "MARGIN", "margin", "Least gap between words, in px.", 0, 100),
    _key(
        Number,
        "NAME_GAP",
        "name_gap",
        "Least gap between two words side by side along their reading direction (neighbours "
        "on a shared line, or along a column for vertical words), in em of the smaller word; "
        "such neighbours also never share a colour. MARGIN stays the least gap elsewhere "
        "(docs/engine.md, The name gap).",
        0,
        2,
    ),
    _key(
        Number,
        "STROKE_WIDTH",
        "stroke_width",
        "Outline width in px in the svg_stroke artifact.",
        0,
        100,
        above_low=True,
    ),
    _key(
        Boolean,
        "ENABLE_STROKE_WEIGHTS",
        "enable_stroke_weights",
        "Outline width in svg_stroke scales with each word's font size (STROKE_WIDTH at the "
        "median size) instead of one width.",
    ),
    _key(
        Number,
        "PRINT_WIDTH_MM",
        "print_width_mm",
        "The printed width in mm: with it (or PRINT_HEIGHT_MM) no name is smaller than "
        "MIN_NAME_PT at that size. Both given: the poster fits inside them.",
        10,
        10000,
        absent="none: no printed size",
    ),
    _key(
        Number,
        "PRINT_HEIGHT_MM",
        "print_height_mm",
        "The printed height in mm (the width follows the canvas's aspect when not given).",
        10,
        10000,
        absent="none: no printed size",
    ),
    _key(
        Number,
        "MIN_NAME_PT",
        "min_name_pt",
        "The smallest name at the printed size, pt (1 pt = 1/72 inch); overrides a smaller "
        "MIN_FONT_SIZE. Printers ask for 6.",
        1,
        72,
    ),
    _key(
        "shapes",
        "KEEP_OUT",
        "keep_out",
        "Areas no word may enter (a logo's place): rect or ellipse boxes in canvas px, x, y "
        "their top-left, wholly on the canvas.",
        absent="none",
    ),
    _key(
        "integer",
        "MASK_THRESHOLD",
        "mask_threshold",
        "A mask pixel is inside the shape when opaque (alpha at least 128) and its luminance "
        "is below this.",
        0,
        255,
    ),
)


@dataclass(frozen=True)
class Params:
    """The validated job configuration; ``None`` means the engine chooses."""

    mode: str = "RECT"
    mask_text: str | None = None
    mask_font_id: str | None = None
    mask_text_spacing: float = 0.05
    width: int | None = None
    height: int | None = None
    data_col_index: int = 0
    skip_rows: int = 1
    weight_col_index: int | None = None
    group_col_index: int | None = None
    group_colors: dict | None = None
    group_regions: dict | None = None
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


# Every key, its default the field of Params; docs/api.md's table is written from it.
PARAMS = Inputs(Params, KEYS, text=False, prefix="params.")


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
        if name not in PARAMS.names:
            shown = name if len(name) <= SHOWN_KEY_CHARS else name[:SHOWN_KEY_CHARS] + "…"
            raise InputError(f"unknown params key: {shown}")
        key = PARAMS[name]
        try:
            values[PARAMS.attribute(key)] = key.parse(value, f"params.{name}")
        except Refused as refused:
            raise InputError(refused.detail) from None
    width, height = values.get("width"), values.get("height")
    if width and height and width * height > MAX_CANVAS_PIXELS:
        raise InputError(
            f"params.HEIGHT must be such that WIDTH×HEIGHT is at most {MAX_CANVAS_PIXELS:,}"
        )
    if "mask_text" in values:
        values.setdefault("mode", "TEXT")
    params = Params(**values, raw=dict(raw))
    if params.weight_col_index is not None and params.weight_col_index == params.data_col_index:
        raise InputError("params.WEIGHT_COL_INDEX must differ from DATA_COL_INDEX")
    if params.group_col_index is not None and params.group_col_index == params.data_col_index:
        raise InputError("params.GROUP_COL_INDEX must differ from DATA_COL_INDEX")
    low, high = params.min_font_size, params.max_font_size
    if low is not None and high is not None and high < low:
        raise InputError("params.MAX_FONT_SIZE must be at least MIN_FONT_SIZE")
    if params.mode == "RECT" or (width and height):
        check_canvas(params, width or DEFAULT_CANVAS, height or DEFAULT_CANVAS)
    return params


def check_groups(params: Params) -> None:
    """Raise :class:`InputError` when GROUP_COLORS or GROUP_REGIONS come without
    GROUP_COL_INDEX, GROUP_REGIONS without MASK_TEXT or a mask image, or with regions of the
    other kind (letters with a mask image, a colour with MASK_TEXT) (checks of keys together, made where
    a job is checked and run)."""
    for key, given in (
        ("GROUP_COLORS", params.group_colors),
        ("GROUP_REGIONS", params.group_regions),
    ):
        if given and params.group_col_index is None:
            raise InputError(f"params.{key} needs GROUP_COL_INDEX")
    if not params.group_regions:
        return
    if params.mode == "RECT":
        raise InputError(
            "params.GROUP_REGIONS needs MASK_TEXT or a mask image (its letters or flat colours "
            "are the regions)"
        )
    letters = params.mode == "TEXT"
    for group, region in params.group_regions.items():
        if isinstance(region, tuple) != letters:
            raise InputError(
                f'params.GROUP_REGIONS["{group}"] must be letter indexes: MASK_TEXT\'s letters '
                "are the regions"
                if letters
                else f'params.GROUP_REGIONS["{group}"] must be a #RRGGBB colour: the mask '
                "image's flat colours are the regions"
            )


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


def params_schema() -> dict:
    """The ``params`` object as an OpenAPI 3.0 schema, read from :data:`PARAMS`."""
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": PARAMS.schemas(),
        "description": "The job's configuration; every key is optional.",
    }
