"""Groups as layers in the export files (docs/exports.md, Layers), on posters with 1, 3 and 5
groups over a few seeds, each file read back by its own format's rules: the print PDF
(GET /files/pdf, PDF/X-4 and no standard) has one optional content group per group, named
as it and in the groups' order, on when viewed and printed, each group's words drawn inside
its group's marked content; the .ai (the converter on wordcloud.svg) an Illustrator layer per
group; the laser SVG (GET /files/laser.svg) an Inkscape layer `ENGRAVE <group>` per group.
Each word is told by where its outline starts (its path's first point, as wordcloud.svg
draws it), so a layer is checked to hold exactly its group's words from positions.db."""

import io
import re
import shutil
import uuid
from xml.etree import ElementTree

import pikepdf
import pytest

from exports.converter import convert
from exports.pdf.preflight import preflight
from tests.engine.test_group_layers import (
    CASES,
    INKSCAPE,
    SVG,
    group_order,
    grouped_poster,
    words_by_group,
)
from tests.exports.pdf.readers import qpdf_check
from tests.wordclouds.conftest import jobs_root
from wordclouds.engine.path_data import parse_path

pytestmark = pytest.mark.django_db
PAINTS = {"f", "f*", "F", "S", "s", "B", "B*", "b", "b*", "n"}
TOLERANCE_PX = 0.02  # the files' rounding of a start point, in canvas px


@pytest.fixture(scope="module")
def posters(tmp_path_factory):
    """The grouped posters, laid out once: (groups, seed) → folder."""
    base = tmp_path_factory.mktemp("grouped")
    made = {}
    for groups, seed in CASES:
        (base / f"{groups}-{seed}").mkdir()
        made[groups, seed] = grouped_poster(base / f"{groups}-{seed}", groups, seed)
    return made


@pytest.fixture
def grouped_job(posters, media_root):
    """A factory: a grouped poster as a finished job; (job id, its folder)."""

    def make(groups: int, seed: int):
        job_id = uuid.uuid4().hex
        shutil.copytree(posters[groups, seed], jobs_root() / job_id)
        return job_id, jobs_root() / job_id

    return make


def word_starts(folder) -> dict[int, tuple[float, float]]:
    """Where each word's outline starts in wordcloud.svg, canvas px, by word id."""
    svg = (folder / "wordcloud.svg").read_text()
    starts = {}
    for word_id, d in re.findall(r'<path id="w(\d+)"[^>]*? d="([^"]*)"', svg):
        subpaths = parse_path(d)
        if subpaths:
            starts[int(word_id)] = subpaths[0].start
    return starts


def words_at(points, starts) -> set[int]:
    """The word whose outline starts at each point (canvas px); every point must be one."""
    found = []
    for x, y in points:
        near = [i for i, (sx, sy) in starts.items() if abs(sx - x) + abs(sy - y) <= TOLERANCE_PX]
        assert len(near) == 1, (x, y, near)
        found.append(near[0])
    assert len(set(found)) == len(found)
    return set(found)


def expected(folder, starts) -> list[tuple[str, set[int]]]:
    """Each group (in order) and its inked words."""
    by_group = words_by_group(folder)
    return [(group, by_group[group] & starts.keys()) for group in group_order(folder)]


