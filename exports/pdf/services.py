"""Print PDFs (docs/exports.md, "Print PDF"): a job's poster (its wordcloud.svg, or its
custom.svg in an engraving fill style), a project's poster (its render.svg: vector stickers
as outlines, image stickers as images) or an uploaded SVG, drawn from the same outlines as
the SVG, in a forked child with the heavy-work limits (core/isolated.py). The job's and the
project's SVG come from wordclouds' face, wordclouds/services/designs.py."""

from collections.abc import Mapping
from dataclasses import dataclass, fields

from core.isolated import run_heavy
from exports.pdf.options import PdfOptions, download_name, pdf_options, trim_size_mm
from exports.pdf.writer import page_boxes, write_pdf
from exports.services import export_stem, svg_document
from exports.svg_reader import read_svg
from wordclouds.services.designs import (
    CustomSvgOptions,
    custom_svg_options,
    custom_svg_render,
    job_artifact,
    project_svg,
)

PDF_CONTENT_TYPE = "application/pdf"
CUSTOM_SVG_QUERY = tuple(field.name for field in fields(CustomSvgOptions))


@dataclass(frozen=True)
class PdfFile:
    content: bytes
    filename: str
    transparency: str = "none"  # how its images keep their alpha (exports/pdf/images.py)


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


def project_pdf(*, project_id: str, query: Mapping) -> PdfFile:
    """The print PDF of a project's poster, drawn from its render.svg: the background into
    the bleed, SVG stickers (word clouds among them) as outlines, image stickers as CMYK
    images with their alpha as a mask, a soft mask or flattened (the file's transparency);
    `cut` outlines every filled vector shape but the background."""
    options = pdf_options(query)
    svg = project_svg(project_id=project_id)
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
