"""Writes a Drawing (the shapes the SVG reader gives, exports/svg_reader.py) as a print PDF
with pikepdf: one page at the asked physical size, a bleed box around the trim box, optional
crop marks in registration colour outside the bleed, optional cut lines in a named spot
colour, overprinting; PDF/X-1a (PDF 1.3, CMYK and spot only) or PDF/X-4 (PDF 1.6, XMP) with
the press profile as the OutputIntent. Vectors stay vectors: each shape is one PDF path
(`m`, `l`, `c`, `h`) painted once, no fonts, no rasterising; raster images (a project's image
stickers) become image XObjects (exports/pdf/images.py)."""

import hashlib
import io
import math
import uuid
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import pikepdf

from exports.pdf.colour import PROFILES, CmykConverter, profile_bytes, srgb_profile_bytes
from exports.pdf.images import Raster, most_involved, raster
from exports.pdf.options import MM, PdfOptions
from exports.pdf.preflight import preflight_or_fail
from exports.svg_reader import Clip, ClipEnd, Drawing, Picture, Shape
from wordclouds.engine.svg_geometry import Matrix, Subpath

PRODUCT = "Word-cloud poster service"
CUT_WIDTH_PT = 0.25  # the cut line: a hairline, as cutting plotters' software expects
MARK_LENGTH_PT = 5 * MM
MARK_GAP_PT = 2.0  # between the bleed box and a crop mark
MARK_WIDTH_PT = 0.25
MARKS_MARGIN_PT = 25.0  # media box beyond the bleed box: the gap, a mark and 8.8 pt of paper
VERSIONS = {"x1a": "1.3", "x4": "1.6", "none": "1.6"}
PDFX_VERSION = {"x1a": "PDF/X-1:2001", "x4": "PDF/X-4"}
_PAINT = {  # (fill, stroke, even-odd) -> operator
    (True, False, False): "f",
    (True, False, True): "f*",
    (False, True, False): "S",
    (False, True, True): "S",
    (True, True, False): "B",
    (True, True, True): "B*",
}


