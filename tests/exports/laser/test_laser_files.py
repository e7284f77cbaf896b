"""GET /api/jobs/{id}/files/dxf and /files/laser.svg on the fixture posters, read by readers
that are not ours: ezdxf's audit, Inkscape's DXF import, Inkscape and rsvg for the SVG. The
ink they draw agrees with the job's PNG, the sizes are the asked millimetres, every word is
closed outlines on ENGRAVE and the cut outline is on CUT."""

import io
import json
import re
import subprocess
import tempfile
from pathlib import Path

import ezdxf
import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from tests.engine.conftest import ring_mask
from tests.exports.readers import ink_iou
from tests.wordclouds.conftest import names_xlsx  # noqa: F401
from wordclouds.selectors import artifact_path
from wordclouds.services.designs import job_mask
from wordclouds.services.job_run import job_execute
from wordclouds.services.jobs import job_create

pytestmark = pytest.mark.django_db
IOU_MIN = 0.95
INKSCAPE_EXTENSIONS = "/usr/share/inkscape/extensions"
PX_PER_MM = 4  # the posters are drawn at this scale: the PNG's pixels are the files' 1/4 mm


def get_file(api, job_id: str, kind: str, query: str):
    response = api.get(f"/api/jobs/{job_id}/files/{kind}?{query}")
    assert response.status_code == 200, response.content[:300]
    return response


def inkscape(source: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["inkscape", *options, str(source)], capture_output=True, text=True, timeout=300, check=True
    )


def inkscape_png(data: bytes, suffix: str, width: int, height: int) -> np.ndarray:
    """Inkscape's drawing of the file at `width` x `height`, on white, its red (the cut
    line) taken out."""
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / f"in{suffix}", Path(folder) / "out.png"
        source.write_bytes(data)
        inkscape(
            source,
            f"--export-filename={target}",
            f"--export-width={width}",
            f"--export-height={height}",
            "--export-background=#ffffff",
            "--export-background-opacity=1",
        )
        return without_red(np.asarray(Image.open(target).convert("RGB")))


def inkscape_dxf_import(data: bytes) -> dict[str, list[str]]:
    """Inkscape's DXF import (its dxf_input extension, run as Inkscape runs it, without the
    options dialog that needs a display): each layer's paths, (path data in px at 96 per
    inch with y down, whether it is filled: a hatch)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.dxf"
        source.write_bytes(data)
        svg = subprocess.run(
            ["/usr/bin/python3", f"{INKSCAPE_EXTENSIONS}/dxf_input.py", str(source)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout
    layers = re.findall(
        r'<g inkscape:groupmode="layer" inkscape:label="([^"]*)">(.*?)</g>', svg, re.S
    )
    return {
        name: [
            (d, "fill:none" not in rest)
            for d, rest in re.findall(r'<path d="([^"]*)"([^>]*)>', body)
        ]
        for name, body in layers
    }


def filled_drawing(layers: dict[str, list[str]], width: int, height: int) -> np.ndarray:
    """The ENGRAVE outlines Inkscape read, filled even-odd (the closed outlines as a laser
    fills them), within the CUT outline's box, drawn by rsvg at `width` x `height`."""
    xs, ys = (
        np.array([float(v) for d, _ in layers["CUT"] for v in re.findall(r"-?[\d.]+", d)])
        .reshape(-1, 2)
        .T
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="{xs.min()} {ys.min()} {xs.max() - xs.min()} {ys.max() - ys.min()}" '
        'preserveAspectRatio="none">'
        f'<path d="{" ".join(d for d, hatch in layers["ENGRAVE"] if not hatch)}" fill="#000" fill-rule="evenodd"/></svg>'
    )
    return rsvg(svg.encode(), width, height)


def rsvg(svg: bytes, width: int, height: int) -> np.ndarray:
    """rsvg's drawing of an SVG document at `width` x `height`, on white."""
    png = subprocess.run(
        ["rsvg-convert", f"--width={width}", f"--height={height}", "--background-color=white"],
        input=svg,
        capture_output=True,
        check=True,
    ).stdout
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def without_red(image: np.ndarray) -> np.ndarray:
    red = image[..., 0].astype(int) - image[..., 1] > 60
    image = image.copy()
    image[red] = 255
    return image


