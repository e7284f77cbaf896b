import io
import math
import os
import re
import sqlite3
import time

import numpy as np
import pytest
import resvg_py
import shapely
from defusedxml import ElementTree
from PIL import Image
from scipy import ndimage

from core import isolated
from tests.errors import refusal
from tests.wordclouds.conftest import jobs_root
from wordclouds import engine
from wordclouds.models import Job
from wordclouds.services import custom_svg as custom_svg_service

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
# Few names on a small canvas: large glyphs, so every pattern has room inside them.
NAMES = ["李雷", "韩梅梅", "Anna", "王芳"]
PARAMS = {"WIDTH": 360, "HEIGHT": 240, "SEED": 3}


@pytest.fixture
def job_id(finished_job_dir):
    return finished_job_dir(names=NAMES, params=PARAMS)


def custom_svg(api, job_id, **params):
    return api.get(f"/api/jobs/{job_id}/custom.svg", params)


def parsed(response):
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "image/svg+xml"
    return ElementTree.fromstring(response.content)


def ink(svg: bytes) -> np.ndarray:
    """Coverage 0..1 of each pixel, rendered at 2x."""
    png = resvg_py.svg_to_bytes(svg_string=svg.decode(), zoom=2)
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGBA"))[:, :, 3] / 255.0


def placements(job_id):
    with sqlite3.connect(jobs_root() / job_id / "positions.db") as connection:
        return [row[0] for row in connection.execute("SELECT id FROM words ORDER BY id")]


def test_default_is_the_solid_fill_in_black_one_group_per_placement(api, job_id):
    root = parsed(custom_svg(api, job_id))

    assert root.get("viewBox") == "0 0 360 240"
    groups = root.findall(f"{SVG}g")
    assert [g.get("id") for g in groups] == [f"w{i}" for i in placements(job_id)]
    paths = root.iter(f"{SVG}path")
    assert {(p.get("fill"), p.get("stroke")) for p in paths} == {("#000000", None)}


@pytest.mark.parametrize(
    "params",
    [
        {"fill": "dot", "spacing": "3", "radius": "1"},
        {"fill": "dot"},
        {"fill": "ring", "ring_spacing": "5", "ring_radius": "1.5", "ring_width": "0.6"},
        {"fill": "ring"},
        {"fill": "line", "line_spacing": "3", "line_width": "1", "line_angle": "30"},
        {"fill": "line"},
    ],
)
def test_patterns_are_plain_shapes_inside_the_glyphs(api, job_id, params):
    plain = custom_svg(api, job_id, color="#102030")
    pattern = custom_svg(api, job_id, color="#102030", **params)

    root = parsed(pattern)
    tags = {element.tag.removeprefix(SVG) for element in root.iter()}
    assert tags <= {"svg", "g", "path", "circle"}
    assert not any("opacity" in name for element in root.iter() for name in element.attrib)
    painted = {
        element.get(attribute) for element in root.iter() for attribute in ("fill", "stroke")
    }
    assert painted <= {None, "none", "#102030"}
    fill, marks = ink(plain.content), ink(pattern.content)
    assert marks.sum() > 0.02 * fill.sum()
    outside = marks[fill == 0].sum()
    assert outside <= 0.01 * marks.sum()


@pytest.mark.parametrize(
    "params, pitch",
    [
        ({"fill": "dot", "spacing": "3", "radius": "1"}, 3),
        ({"fill": "ring", "ring_spacing": "5", "ring_radius": "1.5", "ring_width": "0.6"}, 5),
    ],
)
def test_dot_and_ring_centres_are_on_the_grid(api, job_id, params, pitch):
    root = parsed(custom_svg(api, job_id, **params))

    circles = list(root.iter(f"{SVG}circle"))
    assert len(circles) > 20
    for circle in circles:
        for axis in ("cx", "cy"):
            steps = float(circle.get(axis)) / pitch
            assert steps == pytest.approx(round(steps), abs=1e-3)


