"""This app's face for commerce: a design's production files at a product's size (docs/
commerce.md, "Production files"), made by the same code as the download endpoints.

- print: the PDF/X-1a with a 3 mm bleed and the words' outlines as the cut line (a job's
  poster, or a project's);
- engrave: the DXF and the laser SVG of a job (a project has no outlines to engrave).

The poster keeps its aspect: it is made `width_mm` wide, or `height_mm` high without a
width. Each file comes with its preflight, a short summary staff read before production: a
job's print PDF carries its names' preflight (exports/pdf/services.py, names_preflight)."""

from dataclasses import dataclass

from core.errors import Unprocessable
from exports.laser.services import job_laser
from exports.pdf.options import SIZE_MAX_MM, SIZE_MIN_MM
from exports.pdf.services import job_pdf, names_preflight, project_pdf

__all__ = ["SIZE_MAX_MM", "SIZE_MIN_MM", "ProductionFile", "production_files"]


@dataclass(frozen=True)
class ProductionFile:
    name: str
    content: bytes
    content_type: str
    preflight: dict


def production_files(
    *, design: dict, kind: str, width_mm: float | None, height_mm: float | None
) -> list[ProductionFile]:
    """The files of one design list item (`{"jobId"}`, or `{"projectId"}` with the store key
    of its frozen copy, `frozenSvg`, when it has one); a ServiceError whose sentence says what
    is wrong when they cannot be made."""
    size = {"width_mm": width_mm} if width_mm else {"height_mm": height_mm}
    if kind == "print":
        query = {**size, "cut": "1", "standard": "x1a"}
        made = (
            job_pdf(job_id=design["jobId"], query=query)
            if "jobId" in design
            else project_pdf(
                project_id=design["projectId"], query=query, frozen=design.get("frozenSvg", "")
            )
        )
        preflight = {"standard": "PDF/X-1a", "bleedMm": 3}
        if "jobId" in design:
            preflight |= names_preflight(job_id=design["jobId"], query=query)
        return [ProductionFile(made.filename, made.content, "application/pdf", preflight)]
    if "jobId" not in design:
        raise Unprocessable(
            f"engraving files are made from a job; project {design['projectId']} is not one",
            code="unprocessable",  # made by the worker; staff read the sentence
        )
    return [
        ProductionFile(
            made.filename,
            made.content,
            made.content_type,
            {
                "widthMm": round(made.width_mm, 2),
                "heightMm": round(made.height_mm, 2),
                "names": made.names,
                "thinNames": made.thin_names,
                "beamMm": made.beam_mm,
            },
        )
        for made in job_laser(job_id=design["jobId"], kinds=("dxf", "laser.svg"), query=size)
    ]
