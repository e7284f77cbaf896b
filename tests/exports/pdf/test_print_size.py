"""Posters made for their printed size, and the names' preflight of a print (docs/engine.md,
"Printed size"; docs/exports.md, "Preflight"): the 3,000-name heart at 420 mm with every
name at least 6 pt, checked through the print PDF's own geometry; at 210 mm a failure naming
a standard size that fits, which does; a poster printed too small flagged, and refused with
strict=1."""

import io
from pathlib import Path

import pikepdf
import pytest

from exports.pdf.options import MM, pdf_options
from exports.pdf.services import svg_pdf
from wordclouds.engine import LayoutError, generate

FIXTURES = Path(__file__).resolve().parents[3] / "bench" / "fixtures"
HEART = {"DATA_COL_INDEX": 1, "WIDTH": 2000, "HEIGHT": 2000, "SEED": 1}


def heart(out: Path, **params):
    return generate(
        names_path=FIXTURES / "names_3000.xlsx",
        out_dir=out,
        params={**HEART, **params},
        mask_path=FIXTURES / "heart.png",
    )


def test_the_heart_at_420_mm_prints_every_name_at_6_pt_or_more(tmp_path):
    metrics = heart(tmp_path, PRINT_WIDTH_MM=420, MIN_NAME_PT=6)

    assert metrics["names_placed"] == metrics["names_read"] == 3000
    assert metrics["print"]["width_mm"] == 420 and metrics["print"]["smallest_name_pt"] >= 6
    # the PDF's own geometry: its trim box is 420 mm wide and holds the 2000 px canvas
    svg = (tmp_path / "wordcloud.svg").read_bytes()
    data, _, _, _ = svg_pdf(svg, pdf_options({"width_mm": "420", "standard": "none"}), title="t")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        trim = [float(v) for v in pdf.pages[0].obj["/TrimBox"]]
    points_per_px = (trim[2] - trim[0]) / 2000
    assert abs((trim[2] - trim[0]) / MM - 420) < 0.01
    assert metrics["font_size"]["min"] * points_per_px >= 6


def test_at_210_mm_the_failure_names_a_size_that_fits(tmp_path):
    with pytest.raises(LayoutError) as failed:
        heart(tmp_path / "a4", PRINT_WIDTH_MM=210, MIN_NAME_PT=6)

    sentence = str(failed.value)
    assert "with every name at least 6 pt at 210 × 210 mm" in sentence
    assert "the smallest standard size that would fit is A" in sentence
    width = int(sentence.rsplit("(", 1)[1].split(" ")[0])
    assert width > 210
    metrics = heart(tmp_path / "named", PRINT_WIDTH_MM=width, MIN_NAME_PT=6)
    assert metrics["names_placed"] == 3000 and metrics["print"]["smallest_name_pt"] >= 6


@pytest.mark.django_db
def test_a_poster_printed_too_small_is_flagged_and_refused_when_strict(api, poster_job):
    job_id = poster_job("scripts")

    report = api.get(f"/api/jobs/{job_id}/files/pdf?width_mm=40&preflight=1").json()
    assert report["widthMm"] == 40 and report["minNamePt"] == 6
    assert report["namesUnderMinPt"] > 0 and report["smallestNamePt"] < 6
    assert report["thinnestStrokePt"] > 0
    refused = api.get(f"/api/jobs/{job_id}/files/pdf?width_mm=40&strict=1")
    assert refused.status_code == 422
    assert refused.json()["code"] == "names_too_small"
    assert refused.json()["detail"].startswith(f"{report['namesUnderMinPt']} of ")
    large = api.get(f"/api/jobs/{job_id}/files/pdf?width_mm=2000&strict=1&standard=none")
    assert large.status_code == 200 and large.content.startswith(b"%PDF")