@pytest.mark.parametrize("spacing", ["7", "11", "17"])
def test_every_grid_point_inside_a_glyph_gets_a_dot(api, job_id, spacing):
    # given grids about as coarse as the glyphs, so some words and counters hold no point
    plain = ink(custom_svg(api, job_id).content)
    dots = ink(custom_svg(api, job_id, fill="dot", spacing=spacing, radius="1").content)

    # then each grid point well inside the ink (rendered at 2x) has a dot on it
    pitch = 2 * float(spacing)
    rows, columns = np.meshgrid(
        np.arange(0, plain.shape[0], pitch).astype(int),
        np.arange(0, plain.shape[1], pitch).astype(int),
        indexing="ij",
    )
    deep = ndimage.binary_erosion(plain > 0.99, iterations=2)[rows, columns]
    assert deep.sum() > 5
    assert (dots[rows[deep], columns[deep]] > 0.5).all()


def test_ring_circles_have_the_requested_radius_and_width(api, job_id):
    root = parsed(
        custom_svg(api, job_id, fill="ring", ring_spacing=5, ring_radius=1.5, ring_width=0.6)
    )

    circles = list(root.iter(f"{SVG}circle"))
    assert {(c.get("r"), c.get("stroke-width"), c.get("fill")) for c in circles} == {
        ("1.5", "0.6", "none")
    }


def polygon_points(root) -> list[np.ndarray]:
    """The vertices of every subpath of every path (absolute M/L/Z data)."""
    rings = []
    for path in root.iter(f"{SVG}path"):
        for subpath in re.findall(r"M([^MZ]*)Z", path.get("d")):
            numbers = [float(v) for v in re.split(r"[ L]+", subpath.strip())]
            rings.append(np.array(numbers).reshape(-1, 2))
    return rings


@pytest.mark.parametrize("angle", [0, 30, 90, -45])
def test_line_strips_run_at_the_angle_and_spacing(api, job_id, angle):
    pitch, width = 3.0, 1.0
    root = parsed(
        custom_svg(api, job_id, fill="line", line_spacing=pitch, line_width=width, line_angle=angle)
    )

    theta = math.radians(angle)
    along, across = (
        np.array([math.cos(theta), math.sin(theta)]),
        np.array([-math.sin(theta), math.cos(theta)]),
    )
    rings = polygon_points(root)
    assert len(rings) > 20
    parallel = other = 0.0
    for ring in rings:
        # Every vertex lies within its strip: at most width/2 from a multiple of the pitch.
        offset = ring @ across / pitch
        assert np.abs(offset - np.round(offset)).max() * pitch <= width / 2 + 0.02
        edges = np.diff(np.vstack([ring, ring[:1]]), axis=0)
        lengths = np.hypot(*edges.T)
        is_parallel = np.abs(edges @ along) >= 0.999 * lengths
        parallel += lengths[is_parallel].sum()
        other += lengths[~is_parallel].sum()
    assert parallel > other


def test_stroke_adds_each_outline_in_the_color_and_line_width(api, job_id):
    root = parsed(
        custom_svg(api, job_id, fill="dot", stroke="true", color="#aa0000", line_width=0.5)
    )

    outlines = [p for p in root.iter(f"{SVG}path") if p.get("stroke")]
    assert len(outlines) == len(placements(job_id))
    assert {(p.get("stroke"), p.get("stroke-width"), p.get("fill")) for p in outlines} == {
        ("#AA0000", "0.5", "none")
    }


def test_stroke_0_adds_nothing(api, job_id):
    root = parsed(custom_svg(api, job_id, stroke="0"))

    assert not [p for p in root.iter(f"{SVG}path") if p.get("stroke")]