def pdf_layers(data: bytes) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each optional content group's name and the start point of each path drawn in its
    marked content (user units: the SVG's px), in order of the catalog's /OCGs."""
    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[0]
    names = {str(key)[1:]: str(ocg.Name) for key, ocg in page.Resources.Properties.items()}
    drawn: dict[str, list] = {}
    layer, fresh = None, True
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "BDC" and str(operands[0]) == "/OC":
            layer = names[str(operands[1])[1:]]
            assert layer not in drawn, "a layer's words are drawn in one marked content"
            drawn[layer] = []
        elif op == "EMC":
            layer = None
        elif op in PAINTS:
            fresh = True
        elif op == "m" and fresh:
            fresh = False
            if layer is not None:
                drawn[layer].append((float(operands[0]), float(operands[1])))
    order = [str(ocg.Name) for ocg in pdf.Root.OCProperties.OCGs]
    assert list(drawn) == order
    return [(name, drawn[name]) for name in order]


@pytest.mark.parametrize(("groups", "seed"), CASES)
@pytest.mark.parametrize("standard", ["x4", "none"])
def test_the_pdf_has_a_printable_layer_per_group(api, grouped_job, groups, seed, standard):
    job_id, folder = grouped_job(groups, seed)
    response = api.get(f"/api/jobs/{job_id}/files/pdf?width_mm=130&standard={standard}")
    assert response.status_code == 200, response.content[:300]
    data = response.content
    assert "No syntax or stream encoding errors found" in qpdf_check(data)
    assert preflight(data, standard) == []
    starts = word_starts(folder)
    layers = pdf_layers(data)
    assert [(name, words_at(points, starts)) for name, points in layers] == expected(folder, starts)
    pdf = pikepdf.open(io.BytesIO(data))
    properties = pdf.Root.OCProperties
    assert list(properties.D.Order) == list(properties.OCGs)
    assert "/AS" not in properties.D and str(properties.D.Name)
    for ocg in properties.OCGs:
        assert ocg.Usage.Print.PrintState == pikepdf.Name.ON
        assert ocg.Usage.View.ViewState == pikepdf.Name.ON
    assert "/OFF" not in properties.D


def test_a_pdf_x1a_has_no_layers(api, grouped_job):
    """PDF/X-1a is PDF 1.3, which has no optional content: the words are all drawn, none
    in a layer."""
    job_id, _ = grouped_job(3, 5)
    response = api.get(f"/api/jobs/{job_id}/files/pdf?width_mm=130&standard=x1a")
    assert response.status_code == 200, response.content[:300]
    pdf = pikepdf.open(io.BytesIO(response.content))
    assert "/OCProperties" not in pdf.Root
    assert b"BDC" not in pdf.pages[0].Contents.read_bytes()


def ai_layers(data: bytes, height_pt: float) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each Illustrator layer's name and the start point of each shape in it (canvas px:
    the .ai's page points, y up, taken back)."""
    layers: list[tuple[str, list]] = []
    fresh = False
    for line in data.decode("latin-1").splitlines():
        if line.endswith(" Ln"):
            name = line[: -len(" Ln")]
            assert name.startswith("(") and name.endswith(")")
            layers.append((name[1:-1], []))
        elif line.endswith(" XR"):
            fresh = True
        elif line.endswith(" m") and fresh:
            fresh = False
            x, y = map(float, line.split()[:2])
            layers[-1][1].append((x / 0.75, (height_pt - y) / 0.75))
    return layers


@pytest.mark.parametrize(("groups", "seed"), CASES)
def test_the_ai_has_a_named_layer_per_group(grouped_job, groups, seed):
    _, folder = grouped_job(groups, seed)
    svg = (folder / "wordcloud.svg").read_bytes()
    data = convert(svg, title="grouped")
    starts = word_starts(folder)
    height_pt = float(re.search(rb'height="(\d+)"', svg).group(1)) * 0.75
    layers = ai_layers(data, height_pt)
    background, *grouped = layers
    assert background[0] == "Layer 1" and len(background[1]) == 1  # the background alone
    assert [(name, words_at(points, starts)) for name, points in grouped] == expected(
        folder, starts
    )
    assert f"%AI5_NumLayers: {len(layers)}\n".encode() in data
    assert data.count(b"%AI5_BeginLayer") == data.count(b"%AI5_EndLayer--") == len(layers)


@pytest.mark.parametrize(("groups", "seed"), CASES)
def test_the_laser_svg_has_an_engrave_layer_per_group(api, grouped_job, groups, seed):
    job_id, folder = grouped_job(groups, seed)
    response = api.get(f"/api/jobs/{job_id}/files/laser.svg?width_mm=130")
    assert response.status_code == 200, response.content[:300]
    root = ElementTree.fromstring(response.content)
    scale = 130 / 520  # mm per canvas px: the cut outline is the 520 px canvas
    starts = word_starts(folder)
    layers = []
    for layer in root:
        assert layer.tag == SVG + "g" and layer.get(INKSCAPE + "groupmode") == "layer"
        firsts = [re.match(r"M([-\d.]+) ([-\d.]+)", p.get("d")) for p in layer.iter(SVG + "path")]
        points = [(float(m[1]) / scale, float(m[2]) / scale) for m in firsts]
        layers.append((layer.get(INKSCAPE + "label"), layer.get("id"), points))
    *engraved, cut = layers
    assert cut[:2] == ("CUT", "CUT")
    assert [(label, words_at(points, starts)) for label, _, points in engraved] == [
        (f"ENGRAVE {group}", ids) for group, ids in expected(folder, starts)
    ]
    assert [layer_id for _, layer_id, _ in engraved] == [
        f"ENGRAVE-group-{k}" for k in range(1, len(engraved) + 1)
    ]
