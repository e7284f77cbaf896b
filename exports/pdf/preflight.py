"""The project's own preflight: the PDF/X rules the print PDF promises (docs/exports.md,
"Preflight"), checked on every PDF the service makes, before it leaves, and by the tests on
the bytes a client receives."""

import io
import re

import pikepdf

PDFX_VERSIONS = {"x1a": ("1.3", "PDF/X-1:2001"), "x4": ("1.6", "PDF/X-4")}
# Colour operators; `sc`/`scn` are checked against the colour space set before them.
_COLOUR_OPERATORS = "rg RG k K g G cs CS sc scn SC SCN gs Do BI"
_PROCESS_SPACES = {"/DeviceCMYK", "/DeviceGray"}
_TOLERANCE = 0.001


class PreflightFailed(RuntimeError):
    """The service made a PDF that breaks its own rules: a bug, never the client's doing."""


def preflight_or_fail(data: bytes, standard: str):
    problems = preflight(data, standard)
    if problems:
        raise PreflightFailed("; ".join(problems))


def preflight(data: bytes, standard: str) -> list[str]:
    """The rules the PDF breaks (none: it passes) for `standard` (x1a, x4 or none)."""
    problems: list[str] = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if standard in PDFX_VERSIONS:
            _identification(pdf, standard, problems)
        for number, page in enumerate(pdf.pages, start=1):
            _boxes(page, number, problems)
            _page_content(page, number, standard, problems)
    return problems


def _identification(pdf: pikepdf.Pdf, standard: str, problems: list[str]):
    version, pdfx = PDFX_VERSIONS[standard]
    if pdf.pdf_version != version:
        problems.append(f"PDF version is {pdf.pdf_version}, {standard} needs {version}")
    if "/ID" not in pdf.trailer or len(pdf.trailer.ID) != 2:
        problems.append("the trailer has no ID")
    info = pdf.trailer.get("/Info")
    info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
    if str(info.get("/GTS_PDFXVersion", "")) != pdfx:
        problems.append(f"Info GTS_PDFXVersion is not {pdfx}")
    if standard == "x1a" and str(info.get("/GTS_PDFXConformance", "")) != "PDF/X-1a:2001":
        problems.append("Info GTS_PDFXConformance is not PDF/X-1a:2001")
    if info.get("/Trapped") not in (pikepdf.Name("/True"), pikepdf.Name("/False")):
        problems.append("Info Trapped is neither True nor False")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if key not in info:
            problems.append(f"Info has no {key[1:]}")
    intents = [
        intent
        for intent in pdf.Root.get("/OutputIntents", [])
        if intent.get("/S") == pikepdf.Name.GTS_PDFX
    ]
    if len(intents) != 1:
        problems.append("there is not exactly one PDF/X OutputIntent")
    else:
        profile = intents[0].get("/DestOutputProfile")
        if not isinstance(profile, pikepdf.Stream) or profile.get("/N") != 4:
            problems.append("the OutputIntent has no embedded CMYK profile")
        if not str(intents[0].get("/OutputConditionIdentifier", "")):
            problems.append("the OutputIntent has no OutputConditionIdentifier")
    if standard == "x4":
        metadata = pdf.Root.get("/Metadata")
        xmp = metadata.read_bytes() if isinstance(metadata, pikepdf.Stream) else b""
        if not re.search(rb"GTS_PDFXVersion>\s*PDF/X-4\s*<", xmp):
            problems.append("the XMP metadata does not identify PDF/X-4")


def _boxes(page: pikepdf.Page, number: int, problems: list[str]):
    obj = page.obj
    if "/TrimBox" not in obj or "/BleedBox" not in obj:
        problems.append(f"page {number} has no TrimBox or no BleedBox")
        return
    media, bleed, trim = (
        [float(v) for v in obj[key]] for key in ("/MediaBox", "/BleedBox", "/TrimBox")
    )
    if not (_contains(media, bleed) and _contains(bleed, trim)):
        problems.append(f"page {number}: MediaBox ⊇ BleedBox ⊇ TrimBox does not hold")


def _contains(outer: list[float], inner: list[float]) -> bool:
    return (
        outer[0] <= inner[0] + _TOLERANCE
        and outer[1] <= inner[1] + _TOLERANCE
        and outer[2] >= inner[2] - _TOLERANCE
        and outer[3] >= inner[3] - _TOLERANCE
    )


