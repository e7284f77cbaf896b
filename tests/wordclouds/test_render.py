import json
from io import BytesIO
from xml.etree import ElementTree

import pytest
from PIL import Image

from tests.wordclouds.asset_factories import asset_id, png_bytes, project_create, svg_bytes

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"
RED, BLUE, BACKGROUND = (255, 0, 0), (0, 0, 255), (0x12, 0x34, 0x56)


def poster(api, stickers, template_id="poster_1x1"):
    project = project_create(
        api,
        template_id=template_id,
        background_color="#123456",
        stickers=json.dumps(stickers),
    ).json()
    return project["id"]


def rendered_png(api, project_id) -> Image.Image:
    response = api.get(f"/api/projects/{project_id}/render.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    return Image.open(BytesIO(response.content))


def rendered_svg(api, project_id) -> ElementTree.Element:
    response = api.get(f"/api/projects/{project_id}/render.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response["Content-Security-Policy"].startswith("default-src 'none'")
    return ElementTree.fromstring(response.content)


def test_png_has_template_size_background_and_the_sticker_where_placed(api):
    red = asset_id(api, png_bytes((20, 10), (*RED, 255)))
    project_id = poster(api, [{"asset_id": red, "x": 100, "y": 200, "width": 300, "height": 50}])

    image = rendered_png(api, project_id)

    assert image.size == (1080, 1080)
    assert image.getpixel((5, 5)) == BACKGROUND
    assert image.getpixel((1075, 1075)) == BACKGROUND
    # stretched to the whole box, not only the 2:1 part of it
    for inside in ((101, 201), (250, 225), (398, 248)):
        assert image.getpixel(inside) == RED
    for outside in ((98, 225), (402, 225), (250, 198), (250, 252)):
        assert image.getpixel(outside) == BACKGROUND


def test_png_rotates_a_sticker_clockwise_about_its_centre(api):
    # left half red, right half blue; turned 90° clockwise the red half is on top
    half = Image.new("RGBA", (20, 10), (*BLUE, 255))
    half.paste((*RED, 255), (0, 0, 10, 10))
    out = BytesIO()
    half.save(out, "PNG")
    sticker = asset_id(api, out.getvalue())
    project_id = poster(
        api,
        [{"asset_id": sticker, "x": 400, "y": 500, "width": 200, "height": 100, "rotation": 90}],
    )

    image = rendered_png(api, project_id)

    # box centre (500, 550); rotated it spans x 450..550, y 450..650
    assert image.getpixel((500, 500)) == RED
    assert image.getpixel((500, 600)) == BLUE
    assert image.getpixel((420, 550)) == BACKGROUND
    assert image.getpixel((500, 440)) == BACKGROUND


def test_png_draws_stickers_in_order_and_keeps_transparency(api):
    red = asset_id(api, png_bytes((4, 4), (*RED, 255)))
    clear = asset_id(api, png_bytes((4, 4), (0, 255, 0, 0)))
    project_id = poster(
        api,
        [
            {"asset_id": red, "x": 0, "y": 0, "width": 100, "height": 100},
            {"asset_id": red, "x": 50, "y": 0, "width": 100, "height": 100},
            {"asset_id": clear, "x": 0, "y": 0, "width": 200, "height": 200},
        ],
    )

    image = rendered_png(api, project_id)

    assert image.getpixel((120, 50)) == RED
    assert image.getpixel((180, 150)) == BACKGROUND


def test_png_rasterises_svg_stickers_stretched_to_the_box(api):
    # a 10×10 viewBox: the left half blue
    shape = asset_id(api, svg_bytes('<rect width="5" height="10" fill="#0000FF"/>'), "s.svg")
    project_id = poster(
        api,
        [{"asset_id": shape, "x": 100, "y": 100, "width": 400, "height": 100}],
        template_id="poster_16x9",
    )

    image = rendered_png(api, project_id)

    assert image.size == (1920, 1080)
    assert image.getpixel((110, 150)) == BLUE
    assert image.getpixel((290, 150)) == BLUE
    assert image.getpixel((310, 150)) == BACKGROUND
    assert image.getpixel((110, 90)) == BACKGROUND


def test_png_with_stickers_partly_and_wholly_off_the_poster(api):
    red = asset_id(api, png_bytes((4, 4), (*RED, 255)))
    project_id = poster(
        api,
        [
            {"asset_id": red, "x": -50, "y": 1000, "width": 100, "height": 500000},
            {"asset_id": red, "x": -5000, "y": 0, "width": 100, "height": 100, "rotation": 45},
        ],
    )

    image = rendered_png(api, project_id)

    assert image.getpixel((10, 1070)) == RED
    assert image.getpixel((60, 1070)) == BACKGROUND


def test_svg_keeps_svg_stickers_vector_and_embeds_raster_ones(api):
    shape = asset_id(
        api,
        svg_bytes(
            '<defs><linearGradient id="g"/></defs><rect id="r" fill="url(#g)" width="5" height="10"/>'
            '<use href="#r"/><script>alert(1)</script><image href="/etc/passwd"/>'
            "<style>.a{fill:url(#g)} #r{fill:url(http://x/y)} .b{fill:#abc}</style>"
            '<circle class="a b" r="1"/>',
            attributes='width="10mm" height="20mm" onload="alert(2)"',
        ),
        "s.svg",
    )
    red_png = png_bytes((2, 2), (*RED, 255))
    red = asset_id(api, red_png)
    project_id = poster(
        api,
        [
            {"asset_id": shape, "x": 10, "y": 20, "width": 300, "height": 400, "rotation": 30},
            {"asset_id": red, "x": 1, "y": 2, "width": 3.25, "height": 4},
            {"asset_id": shape, "x": 0, "y": 0, "width": 1, "height": 1},
        ],
    )

    root = rendered_svg(api, project_id)

    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "1080",
        "1080",
        "0 0 1080 1080",
    )
    assert root[0].tag == f"{SVG}rect" and root[0].get("fill") == "#123456"
    first, second, third = root[1:]
    assert first.get("transform") == "rotate(30 160 220)"
    nested = first[0]
    assert nested.tag == f"{SVG}svg"
    assert {
        key: nested.get(key)
        for key in ("x", "y", "width", "height", "preserveAspectRatio", "viewBox")
    } == {
        "x": "10",
        "y": "20",
        "width": "300",
        "height": "400",
        "preserveAspectRatio": "none",
        "viewBox": "0 0 37.7953 75.5906",
    }
    assert nested.get("onload") is None
    assert nested.find(f"{SVG}rect").get("fill") == "url(#s0-g)"
    assert nested.find(f"{SVG}use").get("href") == "#s0-r"
    assert nested.find(f"{SVG}script") is None
    assert nested.find(f"{SVG}image").get("href") is None
    assert nested.find(f"{SVG}style").text == (
        ".s0-a{fill:url(#s0-g)} #s0-r{fill:none} .s0-b{fill:#abc}"
    )
    assert nested.find(f"{SVG}circle").get("class") == "s0-a s0-b"
    assert third[0].find(f"{SVG}rect").get("id") == "s2-r"
    image = second[0]
    assert second.get("transform") is None
    assert image.tag == f"{SVG}image"
    assert (image.get("x"), image.get("width"), image.get("preserveAspectRatio")) == (
        "1",
        "3.25",
        "none",
    )
    assert image.get("href").startswith("data:image/png;base64,")


def test_a_real_word_cloud_becomes_a_poster(api, finished_job_dir):
    # given a job's svg and png artifacts imported as assets
    job_id = finished_job_dir()
    imported = {
        kind: api.post(f"/api/assets/from-job/{job_id}", {"kind": kind}, format="multipart").json()
        for kind in ("svg", "png")
    }
    assert {record["content_type"] for record in imported.values()} == {
        "image/svg+xml",
        "image/png",
    }
    stickers = [
        {"asset_id": imported["svg"]["id"], "x": 0, "y": 0, "width": 400, "height": 300},
        {"asset_id": imported["png"]["id"], "x": 500, "y": 0, "width": 400, "height": 300},
    ]
    project_id = poster(api, stickers)

    # when it is rendered
    root = rendered_svg(api, project_id)
    image = rendered_png(api, project_id)

    # then the words stay vector paths in the SVG, and the PNG shows the artifact's pixels:
    # exactly where it was placed 1:1, and where resvg drew the same outlines
    words = [path for path in root[1].iter(f"{SVG}path") if path.get("id", "").startswith("s0-w")]
    assert words
    artifact = Image.open(
        BytesIO(b"".join(api.get(imported["png"]["download_url"]).streaming_content))
    ).convert("RGB")
    points = [(x, y) for x in range(0, 400, 3) for y in range(0, 300, 3)]
    ink = [point for point in points if sum(artifact.getpixel(point)) < 600]
    paper = [point for point in points if artifact.getpixel(point) == (255, 255, 255)]
    assert ink and paper
    assert all(image.getpixel((500 + x, y)) == artifact.getpixel((x, y)) for x, y in points)
    assert sum(sum(image.getpixel(point)) < 700 for point in ink) > 0.9 * len(ink)
    assert sum(image.getpixel(point) == (255, 255, 255) for point in paper) > 0.9 * len(paper)
