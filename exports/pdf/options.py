"""The print PDF's options (docs/exports.md, "Print PDF"), declared once in `PDF_OPTIONS`:
read from query parameters or a JSON body, each bad value refused with 400 naming its
parameter, and the same declaration gives the schema and the docs' table."""

from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import InvalidInput
from core.inputs import Boolean, Choice, Inputs, Number, Pattern
from exports.pdf.colour import BLACKS, DEFAULT_PROFILE, PROFILES

MM = 72 / 25.4  # points per millimetre
# PDF's largest page is 200 inches (14,400 units); a trim of 5 m leaves room for bleed and marks.
SIZE_MAX_MM = 5000.0
SIZE_MIN_MM = 2.0  # PDF's smallest page is 3 units (1.06 mm), with no bleed
BLEED_MAX_MM = 25.0


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
    preflight: bool = False
    strict: bool = False
    min_name_pt: float = 6.0


PDF_OPTIONS = Inputs(
    PdfOptions,
    (
        Number(
            "width_mm",
            "trim width, mm; neither side given: the poster's own size at 96 px per inch",
            low=SIZE_MIN_MM,
            high=SIZE_MAX_MM,
        ),
        Number(
            "height_mm",
            "trim height, mm; one side alone: the other from the poster's aspect (400 when "
            f"it would fall outside {SIZE_MIN_MM:g}-{SIZE_MAX_MM:g})",
            low=SIZE_MIN_MM,
            high=SIZE_MAX_MM,
        ),
        Number("bleed_mm", "bleed on each side, mm", low=0, high=BLEED_MAX_MM),
        Boolean("marks", "crop marks outside the bleed, and registration"),
        Boolean("cut", "the words' outlines as the cut line: a spot-colour hairline"),
        Choice(
            "standard",
            "x1a: PDF/X-1a:2001; x4: PDF/X-4; none: plain PDF 1.6 with the same boxes, no "
            "OutputIntent",
            choices=("x1a", "x4", "none"),
        ),
        Choice(
            "colour",
            "cmyk, or rgb (sRGB values in an ICC-based sRGB space) only with x4 or none",
            choices=("cmyk", "rgb"),
        ),
        Choice(
            "black",
            "#000000 as 0/0/0/100 (k: one plate, no registration trouble on small text), "
            "60/40/40/100 (rich) or through the profile like any colour (icc)",
            choices=BLACKS,
        ),
        Choice("profile", "the press profile (below)", choices=tuple(PROFILES)),
        Boolean(
            "preflight",
            "answer the preflight of the names at this size as JSON instead of the PDF",
        ),
        Boolean(
            "strict",
            "refuse (422, naming how many) when a name would print under min_name_pt",
        ),
        Number(
            "min_name_pt",
            "the smallest name size a print may have, pt (printers ask for 6)",
            low=1,
            high=72,
        ),
        Pattern(
            "cut_name",
            "the cut line's spot colour",
            pattern="[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}",
            refusal="cut_name must be 1 to 63 letters, digits, spaces, '_', '.' or '-', "
            "starting with a letter or digit",
            meaning="1-63 letters, digits, spaces, `_ . -`, starting with a letter or digit",
        ),
    ),
)


def pdf_options(query: Mapping) -> PdfOptions:
    """Options from query parameters (or a JSON object); absent or empty: the default."""
    options = PDF_OPTIONS.parse(query)
    if options.colour == "rgb" and options.standard == "x1a":
        raise InvalidInput(
            "colour rgb needs standard x4 or none (PDF/X-1a is CMYK only)",
            code="pdf_colour_needs_cmyk",
        )
    return options


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
        raise InvalidInput(
            f"{side} from the poster's aspect exceeds {SIZE_MAX_MM:g} mm", code="pdf_size_too_large"
        )
    if min(width, height) < SIZE_MIN_MM:
        raise InvalidInput(
            f"{side} from the poster's aspect is below {SIZE_MIN_MM:g} mm",
            code="pdf_size_too_small",
        )
    return width, height


def download_name(stem: str, width_mm: float, height_mm: float, standard: str) -> str:
    """`<stem>-420x297mm-PDFX-1a.pdf`: the size and the standard in the name."""
    label = {"x1a": "PDFX-1a", "x4": "PDFX-4", "none": "PDF"}[standard]
    return f"{stem}-{_mm(width_mm)}x{_mm(height_mm)}mm-{label}.pdf"


def _mm(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")