def _page_content(page: pikepdf.Page, number: int, standard: str, problems: list[str]):
    resources = page.obj.get("/Resources", pikepdf.Dictionary())
    if "/Font" in resources:
        problems.append(f"page {number} uses fonts")
    if "/Group" in page.obj and standard == "x1a":
        problems.append(f"page {number} has a transparency group")
    spaces = {
        str(name): _space_kind(space)
        for name, space in resources.get("/ColorSpace", pikepdf.Dictionary()).items()
    }
    for name, state in resources.get("/ExtGState", pikepdf.Dictionary()).items():
        if standard == "x1a" and _transparent(state):
            problems.append(f"page {number}: graphics state {name} uses transparency")
    for name, xobject in resources.get("/XObject", pikepdf.Dictionary()).items():
        _image(xobject, f"page {number}: image {name}", standard, problems)
    found = set()
    current = {"fill": "/DeviceGray", "stroke": "/DeviceGray"}
    for operands, operator in pikepdf.parse_content_stream(page, _COLOUR_OPERATORS):
        op = str(operator)
        if op in ("rg", "RG"):
            found.add(f"{op} (DeviceRGB)")
        elif op in ("cs", "CS"):
            kind = spaces.get(str(operands[0]), str(operands[0]))
            current["fill" if op == "cs" else "stroke"] = kind
            if kind in ("/DeviceRGB", "rgb") or (standard == "x1a" and kind == "icc-rgb"):
                found.add(f"{op} {operands[0]} (RGB)")
        elif op in ("sc", "scn", "SC", "SCN"):
            kind = current["fill" if op in ("sc", "scn") else "stroke"]
            if standard == "x1a" and kind not in (*_PROCESS_SPACES, "spot"):
                found.add(f"{op} in an RGB space")
        elif op == "BI":
            found.add("inline image")
    if standard == "x1a":
        problems += [f"page {number} uses {what}" for what in sorted(found)]
    else:
        problems += [f"page {number} uses {what}" for what in sorted(found) if "DeviceRGB" in what]


def _space_kind(space) -> str:
    """spot, icc-rgb, icc-cmyk, or the device space's name."""
    if isinstance(space, pikepdf.Name):
        return str(space)
    family = str(space[0])
    if family in ("/Separation", "/DeviceN"):
        return "spot" if str(space[2]) in _PROCESS_SPACES else "rgb"
    if family == "/ICCBased":
        return {3: "icc-rgb", 4: "icc-cmyk", 1: "icc-gray"}.get(int(space[1].get("/N", 0)), "icc")
    return family


def _transparent(state) -> bool:
    soft_mask = state.get("/SMask", pikepdf.Name("/None"))
    blend = state.get("/BM", pikepdf.Name.Normal)
    return (
        soft_mask != pikepdf.Name("/None")
        or float(state.get("/CA", 1)) < 1
        or float(state.get("/ca", 1)) < 1
        or blend not in (pikepdf.Name.Normal, pikepdf.Name.Compatible)
    )


def _image(xobject, label: str, standard: str, problems: list[str]):
    """An image in a space the standard allows (X-1a: DeviceCMYK, DeviceGray or a spot
    colour), with a mask only PDF/X-1a can hold: an explicit 1-bit image mask or a colour
    key, never a soft mask."""
    if xobject.get("/Subtype") != pikepdf.Name.Image:
        problems.append(f"{label} is not an image")
        return
    if "/SMask" in xobject and standard == "x1a":
        problems.append(f"{label} has a soft mask")
    mask = xobject.get("/Mask")
    if isinstance(mask, pikepdf.Stream) and not (
        mask.get("/ImageMask", False) and mask.get("/BitsPerComponent", 1) == 1
    ):
        problems.append(f"{label} has a /Mask that is not a 1-bit image mask")
    if xobject.get("/ImageMask", False):
        return
    space = xobject.get("/ColorSpace")
    kind = _space_kind(space) if space is not None else "none"
    allowed = {*_PROCESS_SPACES, "spot"}
    if standard != "x1a":
        allowed |= {"icc-rgb", "icc-cmyk", "icc-gray"}
    if kind not in allowed:
        problems.append(f"{label} is in {kind}")
