"""Writes a Drawing as a legacy Adobe Illustrator file, the PostScript-based format of
Illustrator 3 to 8, laid out as Illustrator 8 wrote it.

Importers that skip the prolog (Illustrator, Scribus, engraving software) read the body as
Illustrator's operators; the prolog's small procset defines the same operators in plain
PostScript, so that Ghostscript renders the file too."""

import math
from datetime import UTC, datetime

from core.errors import Unprocessable
from exports.svg_reader import Drawing, Shape
from wordclouds.engine.svg_geometry import Matrix, Subpath

PRODUCT = "Word-cloud poster service"
TOO_LARGE_NUMBERS = "svg uses unsupported content: numbers too large"
PROCSET = "WordcloudAI8Procs"

# Fill and stroke colours are kept apart (as Illustrator does) and applied at paint time.
# Inside *u ... *U the subpaths only accumulate; *U paints the compound path once, with the
# fill rule set by XR, so holes stay holes.
PROLOG = f"""%%BeginProlog
%%BeginResource: procset {PROCSET} 1.0 0
/{PROCSET} 64 dict dup begin
/_fr 0 def /_fg 0 def /_fb 0 def /_sr 0 def /_sg 0 def /_sb 0 def
/_eo false def /_cp false def /_doF false def /_doS false def
/Xa {{/_fb exch def /_fg exch def /_fr exch def}} bind def
/XA {{/_sb exch def /_sg exch def /_sr exch def}} bind def
/XR {{1 eq /_eo exch def}} bind def
/m /moveto load def /l /lineto load def /L /lineto load def
/c /curveto load def /C /curveto load def
/w /setlinewidth load def /j /setlinejoin load def /J /setlinecap load def
/M /setmiterlimit load def /d /setdash load def
/_draw {{
 _doF {{_doS {{gsave}} if _fr _fg _fb setrgbcolor _eo {{eofill}} {{fill}} ifelse _doS {{grestore}} if}} if
 _doS {{_sr _sg _sb setrgbcolor stroke}} if
 newpath
}} bind def
/_paint {{/_doS exch def /_doF exch def _cp not {{_draw}} if}} bind def
/f {{closepath true false _paint}} bind def /F {{true false _paint}} bind def
/s {{closepath false true _paint}} bind def /S {{false true _paint}} bind def
/b {{closepath true true _paint}} bind def /B {{true true _paint}} bind def
/n {{closepath false false _paint}} bind def /N {{false false _paint}} bind def
/*u {{/_cp true def}} bind def /*U {{/_cp false def _draw}} bind def
/Lb {{10 {{pop}} repeat}} bind def /Ln {{pop}} bind def /LB {{}} def
end def
%%EndResource
%%EndProlog
"""
_PAINT_OPS = {  # (fill, stroke, closed) -> operator
    (True, False, True): "f",
    (True, False, False): "F",
    (False, True, True): "s",
    (False, True, False): "S",
    (True, True, True): "b",
    (True, True, False): "B",
}


