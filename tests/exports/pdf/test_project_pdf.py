"""GET /api/projects/{id}/render.pdf: a template with a word-cloud job, an SVG sticker and PNG
stickers with a hard and a soft alpha is a print-ready PDF (qpdf, the preflight, trim and
bleed boxes, no font, no RGB and no soft mask in PDF/X-1a) that Ghostscript and Poppler both
draw with the ink of the project's render.png; the X-PDF-Transparency header says how the
images' alpha was kept."""

import io
import json

import numpy as np
import pikepdf
import pytest
from PIL import Image, ImageDraw, ImageFilter

from exports.pdf.preflight import preflight
from tests.errors import refusal
from tests.exports.pdf.readers import assert_same_ink, separations
from tests.exports.pdf.test_job_pdf import assert_print_ready
from tests.wordclouds.asset_factories import asset_id, project_create, svg_bytes

pytestmark = pytest.mark.django_db
TEMPLATE_SIDE = 1080  # poster_1x1
WIDTH_MM = TEMPLATE_SIDE / 4  # a quarter mm per pixel (test_job_pdf.py says why)


def disc_png(*, soft: bool) -> bytes:
    """A dark disc on transparent pixels: its edge hard (alpha 0 or 255 only) or soft (a
    blurred alpha)."""
    alpha = Image.new("L", (160, 160), 0)
    ImageDraw.Draw(alpha).ellipse((20, 20, 140, 140), fill=255)
    if soft:
        alpha = alpha.filter(ImageFilter.GaussianBlur(4))
    image = Image.new("RGBA", alpha.size, (25, 25, 35, 255) if soft else (110, 10, 30, 255))
    image.putalpha(alpha)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


STAR = svg_bytes(
    '<polygon points="5,0 6.2,3.6 10,3.6 7,5.9 8.1,9.5 5,7.3 1.9,9.5 3,5.9 0,3.6 3.8,3.6" fill="#1B5E20"/>'
)


