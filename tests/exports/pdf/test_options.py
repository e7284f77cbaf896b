"""The print PDF's options: bad values are refused with 400 naming the parameter (nothing
drawn), the download name says size and standard, one side keeps the poster's aspect, and
the press profile chosen is the one embedded."""

import io

import pikepdf
import pytest

from exports.pdf.colour import PROFILES
from tests.errors import refusal
from tests.exports.pdf.readers import pdfinfo_boxes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("width_mm=1.9", "width_mm must be from 2 to 5000"),
        ("height_mm=abc", "height_mm must be a number"),
        ("width_mm=nan", "width_mm must be a number"),
        ("bleed_mm=-1", "bleed_mm must be from 0 to 25"),
        ("marks=maybe", "marks must be 0, 1, true or false"),
        ("standard=x3", "standard must be one of x1a, x4, none"),
        ("colour=rgb", "colour rgb needs standard x4 or none (PDF/X-1a is CMYK only)"),
        ("black=blue", "black must be one of k, rich, icc"),
        ("profile=fogra27", "profile must be one of fogra39, fogra51, gracol2006, swop"),
        ("cut=2", "cut must be 0, 1, true or false"),
        (
            "cut_name=%2FCut",
            "cut_name must be 1 to 63 letters, digits, spaces, '_', '.' or "
            "'-', starting with a letter or digit",
        ),
        ("height_mm=4000", "width_mm from the poster's aspect exceeds 5000 mm"),
        ("width_mm=2.5", "height_mm from the poster's aspect is below 2 mm"),
        ("fill=hatch", "fill must be one of fill, dot, line, ring"),
    ],
)
def test_a_bad_option_is_refused_naming_it(api, poster_job, query, detail):
    job_id = poster_job("vertical")
    response = api.get(f"/api/jobs/{job_id}/files/pdf?{query}")
    assert response.status_code == 400
    assert refusal(response) == detail


def test_an_unknown_job_is_404(api):
    response = api.get(f"/api/jobs/{'0' * 32}/files/pdf")
    assert response.status_code == 404 and refusal(response) == "job not found"


@pytest.mark.parametrize(
    ("query", "name", "size"),
    [
        ("height_mm=300", "400x300mm-PDFX-1a", (400, 300)),  # 800 x 600 px: 4:3
        ("width_mm=297.5&height_mm=210&standard=x4", "297.5x210mm-PDFX-4", (297.5, 210)),
        ("standard=none&colour=rgb", "211.7x158.7mm-PDF", None),  # 96 px per inch
    ],
)
def test_the_download_says_size_and_standard(api, poster_job, query, name, size):
    job_id = poster_job("vertical")
    response = api.get(f"/api/jobs/{job_id}/files/pdf?{query}")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="wordcloud-{job_id}-{name}.pdf"'
    )
    if size is not None:
        x0, y0, x1, y1 = pdfinfo_boxes(response.content)["TrimBox"]
        assert abs(x1 - x0 - size[0] * 72 / 25.4) <= 0.01
        assert abs(y1 - y0 - size[1] * 72 / 25.4) <= 0.01


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_chosen_press_profile_is_the_output_intent(api, poster_job, profile, settings):
    job_id = poster_job("vertical")
    response = api.get(f"/api/jobs/{job_id}/files/pdf?profile={profile}&standard=x4")
    assert response.status_code == 200
    with pikepdf.open(io.BytesIO(response.content)) as pdf:
        [intent] = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == PROFILES[profile].identifier
        expected = (settings.ICC_PROFILE_DIR / PROFILES[profile].file).read_bytes()
        assert intent.DestOutputProfile.read_bytes() == expected
