import re

import numpy as np
import pytest
from svgpathtools import Line, parse_path

from tests.errors import refusal
from tests.wordclouds.conftest import jobs_root
from wordclouds.drawing.line_spacing import spacing_figures
from wordclouds.models import Job

pytestmark = pytest.mark.django_db

# Two 50×50 squares 7 px apart, side by side; then, far to the right, a ring: circles of
# radius 40 and 30 about one centre (10 px apart everywhere), each drawn as two arcs.
SQUARES = "M 10 10 H 60 V 60 H 10 Z M 67 10 H 117 V 60 H 67 Z"
RING = (
    "M 290 100 A 40 40 0 0 1 210 100 A 40 40 0 0 1 290 100 Z "
    "M 280 100 A 30 30 0 0 1 220 100 A 30 30 0 0 1 280 100 Z"
)


def svg_job(*paths: str, width=400, height=200, transform="") -> str:
    """A finished job whose svg artifact is exactly the given paths."""
    job = Job.objects.create(status=Job.Status.SUCCESS, stage="done", name_list="names.xlsx")
    directory = jobs_root() / job.id
    directory.mkdir(parents=True)
    body = "".join(f'<path id="w{i}" d="{d}" fill="#000000"/>' for i, d in enumerate(paths, 1))
    if transform:
        body = f'<g transform="{transform}">{body}</g>'
    (directory / "wordcloud.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">{body}</svg>'
    )
    return job.id


def analyze(api, job_id, **body):
    return api.post(f"/api/jobs/{job_id}/analyze-line-spacing", body, format="json")


def test_squares_side_by_side_are_as_far_apart_as_their_gap(api):
    job_id = svg_job(SQUARES)

    summary = analyze(api, job_id, percentile=5, sampleStep=1).json()

    assert summary["minSpacingPx"] == pytest.approx(7, abs=1)
    assert summary["spacingPx"] == pytest.approx(7, abs=1)
    assert (summary["curveCount"], summary["segmentCount"]) == (2, 8)


def test_a_ring_is_as_wide_as_the_difference_of_its_radii(api):
    job_id = svg_job(RING)

    summary = analyze(api, job_id, percentile=50, sampleStep=2).json()

    assert summary["minSpacingPx"] == pytest.approx(10, abs=2)
    assert summary["spacingPx"] == pytest.approx(10, abs=2)
    assert (summary["curveCount"], summary["segmentCount"]) == (2, 4)


def test_the_percentile_picks_among_the_sampled_distances(api):
    # Squares: a quarter of the samples face the other square at 7 px; the rest are farther.
    job_id = svg_job(SQUARES)

    low = analyze(api, job_id, percentile=10, sampleStep=1).json()["spacingPx"]
    high = analyze(api, job_id, percentile=90, sampleStep=1).json()["spacingPx"]

    assert low == pytest.approx(7, abs=1)
    assert high > 30


def test_millimetres_follow_the_element_width(api):
    job_id = svg_job(SQUARES, width=400, height=200)

    summary = analyze(api, job_id, sampleStep=1, elementWidth=200, elementHeight=100).json()

    assert summary["spacingMm"] == pytest.approx(summary["spacingPx"] * 0.5)
    assert summary["minSpacingMm"] == pytest.approx(summary["minSpacingPx"] * 0.5)
    assert (summary["elementWidth"], summary["elementHeight"]) == (200, 100)


def test_defaults_are_the_source_size_at_96_dpi(api):
    job_id = svg_job(SQUARES, RING, width=960, height=480)

    summary = analyze(api, job_id).json()

    assert list(summary) == [
        "percentile",
        "spacingPx",
        "spacingMm",
        "minSpacingPx",
        "minSpacingMm",
        "curveCount",
        "segmentCount",
        "sourceWidth",
        "sourceHeight",
        "elementWidth",
        "elementHeight",
    ]
    assert summary["percentile"] == 5
    assert (summary["sourceWidth"], summary["sourceHeight"]) == (960, 480)
    assert summary["elementWidth"] == pytest.approx(254)
    assert summary["elementHeight"] == pytest.approx(127)
    assert summary["spacingMm"] == pytest.approx(summary["spacingPx"] * 254 / 960)
    assert (summary["curveCount"], summary["segmentCount"]) == (4, 12)