@pytest.mark.parametrize(
    "params, detail",
    [
        ({"fill": "zigzag"}, "fill must be one of fill, dot, line, ring"),
        ({"spacing": "0"}, "spacing must be a positive number"),
        ({"spacing": "abc"}, "spacing must be a positive number"),
        ({"radius": "-1"}, "radius must be a positive number"),
        ({"line_spacing": "nan"}, "line_spacing must be a positive number"),
        ({"line_width": "inf"}, "line_width must be a positive number"),
        ({"ring_radius": "0"}, "ring_radius must be a positive number"),
        ({"ring_width": "x"}, "ring_width must be a positive number"),
        ({"ring_spacing": "-8"}, "ring_spacing must be a positive number"),
        ({"line_angle": "north"}, "line_angle must be a number"),
        ({"color": "red"}, "color must be #RRGGBB"),
        ({"color": "#12345"}, "color must be #RRGGBB"),
        ({"stroke": "maybe"}, "stroke must be 0, 1, true or false"),
        ({"fill": "dot", "spacing": "0.02"}, "pattern too dense"),
        ({"fill": "ring", "ring_spacing": "0.02"}, "pattern too dense"),
        ({"fill": "line", "line_spacing": "0.0001", "line_width": "0.00005"}, "pattern too dense"),
    ],
)
def test_bad_parameters_are_400_naming_them(api, job_id, params, detail):
    response = custom_svg(api, job_id, **params)

    assert response.status_code == 400
    assert refusal(response) == detail


def test_unknown_job_is_404(api):
    response = custom_svg(api, "f" * 32)

    assert response.status_code == 404
    assert refusal(response) == "job not found"


def test_job_without_positions_is_404_artifact_not_ready(api):
    job = Job.objects.create(status=Job.Status.RUNNING, name_list="names.xlsx")

    response = custom_svg(api, job.id)

    assert response.status_code == 404
    assert refusal(response) == "artifact not ready"


@pytest.mark.parametrize("fill", ["dot", "ring"])
def test_a_grid_that_misses_every_glyph_gives_an_empty_drawing(api, job_id, fill):
    root = parsed(custom_svg(api, job_id, fill=fill, spacing=5000, ring_spacing=5000))

    assert root.get("viewBox") == "0 0 360 240"
    assert list(root) == []


def test_the_outlines_are_those_of_wordcloud_svg_even_when_the_font_is_gone(api, job_id):
    # given the job's record names a font id whose font no longer exists
    Job.objects.create(
        id=job_id, status=Job.Status.SUCCESS, name_list="names.xlsx", font_id="0" * 32
    )

    # when custom.svg is fetched, then each placement is drawn with its path of wordcloud.svg
    root = parsed(custom_svg(api, job_id))
    drawn = {g.get("id"): g.find(f"{SVG}path").get("d") for g in root.findall(f"{SVG}g")}
    engine_svg = ElementTree.parse(jobs_root() / job_id / "wordcloud.svg").getroot()
    written = {p.get("id"): p.get("d") for p in engine_svg.iter(f"{SVG}path")}
    assert drawn == written
    assert len(drawn) == len(placements(job_id))


@pytest.mark.parametrize("fill", ["dot", "line", "ring"])
def test_patterns_and_outlines_of_a_variable_font_keep_to_the_letters(
    api, media_root, names_xlsx, fill
):
    # given a job drawn with Inter, a variable font whose glyphs have overlapping contours
    import fontpkg_inter

    inter = fontpkg_inter.ROOT / "files" / "Inter[opsz,wght].ttf"
    job_id = "c" * 32
    engine.generate(
        names_path=names_xlsx(["ABBA 8080", "Bobby", "Qopda"]),
        out_dir=jobs_root() / job_id,
        params=PARAMS,
        font_path=inter,
    )
    # when the pattern is drawn, and the outline alone (a grid too coarse for any mark)
    plain = ink(custom_svg(api, job_id).content)
    marks = ink(
        custom_svg(
            api, job_id, fill=fill, spacing="2", radius="0.8", ring_spacing="3", line_spacing="2"
        ).content
    )
    outline = ink(
        custom_svg(
            api,
            job_id,
            fill=fill,
            spacing="5000",
            ring_spacing="5000",
            line_spacing="5000",
            stroke="true",
            line_width="0.5",
        ).content
    )
    # then no mark lies in a counter: the background enclosed by a letter, a pixel in from
    # its edge
    background, _ = ndimage.label(plain < 0.01)
    counters = ~np.isin(
        background,
        np.unique(
            np.concatenate([background[0], background[-1], background[:, 0], background[:, -1]])
        ),
    )
    counters = ndimage.binary_erosion(counters, iterations=2)
    assert counters.sum() > 200  # the names have counters to test
    assert marks[counters].max() < 0.05
    # and the outline runs along the letters' edges only: none of it in a counter, none
    # inside the ink, where a cutter following the outline would cut a letter apart (the
    # crossings of overlapping contours, were they not merged)
    inside = ndimage.binary_erosion(plain > 0.99, iterations=2)
    assert outline.sum() > 0.05 * plain.sum()
    assert outline[counters].max() < 0.05
    assert outline[inside].max() < 0.05