def png_of(job_id: str) -> np.ndarray:
    return np.asarray(Image.open(artifact_path(job_id, "png")).convert("RGB"))


@pytest.fixture
def mask_job(poster_job):
    return poster_job("mask")


def test_the_dxf_is_millimetres_with_closed_words_on_engrave_and_the_cut_on_cut(api, mask_job):
    png = png_of(mask_job)
    width_mm = png.shape[1] / PX_PER_MM
    response = get_file(api, mask_job, "dxf", f"width_mm={width_mm}&hatch=1")
    assert response["Content-Type"] == "image/vnd.dxf"
    document = ezdxf.read(io.StringIO(response.content.decode()))
    auditor = document.audit()
    assert not auditor.has_errors, [str(error) for error in auditor.errors]
    assert document.dxfversion >= "AC1024"  # R2010
    assert document.header["$INSUNITS"] == 4 and document.header["$MEASUREMENT"] == 1
    space = document.modelspace()
    engraved = space.query('LWPOLYLINE[layer=="ENGRAVE"]')
    cut = space.query('LWPOLYLINE[layer=="CUT"]')
    assert len(engraved) > 0 and all(line.closed for line in engraved)
    assert len(cut) == 1 and cut[0].closed and cut[0].dxf.color == 1
    assert document.layers.get("CUT").color == 1
    assert len(space.query("HATCH")) == int(response["X-Laser-Names"])
    xs, ys = zip(*(point[:2] for line in space.query("LWPOLYLINE") for point in line))
    assert abs(max(xs) - min(xs) - width_mm) <= 0.1
    assert abs(max(ys) - min(ys) - png.shape[0] / PX_PER_MM) <= 0.1
    # Inkscape's own DXF import reads every word's outlines as closed paths on ENGRAVE and
    # the cut outline on CUT; filled, they have the PNG's ink.
    layers = inkscape_dxf_import(response.content)
    assert len(layers["ENGRAVE"]) == len(engraved) + len(space.query("HATCH"))
    assert all(d.rstrip().endswith(("z", "Z")) for d, _ in layers["ENGRAVE"])
    assert sum(hatch for _, hatch in layers["ENGRAVE"]) == len(space.query("HATCH"))
    assert ink_iou(png, filled_drawing(layers, png.shape[1], png.shape[0])) >= IOU_MIN


def test_the_laser_svg_is_the_asked_millimetres_for_inkscape_and_rsvg(api, mask_job):
    png = png_of(mask_job)
    width_mm = png.shape[1] / PX_PER_MM
    response = get_file(api, mask_job, "laser.svg", f"width_mm={width_mm}")
    height_mm = png.shape[0] / PX_PER_MM
    svg = response.content.decode()
    assert re.search(r'stroke="#FF0000"[^>]*vector-effect="non-scaling-stroke"', svg)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "laser.svg"
        source.write_bytes(response.content)
        sizes = inkscape(source, "--query-width", "--query-height").stdout.split()
        # Inkscape answers in px at 96 per inch
        assert [float(v) * 25.4 / 96 for v in sizes] == pytest.approx(
            [width_mm, height_mm], abs=0.1
        )
        info = subprocess.run(
            ["rsvg-convert", "--dpi-x=25.4", "--dpi-y=25.4", str(source)],
            capture_output=True,
            check=True,
        ).stdout
        # at 25.4 dpi one pixel is a millimetre
        assert Image.open(io.BytesIO(info)).size == (round(width_mm), round(height_mm))
    drawn = without_red(rsvg(response.content, png.shape[1], png.shape[0]))
    assert ink_iou(png, drawn) >= IOU_MIN
    assert (
        ink_iou(png, inkscape_png(response.content, ".svg", png.shape[1], png.shape[0])) >= IOU_MIN
    )