@dataclass(frozen=True)
class PageBoxes:
    """The page in points, y up: media box from the origin; trim box inside the bleed box."""

    trim_width: float
    trim_height: float
    bleed: float
    margin: float  # media box beyond the bleed box (room for crop marks)

    @property
    def trim(self) -> tuple[float, float, float, float]:
        x = self.bleed + self.margin
        return (x, x, x + self.trim_width, x + self.trim_height)

    @property
    def bleed_box(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.trim
        return (x0 - self.bleed, y0 - self.bleed, x1 + self.bleed, y1 + self.bleed)

    @property
    def media(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.bleed_box
        return (0.0, 0.0, x1 + self.margin, y1 + self.margin)


def page_boxes(options: PdfOptions, width_mm: float, height_mm: float) -> PageBoxes:
    return PageBoxes(
        width_mm * MM,
        height_mm * MM,
        options.bleed_mm * MM,
        MARKS_MARGIN_PT if options.marks else 0.0,
    )


@dataclass(frozen=True)
class WrittenPdf:
    data: bytes
    transparency: str  # how its images keep their alpha (exports/pdf/images.py)


def write_pdf(
    drawing: Drawing,
    options: PdfOptions,
    boxes: PageBoxes,
    *,
    title: str,
    cut: Iterable[Shape] = (),
) -> WrittenPdf:
    """The print PDF of the drawing, scaled uniformly to fit the trim box and centred; a
    shape that covers the whole drawing (the poster's background) fills the bleed box.
    `cut`: shapes (in the drawing's space) whose outlines become the cut line. Checked by
    the preflight before it is returned."""
    pdf = pikepdf.new()
    page = Page(pdf, drawing, options, boxes)
    content = page.draw(cut)
    stream = _flate(pdf, content.encode("ascii"))
    page_dict = pdf.add_blank_page(page_size=boxes.media[2:])
    page_dict.obj.MediaBox = pikepdf.Array(_box(boxes.media))
    page_dict.obj.BleedBox = pikepdf.Array(_box(boxes.bleed_box))
    page_dict.obj.TrimBox = pikepdf.Array(_box(boxes.trim))
    page_dict.obj.Contents = pdf.make_indirect(stream)
    page_dict.obj.Resources = page.resources()
    if page.layers:
        _optional_content(pdf, list(page.layers.values()))
    _identify(pdf, options, title)
    data = _save(pdf, options.standard)
    preflight_or_fail(data, options.standard)
    return WrittenPdf(data, most_involved(page.transparencies))


class Page:
    """The content stream of one page and the resources it names."""

    def __init__(self, pdf: pikepdf.Pdf, drawing: Drawing, options: PdfOptions, boxes: PageBoxes):
        self.pdf = pdf
        self.drawing = drawing
        self.options = options
        self.boxes = boxes
        self.cmyk = (
            CmykConverter(options.profile, options.black) if options.colour == "cmyk" else None
        )
        self.colour_spaces: dict[str, pikepdf.Object] = {}
        self.states: dict[str, pikepdf.Dictionary] = {}
        self.images: dict[str, pikepdf.Stream] = {}
        self.image_names: dict[bytes, str] = {}  # by the file's digest: one XObject a file
        self.transparencies: set[str] = set()
        # PDF layers (optional content groups) by the SVG layer's name, for a drawing with
        # layers; PDF/X-1a is PDF 1.3, which has none (docs/exports.md, Layers)
        self.layered = bool(drawing.layers) and options.standard != "x1a"
        self.layers: dict[str, pikepdf.Object] = {}
        self.backdrop = (1.0, 1.0, 1.0)  # the background's colour once drawn: paper before
        trim_x, trim_y, trim_x1, trim_y1 = boxes.trim
        self.scale = min(boxes.trim_width / drawing.width, boxes.trim_height / drawing.height)
        # drawing points (y down) -> page points (y up), centred in the trim box
        self.offset_x = trim_x + (boxes.trim_width - drawing.width * self.scale) / 2
        self.offset_y = trim_y1 - (boxes.trim_height - drawing.height * self.scale) / 2

    def resources(self) -> pikepdf.Dictionary:
        resources = pikepdf.Dictionary()
        if self.colour_spaces:
            resources.ColorSpace = pikepdf.Dictionary(
                {f"/{name}": space for name, space in self.colour_spaces.items()}
            )
        if self.states:
            resources.ExtGState = pikepdf.Dictionary(
                {f"/{name}": state for name, state in self.states.items()}
            )
        if self.layers:
            resources.Properties = pikepdf.Dictionary(
                {f"/L{k}": ocg for k, ocg in enumerate(self.layers.values(), start=1)}
            )
        if self.images:
            resources.XObject = pikepdf.Dictionary(
                {f"/{name}": image for name, image in self.images.items()}
            )
        return resources

    def draw(self, cut: Iterable[Shape]) -> str:
        out: list[str] = []
        if self.options.marks:
            self._marks(out)
        x0, y0, x1, y1 = self.boxes.bleed_box
        out.append(f"q {_n(x0)} {_n(y0)} {_n(x1 - x0)} {_n(y1 - y0)} re W n")
        s = self.scale
        page = f"{_n(s)} 0 0 {_n(-s)} {_n(self.offset_x)} {_n(self.offset_y)} cm"
        self.fill_colour = self.stroke_colour = None
        matrix = None
        out.append("q " + page)
        clips = 0  # nested viewports open (a project's SVG stickers)
        layer = None  # the layer whose marked content is open
        for item in self.drawing.shapes:
            if self.layered and isinstance(item, Shape) and item.layer != layer:
                if matrix is not None:
                    out.append("Q")
                    self.fill_colour = self.stroke_colour = matrix = None
                self._layer_switch(out, layer, item.layer)
                layer = item.layer
            if not isinstance(item, Shape) and matrix is not None:
                out.append("Q")
                self.fill_colour = self.stroke_colour = matrix = None
            if isinstance(item, Picture):
                out.append(" ".join(["q", *(_n(v) for v in item.matrix), "cm"]))
                out.append(f"/{self._image(item.data)} Do Q")
                continue
            if isinstance(item, Clip):
                corners = [f"{_n(x)} {_n(y)} l" for x, y in item.corners]
                out.append(" ".join(["q", corners[0][:-1] + "m", *corners[1:], "h W n"]))
                clips += 1
                continue
            if isinstance(item, ClipEnd):
                out.append("Q")
                self.fill_colour = self.stroke_colour = None
                clips -= 1
                continue
            if clips == 0 and self._is_background(item):
                self.backdrop = item.fill
                if matrix is not None:
                    out.append("Q")
                out.append(f"Q {self._colour(item.fill, stroke=False)} {_n(x0)} {_n(y0)} ")
                out.append(f"{_n(x1 - x0)} {_n(y1 - y0)} re f q {page}")
                self.fill_colour = self.stroke_colour = matrix = None
                continue
            if item.matrix != matrix:
                if matrix is not None:
                    out.append("Q")
                    self.fill_colour = self.stroke_colour = None
                matrix = item.matrix
                out.append("q " + " ".join(_n(v) for v in matrix) + " cm")
            self._shape(out, item)
        if matrix is not None:
            out.append("Q")
        self._layer_switch(out, layer, None)
        self._cut(out, cut)
        out.append("Q Q")
        return "\n".join(out) + "\n"

    def _layer_switch(self, out: list[str], was: str | None, now: str | None):
        """Close the marked content of layer ``was`` (if any) and open that of ``now``:
        ``/OC /L<k> BDC`` ... ``EMC``, ``L<k>`` its optional content group (made on first
        use, in drawing order)."""
        if was is not None:
            out.append("EMC")
        if now is None:
            return
        if now not in self.layers:
            self.layers[now] = self.pdf.make_indirect(
                pikepdf.Dictionary(
                    Type=pikepdf.Name.OCG,
                    Name=pikepdf.String(now),
                    Usage=pikepdf.Dictionary(
                        View=pikepdf.Dictionary(ViewState=pikepdf.Name.ON),
                        Print=pikepdf.Dictionary(PrintState=pikepdf.Name.ON),
                    ),
                )
            )
        out.append(f"/OC /L{list(self.layers).index(now) + 1} BDC")

    def _image(self, data: bytes) -> str:
        """The XObject name of an image file's pixels, with its mask or soft mask; a file
        placed by several stickers is embedded once."""
        digest = hashlib.sha256(data).digest()
        if digest in self.image_names:
            return self.image_names[digest]
        image = raster(
            data,
            colour=self.options.colour,
            profile=self.options.profile,
            standard=self.options.standard,
            backdrop=self.backdrop,
        )
        self.transparencies.add(image.transparency)
        space = pikepdf.Name.DeviceCMYK if image.components == 4 else self._srgb_space()
        xobject = self._image_stream(image, image.samples, space, 8)
        if image.mask is not None:
            mask = self._image_stream(image, image.mask, None, 1)
            mask.ImageMask = True
            xobject.Mask = self.pdf.make_indirect(mask)
        if image.soft_mask is not None:
            soft = self._image_stream(image, image.soft_mask, pikepdf.Name.DeviceGray, 8)
            xobject.SMask = self.pdf.make_indirect(soft)
        name = self.image_names[digest] = f"Im{len(self.images) + 1}"
        self.images[name] = self.pdf.make_indirect(xobject)
        return name

    def _image_stream(self, image: Raster, samples: bytes, space, bits: int) -> pikepdf.Stream:
        stream = pikepdf.Stream(
            self.pdf, zlib.compress(samples, 6), Filter=pikepdf.Name.FlateDecode
        )
        stream.Type = pikepdf.Name.XObject
        stream.Subtype = pikepdf.Name.Image
        stream.Width, stream.Height, stream.BitsPerComponent = image.width, image.height, bits
        if space is not None:
            stream.ColorSpace = space
        return stream

    def _is_background(self, shape: Shape) -> bool:
        """A filled, unstroked rectangle that covers the whole drawing."""
        if shape.fill is None or shape.stroke is not None or len(shape.subpaths) != 1:
            return False
        sub = shape.subpaths[0]
        if len(sub.segments) > 4 or any(len(s) != 2 for s in sub.segments):
            return False
        a, b, c, d, e, f = shape.matrix
        points = [sub.start, *sub.segments]
        xs = [a * x + c * y + e for x, y in points]
        ys = [b * x + d * y + f for x, y in points]
        tolerance = 0.01 * max(self.drawing.width, self.drawing.height) / 100
        return (
            len(points) >= 4
            and min(xs) <= tolerance
            and min(ys) <= tolerance
            and max(xs) >= self.drawing.width - tolerance
            and max(ys) >= self.drawing.height - tolerance
            and _is_axis_rectangle(xs, ys)
        )

    def _shape(self, out: list[str], shape: Shape):
        fill, stroke = shape.fill is not None, shape.stroke is not None
        if fill:
            colour = self._colour(shape.fill, stroke=False)
            if colour != self.fill_colour:
                out.append(colour)
                self.fill_colour = colour
        if stroke:
            colour = self._colour(shape.stroke, stroke=True)
            if colour != self.stroke_colour:
                out.append(colour)
                self.stroke_colour = colour
            unit = _matrix_scale(shape.matrix) or 1.0
            dash = " ".join(_n(v / unit) for v in shape.dash)
            out.append(
                f"{_n(shape.stroke_width / unit)} w {shape.linejoin} j {shape.linecap} J "
                f"{_n(shape.miterlimit)} M [{dash}] {_n(shape.dash_offset / unit)} d"
            )
        digits = _digits(self.scale * (_matrix_scale(shape.matrix) or 1.0))
        for sub in shape.subpaths:
            _subpath(out, sub, digits)
        out.append(_PAINT[(fill, stroke, shape.fill_rule == "evenodd")])

    def _colour(self, rgb, *, stroke: bool) -> str:
        """The operators setting the fill (or stroke) colour: CMYK through the press
        profile, or the sRGB values in an ICC-based sRGB space."""
        if self.cmyk is not None:
            values = " ".join(_n(v) for v in self.cmyk(rgb))
            return values + (" K" if stroke else " k")
        name = self._colour_space("sRGB", self._srgb)
        values = " ".join(_n(v) for v in rgb)
        return f"/{name} CS {values} SC" if stroke else f"/{name} cs {values} sc"

    def _srgb(self) -> pikepdf.Object:
        profile = _flate(self.pdf, srgb_profile_bytes())
        profile.N = 3
        return pikepdf.Array([pikepdf.Name.ICCBased, self.pdf.make_indirect(profile)])

    def _srgb_space(self) -> pikepdf.Object:
        """The page's ICC-based sRGB space (shared with its sRGB fills)."""
        return self.colour_spaces[self._colour_space("sRGB", self._srgb)]

    def _colour_space(self, name: str, make) -> str:
        if name not in self.colour_spaces:
            self.colour_spaces[name] = make()
        return name

    def _separation(self, name: str, spot: str, cmyk: tuple[float, ...]) -> str:
        """A Separation colour space for `spot`; `cmyk` is its look on a proof at full tint."""

        def make():
            tint = pikepdf.Dictionary(
                FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=list(cmyk), N=1
            )
            return pikepdf.Array(
                [
                    pikepdf.Name.Separation,
                    pikepdf.Name("/" + spot),
                    pikepdf.Name.DeviceCMYK,
                    self.pdf.make_indirect(tint),
                ]
            )

        return self._colour_space(name, make)

    def _marks(self, out: list[str]):
        """Crop marks at the trim box's corners, in registration colour, outside the bleed."""
        name = self._separation("Registration", "All", (1, 1, 1, 1))
        x0, y0, x1, y1 = self.boxes.trim
        bx0, by0, bx1, by1 = self.boxes.bleed_box
        near, far = MARK_GAP_PT, MARK_GAP_PT + MARK_LENGTH_PT
        lines = []
        for x, bx, sign in ((x0, bx0, -1), (x1, bx1, 1)):
            for y, by, ysign in ((y0, by0, -1), (y1, by1, 1)):
                lines.append((bx + sign * near, y, bx + sign * far, y))
                lines.append((x, by + ysign * near, x, by + ysign * far))
        out.append(f"q /{name} CS 1 SCN {_n(MARK_WIDTH_PT)} w 0 J")
        out += [f"{_n(a)} {_n(b)} m {_n(c)} {_n(d)} l S" for a, b, c, d in lines]
        out.append("Q")

    def _cut(self, out: list[str], cut: Iterable[Shape]):
        """Each cut shape's outline stroked in the spot colour, overprinting what is under
        it, so the process plates stay as they are."""
        shapes = [shape for shape in cut if isinstance(shape, Shape) and shape.fill is not None]
        if not shapes:
            return
        name = self._separation("Cut", self.options.cut_name, (0, 1, 0, 0))
        self.states["Overprint"] = pikepdf.Dictionary(
            Type=pikepdf.Name.ExtGState, OP=True, op=True, OPM=1
        )
        out.append(f"/Overprint gs /{name} CS 1 SCN")
        for shape in shapes:
            if self._is_background(shape):
                continue
            unit = _matrix_scale(shape.matrix) or 1.0
            out.append("q " + " ".join(_n(v) for v in shape.matrix) + " cm")
            out.append(f"{_n(CUT_WIDTH_PT / (self.scale * unit))} w 1 j 1 J [] 0 d")
            digits = _digits(self.scale * unit)
            for sub in shape.subpaths:
                _subpath(out, sub, digits)
            out.append("S Q")


def _optional_content(pdf: pikepdf.Pdf, groups: list[pikepdf.Object]):
    """The catalog's /OCProperties: the layers in order, all on when viewed and printed
    (a default configuration named, listing every group in /Order, no /AS: as PDF/X-4
    asks)."""
    pdf.Root.OCProperties = pikepdf.Dictionary(
        OCGs=pikepdf.Array(groups),
        D=pikepdf.Dictionary(
            Name=pikepdf.String("Groups"),
            BaseState=pikepdf.Name.ON,
            Order=pikepdf.Array(groups),
        ),
    )


def _is_axis_rectangle(xs: list[float], ys: list[float]) -> bool:
    tolerance = 1e-6 * (max(xs) - min(xs) + max(ys) - min(ys))
    return all(
        min(abs(x - min(xs)), abs(x - max(xs))) <= tolerance
        and min(abs(y - min(ys)), abs(y - max(ys))) <= tolerance
        for x, y in zip(xs, ys)
    )


def _matrix_scale(matrix: Matrix) -> float:
    a, b, c, d, _, _ = matrix
    return math.sqrt(abs(a * d - b * c))


def _digits(scale: float) -> int:
    """Decimals that keep coordinates to 0.01 pt on the page at this scale."""
    return min(6, max(1, math.ceil(math.log10(max(scale, 1e-9) * 100))))


_FORMATS = {digits: f"%.{digits}f" for digits in range(1, 7)}


def _subpath(out: list[str], sub: Subpath, digits: int):
    number = _FORMATS[digits]
    point = f"{number} {number}"
    out.append((point + " m") % sub.start)
    line, curve = point + " l", f"{point} {point} {point} c"
    out += [(line if len(s) == 2 else curve) % s for s in sub.segments]
    if sub.closed:
        out.append("h")


def _n(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _box(box: tuple[float, ...]) -> list[float]:
    return [round(v, 4) for v in box]


def _pdf_date(moment: datetime) -> str:
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")


def _identify(pdf: pikepdf.Pdf, options: PdfOptions, title: str):
    """Info, and for PDF/X the identification keys, the OutputIntent and (X-4) XMP."""
    now = datetime.now(UTC).replace(microsecond=0)
    info = {
        "/Title": title,
        "/Creator": PRODUCT,
        "/Producer": f"{PRODUCT} (pikepdf {pikepdf.__version__})",
        "/CreationDate": _pdf_date(now),
        "/ModDate": _pdf_date(now),
    }
    pdf.trailer.Info = pdf.make_indirect(pikepdf.Dictionary(info))
    if options.standard == "none":
        return
    info_dict = pdf.trailer.Info
    info_dict.Trapped = pikepdf.Name("/False")
    info_dict.GTS_PDFXVersion = PDFX_VERSION[options.standard]
    if options.standard == "x1a":
        info_dict.GTS_PDFXConformance = "PDF/X-1a:2001"
    press = PROFILES[options.profile]
    profile = _flate(pdf, profile_bytes(options.profile))
    profile.N = 4
    pdf.Root.OutputIntents = pikepdf.Array(
        [
            pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent,
                S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier=press.identifier,
                OutputCondition=press.condition,
                RegistryName="http://www.color.org",
                Info=press.condition,
                DestOutputProfile=pdf.make_indirect(profile),
            )
        ]
    )
    if options.standard == "x4":
        metadata = pikepdf.Stream(pdf, _xmp(title, now).encode("utf-8"))
        metadata.Type = pikepdf.Name.Metadata
        metadata.Subtype = pikepdf.Name.XML
        pdf.Root.Metadata = pdf.make_indirect(metadata)


def _xmp(title: str, now: datetime) -> str:
    stamp = now.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    document = uuid.uuid4()
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escaped}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreateDate>{stamp}</xmp:CreateDate>
   <xmp:ModifyDate>{stamp}</xmp:ModifyDate>
   <xmp:MetadataDate>{stamp}</xmp:MetadataDate>
   <xmp:CreatorTool>{PRODUCT}</xmp:CreatorTool>
   <pdf:Producer>{PRODUCT} (pikepdf {pikepdf.__version__})</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>uuid:{document}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{document}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


def _flate(pdf: pikepdf.Pdf, data: bytes) -> pikepdf.Stream:
    """A stream compressed here at zlib's fastest level (qpdf's own pass takes 20 times longer on a
    poster's page; the content is 25 % larger than at level 6, a third of the SVG)."""
    return pikepdf.Stream(pdf, zlib.compress(data, 1), Filter=pikepdf.Name.FlateDecode)


def _save(pdf: pikepdf.Pdf, standard: str) -> bytes:
    out = io.BytesIO()
    pdf.save(
        out,
        force_version=VERSIONS[standard],
        object_stream_mode=pikepdf.ObjectStreamMode.disable,
        compress_streams=False,
        stream_decode_level=pikepdf.StreamDecodeLevel.none,
        fix_metadata_version=False,
    )
    return out.getvalue()