@pytest.mark.parametrize("fill", ["line", "ring"])
def test_words_drawn_in_two_processes_give_the_same_document(api, job_id, monkeypatch, fill):
    # given the one-process drawing (a small job's path data is under the split size)
    params = {"fill": fill, "ring_spacing": "5", "line_spacing": "3"}
    alone = custom_svg(api, job_id, **params).content

    # when any path data is split between the request's child and a helper process
    monkeypatch.setattr(custom_svg_service, "SPLIT_MIN_BYTES", 0)
    split = custom_svg(api, job_id, **params).content

    # and when the helper fails, leaving its half to the child
    monkeypatch.setattr(isolated, "_helper", lambda *args: os._exit(1))
    recovered = custom_svg(api, job_id, **params).content

    # then the documents are the same
    assert split == alone
    assert recovered == alone


@pytest.mark.parametrize(
    "params",
    [
        {"fill": "line", "line_width": "5e-324"},
        {"fill": "line", "line_width": "9999", "line_spacing": "10000", "line_angle": "-360"},
        {"fill": "line", "line_width": "0.01", "line_spacing": "0.02", "line_angle": "359.9"},
        {"fill": "line", "line_width": "5e-324", "line_spacing": "0.5", "line_angle": "45"},
        {"fill": "dot", "radius": "5e-324", "spacing": "3"},
        {"fill": "ring", "ring_radius": "5e-324", "ring_width": "5e-324", "ring_spacing": "3"},
        {"fill": "ring", "ring_radius": "10000", "ring_width": "10000"},
    ],
)
def test_extreme_values_the_api_allows_draw_a_document(api, job_id, params):
    response = custom_svg(api, job_id, **params)

    assert response.status_code in (200, 400), response.content[:200]
    if response.status_code == 200:
        parsed(response)


def test_the_childs_half_failing_answers_at_once_and_ends_the_helper(api, job_id, monkeypatch):
    # given the drawing split in two, and the request's child running out of memory on its
    # half (the test process forked the child; the child forked the helper)
    monkeypatch.setattr(custom_svg_service, "SPLIT_MIN_BYTES", 0)
    drawn, test_process = custom_svg_service.pattern_elements, os.getpid()

    def out_of_memory_in_the_child(outlines, options):
        if os.getppid() == test_process:
            raise MemoryError
        return drawn(outlines, options)

    monkeypatch.setattr(custom_svg_service, "pattern_elements", out_of_memory_in_the_child)

    # when custom.svg is fetched, the helper's half more than a pipe holds
    started = time.monotonic()
    response = custom_svg(api, job_id, fill="line", line_spacing="0.4", line_width="0.1")

    # then the answer is the child's, at once, not at the time limit
    assert response.status_code == 422
    assert "memory" in response.json()["detail"]
    assert time.monotonic() - started < 10


def test_geos_out_of_memory_is_422_too_big(api, job_id, monkeypatch):
    def bad_alloc(outlines, options):
        raise shapely.errors.GEOSException("b'std::bad_alloc'")

    monkeypatch.setattr(custom_svg_service, "pattern_elements", bad_alloc)

    response = custom_svg(api, job_id, fill="dot")

    assert response.status_code == 422
    assert "memory" in response.json()["detail"]
