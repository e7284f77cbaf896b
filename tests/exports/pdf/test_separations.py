"""Ghostscript's tiffsep splits the print PDF into its plates: pure black words are on the
Black plate alone, a coloured background leaves no paper white in the bleed, crop marks lie
outside the bleed box only, and the cut line is on its spot plate alone (overprinting: the
process plates under it are as they are without it)."""

import numpy as np
import pytest

from tests.exports.pdf.readers import PROCESS_PLATES, pdfinfo_boxes, separations

pytestmark = pytest.mark.django_db
DPI = 72.0  # one pixel per point


def get_pdf(api, job_id: str, query: str) -> bytes:
    response = api.get(f"/api/jobs/{job_id}/files/pdf?width_mm=100&{query}")
    assert response.status_code == 200, response.content[:300]
    return response.content


def box_pixels(data: bytes, name: str, inset: int = 0) -> tuple[slice, slice]:
    """(rows, columns) of a box of page 1 in a 72-dpi plate, `inset` pixels inside it."""
    boxes = pdfinfo_boxes(data)
    height = boxes["MediaBox"][3]
    x0, y0, x1, y1 = boxes[name]
    top, left = round(height - y1), round(x0)
    return (
        slice(top + inset, top + round(y1 - y0) - inset),
        slice(left + inset, left + round(x1 - x0) - inset),
    )


@pytest.mark.parametrize(("black", "colour_plates_inked"), [("k", False), ("icc", True)])
def test_pure_black_words_are_on_the_black_plate_only(api, poster_job, black, colour_plates_inked):
    # given the job's words filled #000000 (custom.svg's default colour)
    job_id = poster_job("vertical")
    # when the PDF is made with the black rule
    plates = separations(get_pdf(api, job_id, f"fill=fill&black={black}"), DPI)
    # then (k) only the Black plate carries ink; through the profile, all four do
    assert plates["Black"].max() > 0.9
    for name in ("Cyan", "Magenta", "Yellow"):
        assert (plates[name].max() > 0.05) == colour_plates_inked, name


def test_a_coloured_background_fills_the_bleed(api, poster_job):
    job_id = poster_job("scripts")  # background #FFF3E0
    data = get_pdf(api, job_id, "")
    plates = separations(data, DPI)
    ink = sum(plates[name] for name in PROCESS_PLATES)
    rows, columns = box_pixels(data, "BleedBox", inset=1)
    trim_rows, trim_columns = box_pixels(data, "TrimBox", inset=-1)
    band = np.zeros(ink.shape, bool)
    band[rows, columns] = True
    band[trim_rows, trim_columns] = False
    assert band.sum() > 0
    assert (ink[band] > 0.01).all()  # no paper white anywhere in the bleed band


def test_crop_marks_lie_outside_the_bleed_box_on_every_plate(api, poster_job):
    job_id = poster_job("vertical")
    with_marks = get_pdf(api, job_id, "marks=1")
    plates = separations(with_marks, DPI)
    without_marks = get_pdf(api, job_id, "marks=0")
    plain = separations(without_marks, DPI)
    rows, columns = box_pixels(with_marks, "BleedBox")
    plain_rows, plain_columns = box_pixels(without_marks, "BleedBox")
    for name in PROCESS_PLATES:
        inside = plates[name][rows, columns]
        assert np.abs(inside - plain[name][plain_rows, plain_columns]).max() < 0.02, name
        outside = plates[name].copy()
        outside[rows, columns] = 0
        assert outside.max() > 0.5, name  # registration: the marks are on every plate
    assert max(plain[name].max() for name in PROCESS_PLATES) > 0  # the poster has ink


def test_the_cut_line_is_on_its_spot_plate_only(api, poster_job):
    job_id = poster_job("vertical")
    cut = separations(get_pdf(api, job_id, "cut=1&cut_name=Thru-cut"), DPI)
    plain = separations(get_pdf(api, job_id, "cut=0"), DPI)
    assert set(cut) == set(plain) | {"Thru-cut"}
    assert cut["Thru-cut"].max() > 0.5
    for name in PROCESS_PLATES:  # overprinting: nothing knocked out under the line
        assert np.abs(cut[name] - plain[name]).max() < 0.02, name