def test_names_thinner_than_the_beam_are_counted(api, mask_job):
    small = get_file(api, mask_job, "laser.svg", "width_mm=20&beam_mm=0.5")
    large = get_file(api, mask_job, "laser.svg", "width_mm=2000&beam_mm=0.5")
    names = int(small["X-Laser-Names"])
    assert names > 0 and int(small["X-Laser-Thin-Names"]) == names
    assert int(large["X-Laser-Thin-Names"]) == 0
    hairlines = get_file(api, mask_job, "laser.svg", "hairline=1").content.decode()
    engraved = hairlines.split('inkscape:label="ENGRAVE">', 1)[1].split("</g>", 1)[0]
    assert (
        engraved.count(
            'fill="none" stroke="#000000" stroke-width="0.025" vector-effect="non-scaling-stroke"'
        )
        == names
    )
    high = get_file(api, mask_job, "dxf", "height_mm=50")  # the height alone: the width follows
    assert high["X-Laser-Size-Mm"] == "60.000x50.000"  # the poster is 960 x 800


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("width_mm=abc", "option_invalid"),
        ("beam_mm=0", "option_invalid"),
        ("fill=dot", "option_invalid"),
        ("fill=line&line_spacing=-1", "option_invalid"),
    ],
)
def test_bad_options_are_refused_with_a_code(api, mask_job, query, code):
    response = api.get(f"/api/jobs/{mask_job}/files/dxf?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["detail"]


@pytest.fixture
def ring_job(tmp_path, names_xlsx, django_capture_on_commit_callbacks):  # noqa: F811
    """A job drawn in a ring mask (an ellipse with a hole) through the service, run here."""
    mask = ring_mask(tmp_path / "ring.png", size=(480, 400))
    names = names_xlsx(["Anna", "Bruno", "Chloé", "李雷", "韩梅梅", "Dmitri"] * 4)
    with django_capture_on_commit_callbacks(execute=False):
        job = job_create(
            params=json.dumps({"MODE": "IMAGE", "SEED": 3}),
            name_list=SimpleUploadedFile("names.xlsx", names.read_bytes()),
            mask_image=SimpleUploadedFile("ring.png", mask.read_bytes()),
        )
    job_execute(job_id=job.id)
    return job.id


def test_a_masked_job_is_cut_along_the_mask_with_its_hole(api, ring_job):
    response = get_file(api, ring_job, "dxf", "width_mm=115")
    space = ezdxf.read(io.StringIO(response.content.decode())).modelspace()
    cut = space.query('LWPOLYLINE[layer=="CUT"]')
    assert len(cut) == 2 and all(line.closed for line in cut)  # the ring and its hole
    xs, ys = zip(*(point[:2] for line in cut for point in line))
    assert abs(max(xs) - min(xs) - 115) <= 0.1 and min(xs) == min(ys) == 0
    names = [point[:2] for line in space.query('LWPOLYLINE[layer=="ENGRAVE"]') for point in line]
    assert all(-0.3 <= x <= max(xs) + 0.3 and -0.3 <= y <= max(ys) + 0.3 for x, y in names)

    # At its own size (96 px per inch) the laser SVG is the mask's box of the canvas, with
    # the PNG's ink there.
    rows, columns = np.nonzero(job_mask(job_id=ring_job))
    top, bottom, left, right = rows.min(), rows.max() + 1, columns.min(), columns.max() + 1
    png = png_of(ring_job)[top:bottom, left:right]
    assert png.shape[:2] != png_of(ring_job).shape[:2]  # the piece is the ring, not the canvas
    svg = get_file(api, ring_job, "laser.svg", "").content
    drawn = without_red(rsvg(svg, png.shape[1], png.shape[0]))
    assert ink_iou(png, drawn) >= IOU_MIN


def test_the_line_fill_is_drawn_as_closed_strips_with_custom_svgs_ink(api, mask_job):
    query = "fill=line&line_spacing=4&line_width=2&line_angle=30"
    png = png_of(mask_job)
    dxf = get_file(api, mask_job, "dxf", f"{query}&width_mm={png.shape[1] / PX_PER_MM}")
    document = ezdxf.read(io.StringIO(dxf.content.decode()))
    assert not document.audit().has_errors
    strips = document.modelspace().query('LWPOLYLINE[layer=="ENGRAVE"]')
    plain = get_file(api, mask_job, "dxf", "").content.decode().count("LWPOLYLINE")
    assert len(strips) > plain and all(strip.closed for strip in strips)

    custom = api.get(f"/api/jobs/{mask_job}/custom.svg?{query}").content
    expected = rsvg(custom, png.shape[1], png.shape[0])
    svg = get_file(api, mask_job, "laser.svg", query).content
    assert ink_iou(expected, without_red(rsvg(svg, png.shape[1], png.shape[0]))) >= IOU_MIN