def ps_string(text: str) -> str:
    """A PostScript string literal; non-ASCII as octal escapes of its UTF-8 bytes."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in "()\\":
            out.append("\\" + char)
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return "(" + "".join(out) + ")"


def write_ai(drawing: Drawing, *, title: str) -> bytes:
    """The drawing as Illustrator 8 file bytes."""
    width, height = drawing.width, drawing.height
    now = datetime.now(UTC)
    lines = [
        "%!PS-Adobe-3.0",
        "%%Creator: Adobe Illustrator(R) 8.0",
        f"%%Title: {ps_string(title)}",
        f"%%For: {ps_string(PRODUCT)} ()",
        f"%%CreationDate: ({now:%m/%d/%y}) ({now:%I:%M %p})",
        f"%%BoundingBox: 0 0 {math.ceil(width)} {math.ceil(height)}",
        f"%%HiResBoundingBox: 0 0 {width:.4f} {height:.4f}",
        "%%DocumentProcessColors: Cyan Magenta Yellow Black",
        "%AI5_FileFormat 4.0",
        "%AI3_ColorUsage: Color",
        f"%AI5_ArtSize: {width:.4f} {height:.4f}",
        "%AI5_RulerUnits: 2",
        "%AI5_TargetResolution: 800",
        "%AI5_NumLayers: 1",
        "%%EndComments",
        PROLOG + "%%BeginSetup",
        f"{PROCSET} begin",
        # The page is the artwork: Ghostscript without options, ps2pdf and ps2eps would
        # otherwise cut the poster to their default paper. Importers skip the setup.
        f"/setpagedevice where {{pop << /PageSize [{width:.4f} {height:.4f}] >> setpagedevice}} if",
        "%%EndSetup",
    ]
    count = _layers(lines, drawing, height)
    lines[lines.index("%AI5_NumLayers: 1")] = f"%AI5_NumLayers: {count}"
    lines += ["%%PageTrailer", "showpage", "%%Trailer", "end", "%%EOF", ""]
    return "\n".join(lines).encode("latin-1")


UNLAYERED = "Layer 1"  # the layer of what an SVG draws outside its layers (or has none)


def _layers(lines: list[str], drawing: Drawing, height: float) -> int:
    """The drawing's shapes appended to ``lines`` in Illustrator layers (``%AI5_BeginLayer``
    ... ``LB %AI5_EndLayer--``, named by ``Ln``): one, UNLAYERED, for an SVG without layers;
    else a layer for each run of shapes in one SVG layer (Shape.layer), named as it is, what
    is drawn outside them in UNLAYERED ones. The number of layers written."""
    count, current = 0, None
    for shape in drawing.shapes:
        if count == 0 or (drawing.layers and shape.layer != current):
            if count:
                lines += ["LB", "%AI5_EndLayer--"]
            lines += _layer_start(shape.layer or UNLAYERED)
            count, current = count + 1, shape.layer
        text = "\n".join(_shape(shape, height))
        if "inf" in text or "nan" in text:  # a number beyond float range ("1e400") in the SVG
            raise Unprocessable(TOO_LARGE_NUMBERS, code="numbers_too_large")
        lines.append(text)
    if count == 0:
        lines += _layer_start(UNLAYERED)
    lines += ["LB", "%AI5_EndLayer--"]
    return max(count, 1)


def _layer_start(name: str) -> list[str]:
    """A layer's opening: visible, previewed, unlocked, printed, not dimmed; its name."""
    return ["%AI5_BeginLayer", "1 1 1 1 0 0 0 79 128 255 Lb", f"{ps_string(name)} Ln"]


def _shape(shape: Shape, height: float) -> list[str]:
    fill, stroke = shape.fill is not None, shape.stroke is not None
    lines = [f"{1 if shape.fill_rule == 'evenodd' else 0} XR"]
    if fill:
        lines.append("{:.4f} {:.4f} {:.4f} Xa".format(*shape.fill))
    if stroke:
        lines.append("{:.4f} {:.4f} {:.4f} XA".format(*shape.stroke))
        dash = " ".join(f"{v:.3f}" for v in shape.dash)
        lines += [
            f"{shape.stroke_width:.3f} w",
            f"{shape.linejoin} j",
            f"{shape.linecap} J",
            f"{shape.miterlimit:.3f} M",
            f"[{dash}] {shape.dash_offset:.3f} d",
        ]
    a, b, c, d, e, f = shape.matrix
    to_page = (a, -b, c, -d, e, height - f)  # and y up
    compound = len(shape.subpaths) > 1
    if compound:
        lines.append("*u")
    for sub in shape.subpaths:
        _subpath(lines, sub, to_page)
        lines.append(_PAINT_OPS[(fill, stroke, sub.closed)])
    if compound:
        lines.append("*U")
    return lines


def _subpath(lines: list[str], sub: Subpath, m: Matrix):
    a, b, c, d, e, f = m
    x, y = sub.start
    lines.append(f"{a * x + c * y + e:.3f} {b * x + d * y + f:.3f} m")
    for s in sub.segments:
        if len(s) == 2:
            x, y = s
            lines.append(f"{a * x + c * y + e:.3f} {b * x + d * y + f:.3f} l")
        else:
            x1, y1, x2, y2, x, y = s
            lines.append(
                f"{a * x1 + c * y1 + e:.3f} {b * x1 + d * y1 + f:.3f} {a * x2 + c * y2 + e:.3f} {b * x2 + d * y2 + f:.3f} {a * x + c * y + e:.3f} {b * x + d * y + f:.3f} c"
            )
