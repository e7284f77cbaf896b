"""Print PDFs (docs/exports.md, "Print PDF"): a job's poster (its wordcloud.svg, or its
custom.svg in an engraving fill style), a project's poster (its render.svg: vector stickers
as outlines, image stickers as images) or an uploaded SVG, drawn from the same outlines as
the SVG, in a forked child with the heavy-work limits (core/isolated.py). The job's and the
project's SVG come from wordclouds' face, wordclouds/services/designs.py."""

from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np

from core.identity import Identity
from core.isolated import run_heavy
from exports.pdf.options import MM, PdfOptions, download_name, pdf_options, trim_size_mm
from exports.pdf.writer import page_boxes, write_pdf
from exports.services import export_stem, svg_document
from exports.svg_reader import read_svg
from wordclouds.services.designs import (
    CustomSvgOptions,
    custom_svg_options,
    custom_svg_render,
    job_artifact,
    job_print_figures,
    project_svg,
)

PDF_CONTENT_TYPE = "application/pdf"
CUSTOM_SVG_QUERY = tuple(field.name for field in fields(CustomSvgOptions))


@dataclass(frozen=True)
class PdfFile:
    content: bytes
    filename: str
    transparency: str = "none"  # how its images keep their alpha (exports/pdf/images.py)


def names_preflight(*, job_id: str, query: Mapping) -> dict:
    """The names of a job's poster printed at the PDF's size (docs/exports.md, "Preflight"):
    the printed size in mm, the smallest name in pt and mm (a name's size is its em), how
    many names are under ``min_name_pt``, the thinnest outline of the stroked SVG and (with
    ``fill=line``) the line fill's width in pt, and the ink box coverage (metrics)."""
    options = pdf_options(query)
    width, height, sizes, strokes, inked = job_print_figures(job_id=job_id)
    trim_width, trim_height = trim_size_mm(options, width, height)
    mm_per_px = min(trim_width / width, trim_height / height)
    points = np.asarray(sizes) * mm_per_px * MM
    under = int((points < options.min_name_pt).sum())
    report = {
        "widthMm": round(width * mm_per_px, 2),
        "heightMm": round(height * mm_per_px, 2),
        "names": len(sizes),
        "smallestNamePt": round(float(points.min()), 2) if len(points) else None,
        "smallestNameMm": round(float(points.min()) / MM, 3) if len(points) else None,
        "minNamePt": options.min_name_pt,
        "namesUnderMinPt": under,
        "thinnestStrokePt": round(min(strokes) * mm_per_px * MM, 3) if strokes else None,
        "inkBoxCoverage": inked,
    }
    if query.get("fill") == "line":
        line = custom_svg_options(query).line_width
        report["lineFillPt"] = round(line * mm_per_px * MM, 3)
    return report


def names_too_small(report: dict) -> str | None:
    """The sentence a strict print refuses with, or None."""
    if not report["namesUnderMinPt"]:
        return None
    return (
        f"{report['namesUnderMinPt']} of {report['names']} names would print under "
        f"{report['minNamePt']:g} pt at {report['widthMm']:g} × {report['heightMm']:g} mm (the "
        f"smallest at {report['smallestNamePt']:g} pt); print it larger or make the layout "
        "with PRINT_WIDTH_MM and MIN_NAME_PT"
    )


def job_pdf(*, job_id: str, query: Mapping) -> PdfFile:
    """The print PDF of a job's poster. Any custom.svg parameter in `query` draws the
    custom.svg of those parameters instead of wordcloud.svg; `cut` adds the words' outlines
    (custom.svg's plain fill) as the cut line."""
    options = pdf_options(query)
    custom = any(query.get(name) for name in CUSTOM_SVG_QUERY)
    job_options = custom_svg_options(query) if custom else None
    if job_options is not None:
        svg = custom_svg_render(job_id=job_id, options=job_options).encode()
    else:
        svg = job_artifact(job_id=job_id, kind="svg")
    outlines = (
        custom_svg_render(job_id=job_id, options=CustomSvgOptions()).encode()
        if options.cut
        else None
    )
    stem = f"wordcloud-{job_id}"
    data, width_mm, height_mm, transparency = run_heavy(
        "print.pdf", svg_pdf, svg, options, title=stem, outlines=outlines
    )
    return PdfFile(data, download_name(stem, width_mm, height_mm, options.standard), transparency)


def svg_pdf(
    svg: bytes,
    options: PdfOptions,
    *,
    title: str,
    outlines: bytes | None = None,
    project: bool = False,
) -> tuple[bytes, float, float, str]:
    """(PDF bytes, trim width mm, trim height mm, transparency) of an SVG document;
    `outlines`: an SVG of the same canvas whose shapes are the cut line (read again, since a
    drawing's shapes are streamed); `project`: a project's render.svg, with image stickers
    and each sticker clipped to its box."""
    drawing = read_svg(svg, project=project)
    width_mm, height_mm = trim_size_mm(options, drawing.width, drawing.height)
    cut = read_svg(outlines, project=project).shapes if outlines is not None else ()
    boxes = page_boxes(options, width_mm, height_mm)
    written = write_pdf(drawing, options, boxes, title=title, cut=cut)
    return written.data, width_mm, height_mm, written.transparency


def upload_pdf(*, body: Mapping) -> PdfFile:
    """The print PDF of an SVG sent as JSON `{svg, filename, <options>}`: the 25 MB rule and
    the reader's 400/422 as for the .ai export; `cut` outlines every filled shape but the
    background."""
    options = pdf_options(body)
    data = svg_document(body.get("svg"))
    stem = export_stem(body.get("filename"), ".pdf")
    outlines = data if options.cut else None
    pdf, width_mm, height_mm, transparency = run_heavy(
        "print.pdf", svg_pdf, data, options, title=stem, outlines=outlines
    )
    return PdfFile(pdf, download_name(stem, width_mm, height_mm, options.standard), transparency)


def project_pdf(*, project_id: str, query: Mapping, caller: Identity | None = None) -> PdfFile:
    """The print PDF of a project's poster, drawn from its render.svg: the background into
    the bleed, SVG stickers (word clouds among them) as outlines, image stickers as CMYK
    images with their alpha as a mask, a soft mask or flattened (the file's transparency);
    `cut` outlines every filled vector shape but the background. 404 for a project `caller`
    may not see."""
    options = pdf_options(query)
    svg = project_svg(project_id=project_id, caller=caller)
    stem = f"project-{project_id}"
    pdf, width_mm, height_mm, transparency = run_heavy(
        "print.pdf",
        svg_pdf,
        svg,
        options,
        title=stem,
        outlines=svg if options.cut else None,
        project=True,
    )
    return PdfFile(pdf, download_name(stem, width_mm, height_mm, options.standard), transparency)