def project(api, stickers: list[tuple[str, dict]], background: str = "#FFF3E0") -> str:
    response = project_create(
        api,
        background_color=background,
        stickers=json.dumps([{"asset_id": asset, **box} for asset, box in stickers]),
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def word_cloud_asset(api, poster_job) -> str:
    response = api.post(f"/api/assets/from-job/{poster_job('vertical')}", {"kind": "svg"})
    assert response.status_code == 201, response.content
    return response.json()["id"]


def get_pdf(api, project_id: str, query: str):
    response = api.get(f"/api/projects/{project_id}/render.pdf?{query}")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return response


def rendered_png(api, project_id: str) -> np.ndarray:
    response = api.get(f"/api/projects/{project_id}/render.png")
    assert response.status_code == 200
    return np.asarray(Image.open(io.BytesIO(response.content)).convert("RGB"))


@pytest.mark.parametrize(("standard", "transparency"), [("x1a", "flattened"), ("x4", "soft-mask")])
def test_a_project_is_a_print_ready_pdf_with_the_ink_of_its_png(
    api, poster_job, standard, transparency
):
    # given a project: a word cloud, an SVG star turned 30°, a hard- and a soft-edged PNG
    project_id = project(
        api,
        [
            (word_cloud_asset(api, poster_job), {"x": 440, "y": 560, "width": 600, "height": 450}),
            (
                asset_id(api, STAR, "star.svg"),
                {"x": 60, "y": 600, "width": 380, "height": 380, "rotation": 30},
            ),
            (asset_id(api, disc_png(soft=False)), {"x": 60, "y": 60, "width": 400, "height": 300}),
            (asset_id(api, disc_png(soft=True)), {"x": 560, "y": 80, "width": 420, "height": 420}),
        ],
    )
    # when its PDF is asked
    response = get_pdf(api, project_id, f"width_mm={WIDTH_MM}&standard={standard}")
    # then it is print-ready, says how the soft edge was kept, and draws the PNG's ink
    assert_print_ready(response.content, standard, WIDTH_MM, WIDTH_MM)
    assert response["X-PDF-Transparency"] == transparency
    assert response["Content-Disposition"] == (
        f'attachment; filename="project-{project_id}-270x270mm-'
        f'{"PDFX-1a" if standard == "x1a" else "PDFX-4"}.pdf"'
    )
    assert_same_ink(response.content, rendered_png(api, project_id))


def image_masks(data: bytes) -> list[tuple[str, bool, bool]]:
    """(colour space family, has /Mask, has /SMask) of each image XObject of page 1."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        images = pdf.pages[0].obj.Resources.get("/XObject", {}).values()
        return [
            (
                str(
                    image.ColorSpace
                    if isinstance(image.ColorSpace, pikepdf.Name)
                    else image.ColorSpace[0]
                ),
                "/Mask" in image,
                "/SMask" in image,
            )
            for image in images
        ]


@pytest.mark.parametrize(
    ("soft", "query", "transparency", "images"),
    [
        (False, "standard=x1a", "mask", [("/DeviceCMYK", True, False)]),
        (True, "standard=x1a", "flattened", [("/DeviceCMYK", True, False)]),
        (True, "standard=x4", "soft-mask", [("/DeviceCMYK", False, True)]),
        (False, "standard=x4&colour=rgb", "mask", [("/ICCBased", True, False)]),
    ],
)
def test_an_image_stickers_alpha_is_a_mask_a_soft_mask_or_flattened(
    api, soft, query, transparency, images
):
    # on white: a soft edge's ink boundary moves with how each reader turns CMYK into RGB,
    # and with a light background close to the ink threshold it moves far
    sticker = asset_id(api, disc_png(soft=soft))
    box = {"x": 100, "y": 100, "width": 500, "height": 500}
    project_id = project(api, [(sticker, box)], background="#FFFFFF")
    response = get_pdf(api, project_id, f"width_mm=100&{query}")
    assert response["X-PDF-Transparency"] == transparency
    assert image_masks(response.content) == images
    assert preflight(response.content, "x4" if "x4" in query else "x1a") == []
    assert_same_ink(response.content, boxed_down(api, project_id, 400))


def test_the_preflight_refuses_a_soft_mask_or_an_rgb_image_in_x1a(api):
    sticker = asset_id(api, disc_png(soft=False))
    project_id = project(api, [(sticker, {"x": 0, "y": 0, "width": 500, "height": 500})])
    data = get_pdf(api, project_id, "width_mm=100").content
    with pikepdf.open(io.BytesIO(data)) as pdf:
        image = next(iter(pdf.pages[0].obj.Resources.XObject.values()))
        image.SMask = image.Mask
        image.ColorSpace = pikepdf.Name.DeviceRGB
        out = io.BytesIO()
        pdf.save(out)
    assert preflight(out.getvalue(), "x1a") == [
        "page 1: image /Im1 has a soft mask",
        "page 1: image /Im1 is in /DeviceRGB",
    ]


def boxed_down(api, project_id: str, side: int) -> np.ndarray:
    """render.png boxed down to `side` pixels: a quarter mm each at side / 4 mm."""
    png = Image.fromarray(rendered_png(api, project_id))
    return np.asarray(png.resize((side, side), Image.Resampling.BOX))


def test_an_svg_sticker_is_clipped_to_its_box_as_in_render_png(api):
    # a square three times the sticker's viewBox, centred on it: only the box shows
    overflowing = asset_id(
        api, svg_bytes('<rect x="-10" y="-10" width="30" height="30" fill="#263238"/>'), "big.svg"
    )
    box = {"x": 300, "y": 200, "width": 400, "height": 300, "rotation": 20}
    project_id = project(api, [(overflowing, box)], background="#FFFFFF")
    data = get_pdf(api, project_id, "width_mm=100&bleed_mm=0").content
    assert preflight(data, "x1a") == []
    assert_same_ink(data, boxed_down(api, project_id, 400))


def test_cut_outlines_a_projects_vector_stickers_on_the_spot_plate(api):
    star = asset_id(api, STAR, "star.svg")
    project_id = project(api, [(star, {"x": 100, "y": 100, "width": 600, "height": 600})])
    plates = separations(get_pdf(api, project_id, "width_mm=100&cut=1").content)
    assert plates["CutContour"].max() > 0.5


def test_an_image_placed_twice_is_embedded_once(api):
    sticker = asset_id(api, disc_png(soft=False))
    boxes = [
        {"x": 0, "y": 0, "width": 300, "height": 300},
        {"x": 400, "y": 400, "width": 500, "height": 200, "rotation": 45},
    ]
    project_id = project(api, [(sticker, box) for box in boxes])
    data = get_pdf(api, project_id, "width_mm=100").content
    assert image_masks(data) == [("/DeviceCMYK", True, False)]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        operators = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0], "Do")]
    assert operators == ["Do", "Do"]


def test_a_project_without_images_says_none(api):
    project_id = project(
        api, [(asset_id(api, STAR, "star.svg"), {"x": 0, "y": 0, "width": 500, "height": 500})]
    )
    assert get_pdf(api, project_id, "width_mm=100")["X-PDF-Transparency"] == "none"


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("bleed_mm=30", "bleed_mm must be from 0 to 25"),
        ("standard=x1a&colour=rgb", "colour rgb needs standard x4 or none (PDF/X-1a is CMYK only)"),
        ("profile=japan", "profile must be one of fogra39, fogra51, gracol2006, swop"),
    ],
)
def test_bad_options_are_refused_as_for_the_job_pdf(api, query, detail):
    project_id = project(api, [])
    response = api.get(f"/api/projects/{project_id}/render.pdf?{query}")
    assert response.status_code == 400
    assert refusal(response) == detail


def test_an_svg_sticker_the_reader_cannot_hold_is_named(api):
    gradient = svg_bytes(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient>'
        '</defs><rect width="10" height="10" fill="url(#g)"/>'
    )
    star, shaded = asset_id(api, STAR, "star.svg"), asset_id(api, gradient, "shaded.svg")
    box = {"x": 0, "y": 0, "width": 100, "height": 100}
    project_id = project(api, [(star, box), (shaded, box)])
    response = api.get(f"/api/projects/{project_id}/render.pdf")
    assert response.status_code == 422
    assert refusal(response) == "stickers[1] uses unsupported content: linearGradient"


def test_an_unknown_project_is_404(api):
    response = api.get("/api/projects/nope/render.pdf")
    assert response.status_code == 404
    assert refusal(response) == "project not found"
