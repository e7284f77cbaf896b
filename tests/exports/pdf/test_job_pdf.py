"""GET /api/jobs/{id}/files/pdf on the fixture posters: the PDF is well formed (qpdf), passes
the project's preflight, has the asked trim box inside a 3 mm bleed box, holds no font and,
in PDF/X-1a, no RGB; Ghostscript and Poppler both draw it with the ink of the job's PNG (or
of resvg's drawing of custom.svg for the engraving fills)."""

import io
import re

import numpy as np
import pikepdf
import pytest
from PIL import Image

from exports.pdf.options import MM
from exports.pdf.preflight import preflight
from tests.exports.pdf.readers import assert_same_ink, pdffonts, pdfinfo_boxes, qpdf_check
from tests.exports.readers import render_svg
from wordclouds.selectors import artifact_path

pytestmark = pytest.mark.django_db


def get_pdf(api, job_id: str, query: str) -> bytes:
    response = api.get(f"/api/jobs/{job_id}/files/pdf?{query}")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def assert_print_ready(data: bytes, standard: str, width_mm: float, height_mm: float):
    assert "No syntax or stream encoding errors found" in qpdf_check(data)
    assert preflight(data, standard) == []
    boxes = pdfinfo_boxes(data)
    x0, y0, x1, y1 = boxes["TrimBox"]
    assert abs((x1 - x0) - width_mm * MM) <= 0.01 and abs((y1 - y0) - height_mm * MM) <= 0.01
    bleed = 3 * MM
    assert np.allclose(
        boxes["BleedBox"], (x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed), atol=0.01
    )
    assert pdffonts(data) == []
    if standard == "x1a":
        assert_no_rgb(data)


def assert_no_rgb(data: bytes):
    """No RGB colour operator and no soft mask anywhere in the file."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            content = b"".join(
                stream.read_bytes()
                for stream in (
                    page.obj.Contents
                    if isinstance(page.obj.Contents, pikepdf.Array)
                    else [page.obj.Contents]
                )
            )
            assert not re.search(rb"(?<![\w/])(rg|RG)(?!\w)", content)
            operators = {str(op) for _, op in pikepdf.parse_content_stream(page, "sc scn SC SCN")}
            # sc/scn only in spot colours here: every colour space on the page is CMYK-based
            for space in page.obj.Resources.get("/ColorSpace", {}).values():
                assert str(space[0]) == "/Separation" and str(space[2]) == "/DeviceCMYK"
            assert operators <= {"sc", "scn", "SC", "SCN"}
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary):
                assert "/SMask" not in obj or obj.SMask == pikepdf.Name("/None")


@pytest.mark.parametrize(
    ("poster", "standard"),
    [("scripts", "x1a"), ("scripts", "x4"), ("mask", "x1a"), ("vertical", "x1a")],
)
def test_a_poster_is_a_print_ready_pdf_with_the_ink_of_its_png(api, poster_job, poster, standard):
    # given a finished job
    job_id = poster_job(poster)
    png = Image.open(artifact_path(job_id, "png")).convert("RGB")
    # when its PDF is asked a quarter of a mm per pixel wide (height from the poster's
    # aspect): at the PNG's 101.6 dpi, the 3 mm bleed is a whole number of pixels, so that
    # both readers' trim box starts on a pixel edge as the PNG's does
    width_mm = png.width / 4
    data = get_pdf(api, job_id, f"width_mm={width_mm}&standard={standard}")
    # then it is print-ready at that size
    assert_print_ready(data, standard, width_mm, png.height / 4)
    # and two independent readers draw the PNG's ink
    assert_same_ink(data, np.asarray(png))


@pytest.mark.parametrize("query", ["fill=dot", "fill=line&line_angle=30", "fill=ring"])
def test_an_engraving_fill_is_a_print_ready_pdf_of_its_custom_svg(api, poster_job, query):
    job_id = poster_job("vertical")
    svg = api.get(f"/api/jobs/{job_id}/custom.svg?{query}").content.decode()
    data = get_pdf(api, job_id, f"{query}&width_mm=200&height_mm=150")
    assert_print_ready(data, "x1a", 200, 150)
    assert_same_ink(data, render_svg(svg, zoom=2.0))  # 1-px lines: 2 pixels wide
