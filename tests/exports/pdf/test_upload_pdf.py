"""POST /api/exports/pdf: an uploaded SVG becomes a print-ready PDF with the job PDF's
options; the .ai export's rules hold (svg required, 25 MB, 422 naming unsupported content),
and both readers draw the ink resvg draws from the SVG."""

import json

import pytest

from exports.pdf.preflight import preflight
from tests.errors import refusal
from tests.exports.pdf.readers import assert_same_ink, pdffonts, qpdf_check, separations
from tests.exports.readers import render_svg
from tests.exports.samples import FORBIDDEN, HAND_MADE, svg_document

pytestmark = pytest.mark.django_db


def export(api, **body):
    return api.post("/api/exports/pdf", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("sample", ["nested-transforms", "even-odd-holes", "dashed-strokes"])
def test_an_uploaded_svg_is_a_print_ready_pdf(api, sample):
    svg = HAND_MADE[sample]
    response = export(api, svg=svg, filename="my poster.pdf", width_mm="80", standard="x4")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Disposition"].startswith('attachment; filename="my poster-80x')
    assert response["Content-Disposition"].endswith('mm-PDFX-4.pdf"')
    data = response.content
    assert "No syntax or stream encoding errors found" in qpdf_check(data)
    assert preflight(data, "x4") == [] and pdffonts(data) == []
    assert_same_ink(data, render_svg(svg, zoom=2.0))


def test_cut_outlines_the_filled_shapes_on_the_spot_plate(api):
    response = export(api, svg=HAND_MADE["even-odd-holes"], cut=True)
    assert response.status_code == 200
    assert separations(response.content)["CutContour"].max() > 0.5


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        ({}, 400, "svg is required"),
        ({"svg": "<html/>"}, 400, "svg is not valid SVG"),
        ({"svg": "<svg/>", "bleed_mm": "30"}, 400, "bleed_mm must be from 0 to 25"),
        (
            {"svg": "<svg/>", "standard": "x1a", "colour": "rgb"},
            400,
            "colour rgb needs standard x4 or none (PDF/X-1a is CMYK only)",
        ),
        ({"svg": "x" * (25 * 1024 * 1024 + 1)}, 413, "svg exceeds 25 MB"),
    ],
)
def test_bad_uploads_are_refused(api, body, status, detail):
    response = export(api, **body)
    assert response.status_code == status
    assert refusal(response) == detail


def test_unsupported_content_is_named_as_for_the_ai_export(api):
    response = export(api, svg=svg_document(FORBIDDEN["image"] + FORBIDDEN["filter"]))
    assert response.status_code == 422
    assert refusal(response) == "svg uses unsupported content: filter, image"