def test_group_transforms_are_applied(api):
    # Scaled by 2 about the origin: the 7 px gap becomes 14 px.
    job_id = svg_job(SQUARES, transform="scale(2)")

    summary = analyze(api, job_id, sampleStep=1).json()

    assert summary["minSpacingPx"] == pytest.approx(14, abs=1)


@pytest.mark.parametrize(
    "field, value, detail",
    [
        ("percentile", -1, "percentile must be a number from 0 to 100"),
        ("percentile", 100.5, "percentile must be a number from 0 to 100"),
        ("percentile", "5", "percentile must be a number from 0 to 100"),
        ("sampleStep", 0.2, "sampleStep must be a number from 0.25 to 100"),
        ("sampleStep", 101, "sampleStep must be a number from 0.25 to 100"),
        ("sampleStep", True, "sampleStep must be a number from 0.25 to 100"),
        ("elementWidth", 0, "elementWidth must be a number greater than 0"),
        ("elementHeight", -3, "elementHeight must be a number greater than 0"),
        ("elementHeight", "big", "elementHeight must be a number greater than 0"),
    ],
)
def test_bad_fields_are_400_naming_the_field(api, field, value, detail):
    job_id = svg_job(SQUARES)

    response = analyze(api, job_id, **{field: value})

    assert response.status_code == 400
    assert refusal(response) == detail


def test_bounds_themselves_are_accepted(api):
    job_id = svg_job(SQUARES)

    response = analyze(api, job_id, percentile=0, sampleStep=100)

    assert response.status_code == 200
    assert response.json()["spacingPx"] == response.json()["minSpacingPx"]


def test_unknown_job_is_404(api):
    response = analyze(api, "0" * 32)

    assert response.status_code == 404
    assert refusal(response) == "job not found"


def test_job_without_svg_is_404_artifact_not_ready(api):
    job = Job.objects.create(status=Job.Status.RUNNING, name_list="names.xlsx")

    response = analyze(api, job.id)

    assert response.status_code == 404
    assert refusal(response) == "artifact not ready"


def test_counts_on_an_engine_made_job_match_an_independent_reader(api, finished_job_dir):
    job_id = finished_job_dir()
    svg = (jobs_root() / job_id / "wordcloud.svg").read_text()
    contours = segments = 0
    for d in re.findall(r'<path id="w\d+"[^>]* d="([^"]*)"', svg):
        for subpath in parse_path(d).continuous_subpaths():
            drawn = [
                s for s in subpath if not (isinstance(s, Line) and abs(s.end - s.start) < 1e-6)
            ]
            contours += bool(drawn)
            segments += len(drawn)

    summary = analyze(api, job_id).json()

    assert (summary["curveCount"], summary["segmentCount"]) == (contours, segments)
    assert (summary["sourceWidth"], summary["sourceHeight"]) == (400, 300)
    assert 0 <= summary["minSpacingPx"] <= summary["spacingPx"]


@pytest.mark.parametrize("percentile", [0, 5, 37.5, 50, 100])
def test_the_figures_equal_a_brute_force_search(percentile):
    # Samples along 12 random polylines: dense along each, so k nearest are mostly their own.
    rng = np.random.default_rng(4)
    starts = rng.uniform(0, 60, size=(12, 2))
    steps = rng.normal(0, 0.4, size=(12, 80, 2)).cumsum(axis=1)
    points = (starts[:, None, :] + steps).reshape(-1, 2)
    contour = np.repeat(np.arange(12), 80)
    pairwise = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    pairwise[contour[:, None] == contour[None, :]] = np.inf
    nearest = pairwise.min(axis=1)

    spacing, least = spacing_figures(points, contour, percentile)

    assert spacing == pytest.approx(np.percentile(nearest, percentile))
    assert least == pytest.approx(nearest.min())
