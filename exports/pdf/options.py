"""The print PDF's options (docs/exports.md, "Print PDF"): read from query parameters or a
JSON body, each bad value refused with 400 naming its parameter."""

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import InvalidInput
from exports.pdf.colour import BLACKS, DEFAULT_PROFILE, PROFILES
from wordclouds.services.custom_svg import FALSE, TRUE

MM = 72 / 25.4  # points per millimetre
STANDARDS = ("x1a", "x4", "none")
COLOURS = ("cmyk", "rgb")
# PDF's largest page is 200 inches (14,400 units); a trim of 5 m leaves room for bleed and marks.
SIZE_MAX_MM = 5000.0
SIZE_MIN_MM = 2.0  # PDF's smallest page is 3 units (1.06 mm), with no bleed
BLEED_MAX_MM = 25.0
SPOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}")
OPTION_NAMES = (
    "width_mm",
    "height_mm",
    "bleed_mm",
    "marks",
    "standard",
    "colour",
    "black",
    "profile",
    "cut",
    "cut_name",
)


@dataclass(frozen=True)
class PdfOptions:
    width_mm: float | None = None  # None: from the other side and the poster's aspect
    height_mm: float | None = None
    bleed_mm: float = 3.0
    marks: bool = False
    standard: str = "x1a"
    colour: str = "cmyk"
    black: str = "k"
    profile: str = DEFAULT_PROFILE
    cut: bool = False
    cut_name: str = "CutContour"


def pdf_options(query: Mapping) -> PdfOptions:
    """Options from query parameters (or a JSON object); absent or empty: the default."""
    given = {name: _text(query.get(name)) for name in OPTION_NAMES}
    values: dict = {}
    for name in ("width_mm", "height_mm"):
        if given[name]:
            values[name] = _number(name, given[name], SIZE_MIN_MM, SIZE_MAX_MM)
    if given["bleed_mm"]:
        values["bleed_mm"] = _number("bleed_mm", given["bleed_mm"], 0.0, BLEED_MAX_MM)
    for name in ("marks", "cut"):
        if given[name]:
            if given[name].lower() not in TRUE + FALSE:
                raise InvalidInput(f"{name} must be 0, 1, true or false")
            values[name] = given[name].lower() in TRUE
    for name, allowed in (
        ("standard", STANDARDS),
        ("colour", COLOURS),
        ("black", BLACKS),
        ("profile", tuple(PROFILES)),
    ):
        if given[name]:
            if given[name] not in allowed:
                raise InvalidInput(f"{name} must be one of {', '.join(allowed)}")
            values[name] = given[name]
    if given["cut_name"]:
        if not SPOT_NAME.fullmatch(given["cut_name"]):
            raise InvalidInput(
                "cut_name must be 1 to 63 letters, digits, spaces, '_', '.' or '-', "
                "starting with a letter or digit"
            )
        values["cut_name"] = given["cut_name"]
    options = PdfOptions(**values)
    if options.colour == "rgb" and options.standard == "x1a":
        raise InvalidInput("colour rgb needs standard x4 or none (PDF/X-1a is CMYK only)")
    return options


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def _number(name: str, text: str, low: float, high: float) -> float:
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise InvalidInput(f"{name} must be a number")
    if not low <= number <= high:
        raise InvalidInput(f"{name} must be from {low:g} to {high:g}")
    return number


def trim_size_mm(options: PdfOptions, poster_width: float, poster_height: float):
    """(width, height) of the trim box in mm: as asked, the missing side from the poster's
    aspect, or the poster's own size (CSS px at 96 per inch) when neither is given."""
    width, height = options.width_mm, options.height_mm
    if width is None and height is None:
        return poster_width / MM, poster_height / MM
    if width is None:
        width = height * poster_width / poster_height
    elif height is None:
        height = width * poster_height / poster_width
    side = "width_mm" if options.width_mm is None else "height_mm"
    if max(width, height) > SIZE_MAX_MM:
        raise InvalidInput(f"{side} from the poster's aspect exceeds {SIZE_MAX_MM:g} mm")
    if min(width, height) < SIZE_MIN_MM:
        raise InvalidInput(f"{side} from the poster's aspect is below {SIZE_MIN_MM:g} mm")
    return width, height


def download_name(stem: str, width_mm: float, height_mm: float, standard: str) -> str:
    """`<stem>-420x297mm-PDFX-1a.pdf`: the size and the standard in the name."""
    label = {"x1a": "PDFX-1a", "x4": "PDFX-4", "none": "PDF"}[standard]
    return f"{stem}-{_mm(width_mm)}x{_mm(height_mm)}mm-{label}.pdf"


def _mm(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")
